#!/usr/bin/env node
'use strict';
/**
 * Resolves the Temporal CLI (which embeds the dev server and Temporal Web), building it from source
 * when no binary is available, because prebuilt binaries cannot be downloaded on our machines.
 *
 * Order: $TEMPORAL_CLI_PATH, `temporal` on PATH, the cache outside the repo, else `go install` into it.
 * Run directly it prints the resolved path on stdout; progress goes to stderr.
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const TEMPORAL_CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal';
// The newest release whose go.mod has no replace directive, so `go install pkg@version` works.
const TEMPORAL_CLI_VERSION = 'v1.5.1';

function cacheDirectory() {
  if (process.env.TEMPORAL_CLI_CACHE_DIR) return process.env.TEMPORAL_CLI_CACHE_DIR;
  const cacheHome = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cacheHome, 'healthcare-access-api', 'temporal-cli', TEMPORAL_CLI_VERSION);
}

function runsAsTemporalCli(candidate) {
  const probe = spawnSync(candidate, ['--version'], { encoding: 'utf8', timeout: 20_000 });
  return probe.status === 0 && /temporal version/.test(probe.stdout);
}

function findOnPath(name) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

function buildWithGo(goBinary, targetDir, log) {
  const stagingDir = fs.mkdtempSync(path.join(os.tmpdir(), 'temporal-cli-build-'));
  log(
    `Building the Temporal CLI ${TEMPORAL_CLI_VERSION} from source with ${goBinary} ` +
      `(5-10 minutes the first time; cached in ${targetDir} afterwards)...`,
  );
  const startedAt = Date.now();
  return new Promise((resolve, reject) => {
    const build = spawn(goBinary, ['install', '-v', `${TEMPORAL_CLI_MODULE}@${TEMPORAL_CLI_VERSION}`], {
      env: { ...process.env, GOBIN: stagingDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let compiledPackages = 0;
    let lastOutput = '';
    const onOutput = (chunk) => {
      const text = chunk.toString();
      lastOutput = (lastOutput + text).slice(-4000);
      for (const line of text.split('\n')) {
        if (line.startsWith('go: downloading')) continue;
        if (line.trim()) compiledPackages += 1;
      }
    };
    build.stdout.on('data', onOutput);
    build.stderr.on('data', onOutput);
    const heartbeat = setInterval(() => {
      const elapsed = Math.round((Date.now() - startedAt) / 1000);
      log(`  ...still building the Temporal CLI: ${compiledPackages} packages compiled, ${elapsed}s elapsed`);
    }, 20_000);
    build.on('error', (error) => {
      clearInterval(heartbeat);
      reject(error);
    });
    build.on('close', (code) => {
      clearInterval(heartbeat);
      if (code !== 0) {
        reject(new Error(`go install of the Temporal CLI failed (exit ${code}):\n${lastOutput}`));
        return;
      }
      fs.mkdirSync(targetDir, { recursive: true });
      const finalPath = path.join(targetDir, 'temporal');
      // Copy then rename so a concurrent reader never sees a half-written binary.
      const partialPath = `${finalPath}.partial-${process.pid}`;
      fs.copyFileSync(path.join(stagingDir, 'temporal'), partialPath);
      fs.chmodSync(partialPath, 0o755);
      fs.renameSync(partialPath, finalPath);
      fs.rmSync(stagingDir, { recursive: true, force: true });
      log(`Built the Temporal CLI in ${Math.round((Date.now() - startedAt) / 1000)}s: ${finalPath}`);
      resolve(finalPath);
    });
  });
}

/** @returns {Promise<string>} the absolute path of a working Temporal CLI binary */
async function ensureTemporalCli(log = (line) => process.stderr.write(`${line}\n`)) {
  const fromEnvironment = process.env.TEMPORAL_CLI_PATH;
  if (fromEnvironment) {
    if (!runsAsTemporalCli(fromEnvironment)) {
      throw new Error(
        `TEMPORAL_CLI_PATH=${fromEnvironment} does not run as the Temporal CLI (\`--version\` failed).`,
      );
    }
    return fromEnvironment;
  }
  const onPath = findOnPath('temporal');
  if (onPath && runsAsTemporalCli(onPath)) return onPath;

  const targetDir = cacheDirectory();
  const cached = path.join(targetDir, 'temporal');
  if (fs.existsSync(cached) && runsAsTemporalCli(cached)) return cached;

  const goBinary = findOnPath('go');
  if (!goBinary) {
    throw new Error(
      'No Temporal CLI found and Go is not installed, so it cannot be built.\n' +
        'Install one of:\n' +
        '  - Go 1.23 or newer (https://go.dev/doc/install), then run this command again; or\n' +
        '  - the Temporal CLI, on PATH as `temporal` or named by TEMPORAL_CLI_PATH=/path/to/temporal.',
    );
  }
  return buildWithGo(goBinary, targetDir, log);
}

module.exports = { ensureTemporalCli, TEMPORAL_CLI_VERSION };

if (require.main === module) {
  ensureTemporalCli().then(
    (binary) => process.stdout.write(`${binary}\n`),
    (error) => {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    },
  );
}
