import { randomBytes } from 'node:crypto';
import { MOCK_COVERAGE_REQUIREMENTS } from '../../domain/payers/coverage-requirements';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import { projectRoot } from '../../infrastructure/project-root';
import { loadConfig } from '../../infrastructure/config/config';
import { CARD_FIELD_THRESHOLDS } from '../../domain/payers/card-field-shapes';
import type { CardField } from '../../domain/payers/card-fields';
import { PRIOR_AUTH_MOCK_RESULTS } from '../../domain/payers/prior-authorization-exchange';
import { MEMBER_ID_SUFFIX_CASES } from '../../infrastructure/connectors/payer-simulator';
import {
  shippedBenefitVerificationMockCaseNames,
  shippedPayerCatalog,
} from '../../infrastructure/catalogs/shipped-catalogs';

const read = (file: string) => readFileSync(path.join(projectRoot(), file), 'utf8');

describe('the documentation', () => {
  it('shows the webhook receiver exactly as the tests run it', () => {
    expect(read('docs/webhooks.md')).toContain('```ts\n' + read('examples/webhook-receiver.ts') + '```');
  });

  it('shows the events catch-up loop exactly as the tests run it', () => {
    expect(read('docs/webhooks.md')).toContain('```ts\n' + read('examples/events-catch-up.ts') + '```');
  });
});

/**
 * Files the documentation names, in backticks or as links. docs/architecture.md's "Adding a case type"
 * names the files a fifth type, `step_therapy`, would add: an example, so that section is left out.
 */
function namedFiles(document: string): string[] {
  const text = withoutSection(read(document), '## Adding a case type');
  const quoted = [...text.matchAll(REPOSITORY_PATH)].map((match) => match[1]!);
  const linked = [...text.matchAll(RELATIVE_LINK)].map((match) =>
    path.join(path.dirname(document), match[1]!),
  );
  return [...quoted, ...linked];
}

function withoutSection(text: string, heading: string): string {
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) return text;
  const end = text.indexOf('\n## ', start + heading.length + 2);
  return text.slice(0, start) + (end < 0 ? '' : text.slice(end));
}

const REPOSITORY_PATH =
  /`((?:src|domain|infrastructure|workflows|activities|test|scripts|bench|docs|examples|deploy|catalog|migrations|clients|\.ci)\/[\w./-]+)`/g;
const RELATIVE_LINK = /\]\((?!https?:|mailto:|#)([^)#\s]+)/g;

describe('the files the documentation names', () => {
  const documents = [
    'README.md',
    ...readdirSync(path.join(projectRoot(), 'docs'))
      .filter((file) => file.endsWith('.md'))
      .map((file) => `docs/${file}`),
  ];

  it.each(documents)('exist, for every file %s names', (document) => {
    const missing = namedFiles(document).filter(
      (file) => !existsSync(path.join(projectRoot(), file.replace(/\/$/, ''))),
    );
    expect(missing).toEqual([]);
  });
});

/** The variables the README's scale-mode block exports, its placeholders filled as a reader would. */
function scaleModeExports(): Record<string, string> {
  const readme = read('README.md');
  const [start, end] = [readme.indexOf('## Scale mode'), readme.indexOf('### The scale shape')];
  expect([start, end].every((index) => index >= 0)).toBe(true);
  const section = readme.slice(start, end);
  const exportLines = section.split('\n').filter((line) => line.startsWith('export '));
  const fill = (value: string) =>
    value
      .replace('$(openssl rand -base64 32)', randomBytes(32).toString('base64'))
      .replace('postgres://…', 'postgres://api:secret@db.internal/healthcare');
  return Object.fromEntries(
    exportLines.flatMap((line) =>
      line
        .slice('export '.length)
        .split(/ (?=[A-Z][A-Z0-9_]*=)/)
        .map((assignment) => {
          const [key, ...value] = assignment.split('=');
          return [key!, fill(value.join('='))];
        }),
    ),
  );
}

describe("the README's scale mode", () => {
  it.each(['api', 'worker'] as const)('exports all the %s process needs to start', (mode) => {
    expect(() => loadConfig(mode, scaleModeExports())).not.toThrow();
  });
});

/** docs/documents.md's names for the card fields, as a reader knows them from the card. */
const CARD_FIELD_NAMES: Record<string, CardField> = {
  'member id': 'member_id',
  'Medicare Beneficiary Identifier': 'medicare_beneficiary_id',
  'Medicaid id': 'medicaid_id',
  'group number': 'group_number',
  RxBIN: 'rx_bin',
  RxPCN: 'rx_pcn',
  RxGroup: 'rx_group',
  'payer id': 'payer_id',
  'effective date': 'effective_date',
  'member name': 'member_name',
  'payer name': 'payer_name',
  'plan name': 'plan_name',
  employer: 'client_name',
};

describe("docs/documents.md's card field thresholds", () => {
  it('are the thresholds the reader applies, for every field', () => {
    const text = read('docs/documents.md');
    const table = text.slice(text.indexOf('| field'));
    const rows = table
      .slice(0, table.indexOf('\n\n'))
      .split('\n')
      .slice(2)
      .map((row) => row.split('|').map((cell) => cell.trim()));
    const documented = Object.fromEntries(
      rows.flatMap(([, fields, threshold]) =>
        fields!.split(', ').map((name) => [CARD_FIELD_NAMES[name] ?? name, Number(threshold)]),
      ),
    );
    expect(documented).toEqual(CARD_FIELD_THRESHOLDS);
  });
});

/** The first two cells of each row of the table under `heading` in docs/sandbox.md, backticks removed. */
function sandboxTable(heading: string): Array<[string, string]> {
  const text = read('docs/sandbox.md');
  const section = text.slice(text.indexOf(heading));
  const table = section.slice(section.indexOf('\n|'));
  return table
    .slice(1, table.indexOf('\n\n'))
    .split('\n')
    .slice(2)
    .map((row) => {
      const [, first, second] = row.split('|').map((cell) => cell.trim().replaceAll('`', ''));
      return [first!, second!];
    });
}

describe("docs/sandbox.md's scenarios", () => {
  it('lists every benefit verification case of the catalog, in its words, and no other', () => {
    const catalog = shippedPayerCatalog();
    expect(sandboxTable('## Benefit verification')).toEqual(
      shippedBenefitVerificationMockCaseNames().map((name) => [name, catalog.mockCase(name)!.description]),
    );
  });

  it('lists every member-id suffix the simulated payer plays', () => {
    expect(sandboxTable('Without `mock_result`, a sandbox member id')).toEqual(
      MEMBER_ID_SUFFIX_CASES.map(([suffix, scenario]) => [suffix, scenario]),
    );
  });

  it("lists every answer the sandbox payer's CRD service can be told to give", () => {
    expect(sandboxTable('### Its CRD service').map(([answer]) => answer)).toEqual([
      ...MOCK_COVERAGE_REQUIREMENTS,
    ]);
  });

  it('lists every prior authorization result the simulated payer takes', () => {
    expect(sandboxTable('## Prior authorization').map(([result]) => result)).toEqual([
      ...PRIOR_AUTH_MOCK_RESULTS,
    ]);
  });
});
