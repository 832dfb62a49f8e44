#!/usr/bin/env node
'use strict';
/**
 * Resolves the Temporal binaries we run, building them from source with `go install` when none is
 * available, because prebuilt binaries cannot be downloaded on our machines:
 * - `cli`: the Temporal CLI, whose embedded dev server runs local mode and the tests;
 * - `server`, `sql-tool`, `ui-server`: the production Temporal server, its SQL schema tool and the
 *   standalone Temporal Web server, which the scale shape runs (`npm run start:cluster`).
 *
 * Order for each: its environment variable, its name on PATH, the cache outside the repo, else
 * `go install` into that cache. Every version is pinned to a release whose go.mod has no replace
 * directive, so `go install module@version` works from the module proxy.
 *
 * `node scripts/ensure-temporal.js [binary…]` prints `name=path` per binary (the bare path for the
 * CLI alone, the default); progress goes to stderr.
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const TEMPORAL_CLI_VERSION = 'v1.5.1';
const TEMPORAL_SERVER_VERSION = 'v1.29.1';
const TEMPORAL_UI_SERVER_VERSION = 'v2.42.1';
const OASDIFF_VERSION = 'v1.37.0';

const BINARIES = {
  cli: {
    title: 'the Temporal CLI',
    module: 'github.com/temporalio/cli/cmd/temporal',
    version: TEMPORAL_CLI_VERSION,
    builtName: 'temporal',
    cachedName: 'temporal',
    cacheFolder: 'temporal-cli',
    environmentVariable: 'TEMPORAL_CLI_PATH',
    cacheVariable: 'TEMPORAL_CLI_CACHE_DIR',
    buildMinutes: '5-10',
    // The server binary also answers "temporal version", so the CLI is told apart by its embedded server.
    isThisKind: (versionOutput) => /^temporal version .*\(Server /m.test(versionOutput),
    isPinnedVersion: (versionOutput) => /^temporal version .*\(Server /m.test(versionOutput),
  },
  server: {
    title: 'the Temporal server',
    module: 'go.temporal.io/server/cmd/server',
    version: TEMPORAL_SERVER_VERSION,
    builtName: 'server',
    cachedName: 'temporal-server',
    cacheFolder: 'temporal-server',
    environmentVariable: 'TEMPORAL_SERVER_PATH',
    cacheVariable: 'TEMPORAL_SERVER_CACHE_DIR',
    buildMinutes: '4-8',
    isThisKind: (versionOutput) => /^temporal version \d+\.\d+\.\d+\s*$/m.test(versionOutput),
    isPinnedVersion: (versionOutput) =>
      versionOutput.includes(`temporal version ${TEMPORAL_SERVER_VERSION.slice(1)}`),
  },
  'sql-tool': {
    title: "the Temporal server's SQL schema tool",
    module: 'go.temporal.io/server/cmd/tools/sql',
    version: TEMPORAL_SERVER_VERSION,
    builtName: 'sql',
    cachedName: 'temporal-sql-tool',
    cacheFolder: 'temporal-sql-tool',
    environmentVariable: 'TEMPORAL_SQL_TOOL_PATH',
    cacheVariable: 'TEMPORAL_SQL_TOOL_CACHE_DIR',
    buildMinutes: '1-2 more',
    isThisKind: (versionOutput) => /^temporal-sql-tool version /m.test(versionOutput),
    isPinnedVersion: (versionOutput) =>
      versionOutput.includes(`temporal-sql-tool version ${TEMPORAL_SERVER_VERSION.slice(1)}`),
  },
  'ui-server': {
    title: 'the Temporal Web server',
    module: 'github.com/temporalio/ui-server/v2/cmd/server',
    version: TEMPORAL_UI_SERVER_VERSION,
    // Its command is also called `server`, so each binary is built into a folder of its own.
    builtName: 'server',
    cachedName: 'temporal-ui-server',
    cacheFolder: 'temporal-ui-server',
    environmentVariable: 'TEMPORAL_UI_SERVER_PATH',
    cacheVariable: 'TEMPORAL_UI_SERVER_CACHE_DIR',
    buildMinutes: '1-3',
    isThisKind: (versionOutput) => /^Temporal UI version /m.test(versionOutput),
    isPinnedVersion: (versionOutput) =>
      versionOutput.includes(`Temporal UI version ${TEMPORAL_UI_SERVER_VERSION.slice(1)}`),
  },
  // Not Temporal's, but a Go tool built the same way: CI compares each release's API document with
  // the one before (scripts/check-api-compatibility.js).
  oasdiff: {
    title: 'oasdiff',
    module: 'github.com/oasdiff/oasdiff',
    version: OASDIFF_VERSION,
    builtName: 'oasdiff',
    cachedName: 'oasdiff',
    cacheFolder: 'oasdiff',
    environmentVariable: 'OASDIFF_PATH',
    cacheVariable: 'OASDIFF_CACHE_DIR',
    buildMinutes: '1',
    isThisKind: (versionOutput) => /^oasdiff version /m.test(versionOutput),
    // A `go install` build says `oasdiff version main`: the cache folder, named by version, pins it.
    versionUnreported: true,
  },
};

function cacheDirectory(spec) {
  if (process.env[spec.cacheVariable]) return process.env[spec.cacheVariable];
  const cacheHome = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cacheHome, 'healthcare-access-api', spec.cacheFolder, spec.version);
}

function versionOutput(candidate) {
  const probe = spawnSync(candidate, ['--version'], { encoding: 'utf8', timeout: 20_000 });
  return probe.status === 0 ? probe.stdout : '';
}

function findOnPath(name) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

function buildWithGo(spec, goBinary, targetDir, log) {
  const stagingDir = fs.mkdtempSync(path.join(os.tmpdir(), `${spec.cachedName}-build-`));
  log(
    `Building ${spec.title} ${spec.version} from source with ${goBinary} ` +
      `(${spec.buildMinutes} minutes the first time; cached in ${targetDir} afterwards)...`,
  );
  const startedAt = Date.now();
  return new Promise((resolve, reject) => {
    const build = spawn(goBinary, ['install', '-v', `${spec.module}@${spec.version}`], {
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
      log(`  ...still building ${spec.title}: ${compiledPackages} packages compiled, ${elapsed}s elapsed`);
    }, 20_000);
    build.on('error', (error) => {
      clearInterval(heartbeat);
      reject(error);
    });
    build.on('close', (code) => {
      clearInterval(heartbeat);
      if (code !== 0) {
        reject(new Error(`go install of ${spec.title} failed (exit ${code}):\n${lastOutput}`));
        return;
      }
      fs.mkdirSync(targetDir, { recursive: true });
      const finalPath = path.join(targetDir, spec.cachedName);
      // Copy then rename so a concurrent reader never sees a half-written binary.
      const partialPath = `${finalPath}.partial-${process.pid}`;
      fs.copyFileSync(path.join(stagingDir, spec.builtName), partialPath);
      fs.chmodSync(partialPath, 0o755);
      fs.renameSync(partialPath, finalPath);
      fs.rmSync(stagingDir, { recursive: true, force: true });
      log(`Built ${spec.title} in ${Math.round((Date.now() - startedAt) / 1000)}s: ${finalPath}`);
      resolve(finalPath);
    });
  });
}

/**
 * @param {keyof typeof BINARIES} name
 * @returns {Promise<string>} the absolute path of a working binary
 */
