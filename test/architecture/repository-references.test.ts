import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import { projectRoot } from '../../infrastructure/project-root';

/**
 * The repository stands on its own: every file a comment, a document, the API document or a test
 * names is in it, and every section of docs/decisions.md that something cites exists. A clone is all
 * a newcomer or an integrator has.
 */
const ROOT = projectRoot();

/**
 * Not searched for references: CHANGELOG.md is history and keeps what each release said; fixtures are
 * recorded bytes; this file names missing files on purpose, to show they are caught.
 */
const NOT_READ = [
  /^CHANGELOG\.md$/,
  // Packages' own metadata ("SEE LICENSE IN LICENSE.md" names a file inside the package).
  /^package-lock\.json$/,
  /^test\/fixtures\//,
  /^test\/architecture\/repository-references\.test\.ts$/,
  /\.(png|jpe?g|gif|webp|tiff?|pdf|ico|woff2?|sqlite)$/,
];

/**
 * A path from one of the repository's own folders to a file (`src/app/openapi.ts`), read relative to
 * the root, to the naming file's folder or to one of its parents (a package's `src/index.ts`).
 */
const OWN_FOLDERS =
  'src|domain|infrastructure|workflows|activities|test|scripts|bench|docs|examples|deploy|catalog|migrations|clients|console|\\.ci';
const FILE_TYPES = 'ts|mts|js|mjs|cjs|json|md|sql|ya?ml|sh|py|csv|tsv|txt|html|css|cql|xml|svg';
const FILE_PATH = new RegExp(
  `(?<![\\w./-])((?:${OWN_FOLDERS})/[\\w./-]*\\.(?:${FILE_TYPES}))(?![\\w/])`,
  'g',
);
/** A path that climbs (`../shared/x`): it must stay inside the repository. */
const CLIMBING_PATH = /(?<![\w./-])((?:\.\.\/)+[\w./-]*)/g;
/** A Markdown file, named alone (`CONTRACT.md`) or in a path: some file of the repository has that name. */
const MARKDOWN_NAME = /(?<![\w.-])([\w-]+\.md)\b/g;
const DECISION_CITATION = /decisions\.md#([\w-]+)/g;

/** docs/architecture.md's "Adding a case type" names the files a fifth, made-up type would add. */
const EXAMPLE_SECTIONS: Record<string, string> = { 'docs/architecture.md': '## Adding a case type' };

function repositoryFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return [...new Set(listed.split('\0'))].filter((file) => file && existsSync(path.join(ROOT, file)));
}

function textOf(file: string): string {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const example = EXAMPLE_SECTIONS[file];
  if (!example) return text;
  const start = text.indexOf(`\n${example}\n`);
  const end = text.indexOf('\n## ', start + example.length + 2);
  return start < 0 ? text : text.slice(0, start) + (end < 0 ? '' : text.slice(end));
}

function folderAndParents(file: string): string[] {
  const folders: string[] = [];
  for (let folder = path.dirname(file); folder !== '.'; folder = path.dirname(folder)) folders.push(folder);
  return [...folders, ''];
}

const files = repositoryFiles();
const names = new Set(files.map((file) => path.basename(file)));
const searched = files.filter((file) => !NOT_READ.some((pattern) => pattern.test(file)));
const decisionAnchors = new Set(
  [...readFileSync(path.join(ROOT, 'docs/decisions.md'), 'utf8').matchAll(/<a id="([\w-]+)"><\/a>/g)].map(
    (match) => match[1]!,
  ),
);

function unresolved(file: string, text: string): string[] {
  const missingPaths = [...text.matchAll(FILE_PATH)]
    .map((match) => match[1]!.replace(/\.$/, ''))
    .filter((named) => !folderAndParents(file).some((folder) => existsSync(path.join(ROOT, folder, named))));
  const outside = [...text.matchAll(CLIMBING_PATH)]
    .map((match) => match[1]!)
    .filter((climbing) =>
      path.relative(ROOT, path.join(ROOT, path.dirname(file), climbing)).startsWith('..'),
    );
  const unknownDocuments = [...text.matchAll(MARKDOWN_NAME)]
    .map((match) => match[1]!)
    .filter((name) => !names.has(name));
  const unknownDecisions = [...text.matchAll(DECISION_CITATION)]
    .map((match) => `docs/decisions.md#${match[1]}`)
    .filter((citation) => !decisionAnchors.has(citation.split('#')[1]!));
  return [...new Set([...missingPaths, ...outside, ...unknownDocuments, ...unknownDecisions])];
}

describe('the references the repository makes', () => {
  it('name only files the repository holds, and sections of docs/decisions.md that exist', () => {
    const broken = searched.flatMap((file) =>
      unresolved(file, textOf(file)).map((named) => `${file}: ${named}`),
    );
    expect(broken).toEqual([]);
  });

  it('are caught when they name a file outside the repository or one that does not exist', () => {
    const text =
      'See ../shared/CONTRACT.md, CONTRACT.md §10, src/gone/away.ts, docs/decisions.md#no-such-section ' +
      'and docs/decisions.md#modes.';
    expect(unresolved('README.md', text).sort()).toEqual(
      [
        '../shared/CONTRACT.md',
        'CONTRACT.md',
        'docs/decisions.md#no-such-section',
        'src/gone/away.ts',
      ].sort(),
    );
  });
});
