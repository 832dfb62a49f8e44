'use strict';
/**
 * Suites that run one at a time after the others (scripts/run-tests.js), as patterns on their paths:
 * each kills or restarts processes it started, or runs a Temporal cluster or a second dev server of
 * its own, and what it proves depends on having the two cores to itself. Every other suite runs side
 * by side with the others; a suite joins this list only with the reason it needs the machine.
 */
const SERIAL_SUITES = [
  // A Temporal cluster of its own (server, schema tool, Temporal Web) on PostgreSQL.
  'test/cluster/',
  // Kill and restart the API, the worker, PostgreSQL or the local launcher mid-case.
  'test/processes/backup-restore',
  'test/processes/cluster-launcher',
  'test/processes/local-mode',
  // Local mode of its own (a second dev server), driven by the README's shell lines.
  'test/processes/first-journey',
  'test/processes/postgres-outage',
  'test/cases/durability',
];

module.exports = { SERIAL_SUITES };
