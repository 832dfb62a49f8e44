#!/usr/bin/env node
'use strict';
/**
 * The README's test command: runs the suite in two groups and reports its time against the budget.
 * - Side by side: every suite but the serial ones, on TEST_WORKERS jest workers (3 by default, the
 *   fastest measured on two cores; docs/testing.md). Each worker has its own Temporal namespace, its
 *   own database and its own task queues (test/harness/).
 * - Serial: suites that need the machine to themselves (they kill processes, run a cluster, or time
 *   what they check), one at a time, after the others.
 * Each group's per-suite times are read from jest's JSON report (kept in test-results/timing/ for
 * scripts/slowest-suites.js); the slowest suites are listed, and a
 * run over TEST_BUDGET_SECONDS is warned about (never failed), so the change that adds minutes is
 * seen the day it lands. Extra arguments (a path, `-t name`) pick suites, which then run in one group.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { SERIAL_SUITES } = require('../test/serial-suites.js');
const { REPORTS, slowestSuites, suiteSeconds } = require('./slowest-suites.js');

const ROOT = path.join(__dirname, '..');
const JEST = path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
const DEFAULT_WORKERS = 3;
const DEFAULT_BUDGET_SECONDS = 900;
const SLOWEST_SHOWN = 15;

function positiveInteger(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    process.stderr.write(`${name} must be a positive integer (got "${raw}")\n`);
    process.exit(2);
  }
  return value;
}

/** Runs jest on one group; answers its exit code and the JSON report it wrote (if it got that far). */
function runGroup({ name, title, jestArguments, extraArguments }) {
  fs.mkdirSync(REPORTS, { recursive: true });
  const reportFile = path.join(REPORTS, `${name}.json`);
  fs.rmSync(reportFile, { force: true });
  process.stdout.write(`\n== tests: ${title}\n`);
  const startedAt = Date.now();
  return new Promise((resolve) => {
    const jest = spawn(
      process.execPath,
      [
        '--experimental-vm-modules',
        JEST,
        ...jestArguments,
        '--json',
        `--outputFile=${reportFile}`,
        ...extraArguments,
      ],
      { cwd: ROOT, stdio: 'inherit' },
    );
    jest.on('close', (code, signal) => {
      const report = fs.existsSync(reportFile) ? JSON.parse(fs.readFileSync(reportFile, 'utf8')) : undefined;
      resolve({ title, code: code ?? (signal ? 1 : 0), report, seconds: (Date.now() - startedAt) / 1000 });
    });
  });
}

/** Busy and total CPU time of every core so far, from the kernel's counters. */
function cpuTimes() {
  return os.cpus().reduce(
    (sum, { times }) => {
      const total = times.user + times.nice + times.sys + times.idle + times.irq;
      return { busy: sum.busy + total - times.idle, total: sum.total + total };
    },
    { busy: 0, total: 0 },
  );
}

/** The summary CI's log ends with: time against the budget, the slowest suites, and the counts. */
function summarize(groups, budgetSeconds, workers, cpuAtStart) {
  const suites = groups.flatMap(({ report }) => report?.testResults ?? []);
  const count = (field) => groups.reduce((sum, { report }) => sum + (report?.[field] ?? 0), 0);
  const wallSeconds = groups.reduce((sum, group) => sum + group.seconds, 0);
  const busySeconds = suites.reduce((sum, suite) => sum + suiteSeconds(suite), 0);
  const lines = ['', '== test timing'];
  for (const group of groups) {
    lines.push(
      `   ${group.title}: ${group.seconds.toFixed(0)} s wall, ${group.report?.numTotalTestSuites ?? 0} suites`,
    );
  }
  lines.push(
    `   all suites: ${wallSeconds.toFixed(0)} s wall for ${busySeconds.toFixed(0)} s of suite time ` +
      `(${workers} workers side by side), budget ${budgetSeconds} s`,
  );
  const cpuNow = cpuTimes();
  const busyPercent = (100 * (cpuNow.busy - cpuAtStart.busy)) / (cpuNow.total - cpuAtStart.total);
  lines.push(`   CPU busy: ${busyPercent.toFixed(0)} % of ${os.cpus().length} cores, over the whole run`);
  lines.push(`   slowest suites (every suite: node scripts/slowest-suites.js):`);
  lines.push(...slowestSuites(suites, SLOWEST_SHOWN).map((line) => `   ${line}`));
  if (wallSeconds > budgetSeconds) {
    lines.push(
      `WARNING: the suite took ${wallSeconds.toFixed(0)} s, over its ${budgetSeconds} s budget ` +
        '(README, "Tests"): find what the last change added with the list above.',
    );
  }
  const failedSuites = suites.filter((suite) => suite.status === 'failed');
  for (const suite of failedSuites) lines.push(`   failed: ${path.relative(ROOT, suite.name)}`);
  const failed = count('numFailedTests') + count('numRuntimeErrorTestSuites');
  const skipped = count('numPendingTests') + count('numTodoTests');
  lines.push(`tests: ${count('numPassedTests')} passed, ${failed} failed, ${skipped} skipped`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function main(extraArguments) {
  const workers = positiveInteger('TEST_WORKERS', DEFAULT_WORKERS);
  const budgetSeconds = positiveInteger('TEST_BUDGET_SECONDS', DEFAULT_BUDGET_SECONDS);
  const serialPattern = SERIAL_SUITES.join('|');
  const cpuAtStart = cpuTimes();
  const groups = [];
  if (extraArguments.length > 0) {
    // A developer's pick of suites: side by side, serial ones included.
    groups.push(
      await runGroup({
        name: 'selected',
        title: `selected suites on ${workers} workers`,
        jestArguments: [`--maxWorkers=${workers}`],
        extraArguments,
      }),
    );
  } else {
    groups.push(
      await runGroup({
        name: 'side-by-side',
        title: `side by side on ${workers} workers`,
        jestArguments: [`--maxWorkers=${workers}`, '--testPathIgnorePatterns', serialPattern],
        extraArguments,
      }),
    );
    groups.push(
      await runGroup({
        name: 'serial',
        title: 'serial (suites that need the machine to themselves)',
        // An empty serial list is no failure; a mistyped path given to the other groups is.
        jestArguments: ['--runInBand', '--passWithNoTests', '--testPathPatterns', serialPattern],
        extraArguments,
      }),
    );
  }
  summarize(groups, budgetSeconds, workers, cpuAtStart);
  process.exitCode = groups.some((group) => group.code !== 0) ? 1 : 0;
}

main(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`);
  process.exit(1);
});
