#!/usr/bin/env node
'use strict';
/**
 * The restore drill of docs/operations.md, run again and again on the cluster shape: each run is
 * test/cluster/backup-restore.test.ts (PostgreSQL and the production Temporal server, cases open at
 * the backup, the three databases dumped with the writers stopped and restored on a new server).
 *
 *   npm run drill:restore -- --times 20
 *
 * Prints each run's result and the time from the restore to a serving cluster (the restored
 * Temporal server, worker and API answering), then how many were green and that time's p50 and
 * max. Exits non-zero when any run failed; a failed run's output is kept in test-results/drills/.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');

const ROOT = path.join(__dirname, '..');
const SUITE = 'test/cluster/backup-restore.test.ts';
const SERVING = /restored cluster serving ([\d.]+) s after the restore/;
const FAILED_RUNS = path.join(ROOT, 'test-results', 'drills');

const { values } = parseArgs({ options: { times: { type: 'string', default: '1' } } });
const times = Number(values.times);
if (!Number.isInteger(times) || times < 1) {
  process.stderr.write(`--times must be a positive integer (got "${values.times}")\n`);
  process.exit(2);
}

const servingSeconds = [];
let green = 0;
for (let run = 1; run <= times; run += 1) {
  const startedAt = Date.now();
  const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'run-tests.js'), SUITE], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = `${result.stdout}${result.stderr}`;
  const serving = SERVING.exec(output);
  const passed = result.status === 0 && serving !== null;
  if (serving) servingSeconds.push(Number(serving[1]));
  if (passed) green += 1;
  else {
    fs.mkdirSync(FAILED_RUNS, { recursive: true });
    fs.writeFileSync(path.join(FAILED_RUNS, `restore-run-${run}.log`), output);
  }
  const wall = ((Date.now() - startedAt) / 1000).toFixed(0);
  process.stdout.write(
    `run ${run} of ${times}: ${passed ? 'green' : 'FAILED'}, serving ${serving ? `${serving[1]} s` : 'never'} after the restore (${wall} s in all)\n`,
  );
}

const sorted = [...servingSeconds].sort((a, b) => a - b);
const p50 = sorted.length ? sorted[Math.ceil(sorted.length / 2) - 1] : undefined;
const max = sorted.at(-1);
process.stdout.write(
  `\nRestore drill: ${green} of ${times} green; time to a serving cluster p50 ${p50 ?? '–'} s, max ${max ?? '–'} s\n`,
);
if (green < times) process.stdout.write(`Failed runs' output: ${path.relative(ROOT, FAILED_RUNS)}/\n`);
process.exit(green === times ? 0 : 1);
