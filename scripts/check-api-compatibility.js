#!/usr/bin/env node
'use strict';
/**
 * Fails on a breaking change no release announced. It compares the API document of the newest
 * release (docs/api/releases/<API-Version>.json, which the served document must equal) with the
 * release before it using oasdiff, and when oasdiff finds breaking changes, the newest release's
 * section of CHANGELOG.md must list them under "**Breaking changes**" (docs/versioning.md).
 *
 * `node scripts/check-api-compatibility.js [--releases DIR] [--changelog FILE]`; OASDIFF_PATH names
 * oasdiff, else it is found or built like the Temporal tools (scripts/ensure-temporal.js).
 */
const { spawnSync } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { RELEASES, releaseDocuments } = require('./api-releases');
const { ensureTemporalBinary } = require('./ensure-temporal');

const BREAKING_HEADING = '**Breaking changes**';
/** oasdiff's levels: 3 is an error (breaking), 2 a warning (possibly breaking), 1 information. */
const BREAKING_LEVEL = 3;

function option(name, fallback) {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : fallback;
}

/** The section of a CHANGELOG for one release: from its `## <version>` heading to the next. */
function releaseSection(changelog, version) {
  const start = changelog.indexOf(`\n## ${version}\n`);
  if (start < 0) return undefined;
  const end = changelog.indexOf('\n## ', start + 1);
  return changelog.slice(start, end < 0 ? undefined : end);
}

/**
 * oasdiff judges a webhook's body as a request, but the service sends it: for receivers an added
 * field is harmless and a removed one breaks. Each notification body is diffed as the answer of an
 * operation standing for its event (`GET /webhooks-sent/<type>`), where those are oasdiff's rules.
 */
function webhooksAsAnswers(file, folder) {
  const document = JSON.parse(readFileSync(file, 'utf8'));
  for (const [type, item] of Object.entries(document.webhooks ?? {})) {
    document.paths[`/webhooks-sent/${type}`] = {
      get: {
        operationId: `sent ${type}`,
        responses: { 200: { description: `${type}, as sent`, content: item.post.requestBody.content } },
      },
    };
  }
  delete document.webhooks;
  const copy = path.join(folder, path.basename(file));
  writeFileSync(copy, JSON.stringify(document));
  return copy;
}

function breakingChanges(oasdiff, baseFile, revisionFile) {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'api-compatibility-'));
  const base = webhooksAsAnswers(baseFile, mkdtempSync(path.join(folder, 'base-')));
  const revision = webhooksAsAnswers(revisionFile, mkdtempSync(path.join(folder, 'revision-')));
  const run = spawnSync(oasdiff, ['breaking', base, revision, '--format', 'json'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  rmSync(folder, { recursive: true, force: true });
  if (run.status !== 0) throw new Error(`oasdiff failed (exit ${run.status}): ${run.stderr}`);
  return (JSON.parse(run.stdout || '[]') ?? []).filter((change) => change.level >= BREAKING_LEVEL);
}

async function main() {
  const releases = releaseDocuments(option('--releases', RELEASES));
  const changelog = readFileSync(option('--changelog', path.join(__dirname, '..', 'CHANGELOG.md')), 'utf8');
  if (releases.length < 2) {
    console.log(`One release document (${releases[0]?.version ?? 'none'}): nothing to compare it with yet.`);
    return 0;
  }
  const [base, revision] = releases.slice(-2);
  const oasdiff = process.env.OASDIFF_PATH || (await ensureTemporalBinary('oasdiff'));
  const changes = breakingChanges(oasdiff, base.file, revision.file);
  const section = releaseSection(changelog, revision.version);
  if (!section) {
    console.error(`CHANGELOG.md has no section "## ${revision.version}" for the newest release.`);
    return 1;
  }
  const listed = changes.map((change) => `  ${change.operation} ${change.path}: ${change.text}`);
  if (changes.length > 0 && !section.includes(BREAKING_HEADING)) {
    console.error(
      `${revision.version} breaks ${base.version} in ${changes.length} place(s), and its CHANGELOG.md section ` +
        `announces no ${BREAKING_HEADING}: say there what an integrator must do, or keep the old behaviour.\n` +
        listed.join('\n'),
    );
    return 1;
  }
  console.log(
    changes.length === 0
      ? `${revision.version} keeps every promise of ${base.version}.`
      : `${revision.version} breaks ${base.version} in ${changes.length} place(s), announced in CHANGELOG.md:\n${listed.join('\n')}`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error.message);
    process.exit(1);
  },
);
