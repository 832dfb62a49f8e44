#!/usr/bin/env node
'use strict';
/**
 * Lists the suites of the last `npm test` by wall time, slowest first, from the JSON reports that
 * scripts/run-tests.js keeps in test-results/timing/: `node scripts/slowest-suites.js [how many]`
 * (every suite by default). Where the suite's time goes is then in jest's per-test times.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const REPORTS = path.join(ROOT, 'test-results', 'timing');

const suiteSeconds = (suite) => (suite.endTime - suite.startTime) / 1000;

/** One line per suite, slowest first: its seconds and its path. */
function slowestSuites(suites, count = suites.length) {
  return [...suites]
    .sort((a, b) => suiteSeconds(b) - suiteSeconds(a))
    .slice(0, count)
    .map((suite) => `${suiteSeconds(suite).toFixed(1).padStart(7)} s  ${path.relative(ROOT, suite.name)}`);
}

module.exports = { REPORTS, slowestSuites, suiteSeconds };

if (require.main === module) {
  const reports = fs.existsSync(REPORTS)
    ? fs.readdirSync(REPORTS).filter((file) => file.endsWith('.json'))
    : [];
  if (reports.length === 0) {
    process.stderr.write(`No test reports in ${path.relative(ROOT, REPORTS)}: run npm test first.\n`);
    process.exit(1);
  }
  const suites = reports.flatMap(
    (file) => JSON.parse(fs.readFileSync(path.join(REPORTS, file), 'utf8')).testResults ?? [],
  );
  const count = process.argv[2] ? Number(process.argv[2]) : suites.length;
  process.stdout.write(`${slowestSuites(suites, count).join('\n')}\n`);
}