async function ensureTemporalBinary(name, log = (line) => process.stderr.write(`${line}\n`)) {
  const spec = BINARIES[name];
  if (!spec)
    throw new Error(`Unknown Temporal binary "${name}"; known: ${Object.keys(BINARIES).join(', ')}.`);
  const fromEnvironment = process.env[spec.environmentVariable];
  if (fromEnvironment) {
    if (!spec.isThisKind(versionOutput(fromEnvironment))) {
      throw new Error(
        `${spec.environmentVariable}=${fromEnvironment} does not run as ${spec.title} (\`--version\` failed).`,
      );
    }
    return fromEnvironment;
  }
  const onPath = spec.versionUnreported ? undefined : findOnPath(spec.cachedName);
  if (onPath && spec.isPinnedVersion(versionOutput(onPath))) return onPath;

  const targetDir = cacheDirectory(spec);
  const cached = path.join(targetDir, spec.cachedName);
  if (fs.existsSync(cached)) {
    const output = versionOutput(cached);
    if (spec.versionUnreported ? spec.isThisKind(output) : spec.isPinnedVersion(output)) return cached;
  }

  const goBinary = findOnPath('go');
  if (!goBinary) {
    throw new Error(
      `No ${spec.title} found and Go is not installed, so it cannot be built.\n` +
        'Install one of:\n' +
        '  - Go 1.25 or newer (https://go.dev/doc/install), then run this command again; or\n' +
        `  - ${spec.title} ${spec.version}, on PATH as \`${spec.cachedName}\` or named by ` +
        `${spec.environmentVariable}=/path/to/${spec.cachedName}.`,
    );
  }
  return buildWithGo(spec, goBinary, targetDir, log);
}

/** @returns {Promise<string>} the absolute path of a working Temporal CLI binary */
function ensureTemporalCli(log) {
  return ensureTemporalBinary('cli', log);
}

/** The three binaries of the scale shape, built one after another (each build uses every core). */
async function ensureTemporalCluster(log) {
  return {
    server: await ensureTemporalBinary('server', log),
    sqlTool: await ensureTemporalBinary('sql-tool', log),
    uiServer: await ensureTemporalBinary('ui-server', log),
  };
}

module.exports = {
  ensureTemporalBinary,
  ensureTemporalCli,
  ensureTemporalCluster,
  TEMPORAL_CLI_VERSION,
  TEMPORAL_SERVER_VERSION,
  TEMPORAL_UI_SERVER_VERSION,
};

async function main(names) {
  if (names.length === 0) {
    process.stdout.write(`${await ensureTemporalCli()}\n`);
    return;
  }
  for (const name of names) process.stdout.write(`${name}=${await ensureTemporalBinary(name)}\n`);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  });
}
