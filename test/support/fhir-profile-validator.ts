import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The HL7 FHIR validator's instance validator, run offline by scripts/fhir-profile-validate.sh against
 * base FHIR R4 and the Da Vinci CRD, DTR and PAS 2.0.1 packages (docs/crd.md, "Profile validation"). One
 * run takes every file: it spends most of its time loading FHIR's definitions.
 */
const SCRIPT = join(__dirname, '../../scripts/fhir-profile-validate.sh');

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface Issue {
  severity: string;
  location: string;
  message: string;
}

export interface Report {
  packages: string[];
  missing_dependencies: string[];
  not_checked: { element: string; profile: string; package: string }[];
  /** Codes of a value set that includes a whole code system no offline package holds (ICD-10-CM, NDC …). */
  codes_not_checked: { element: string; value_set: string; code_system: string }[];
  files: { file: string; issues: Issue[] }[];
}

/**
 * `describe` when the validator is installed, or in CI (where .ci/run installs it and a missing
 * validator fails the test); `describe.skip` otherwise, saying so once for `suite`.
 */
export function describeWithValidator(suite: string): jest.Describe {
  const installed = existsSync(
    join(spawnSync('bash', [SCRIPT, '--path'], { encoding: 'utf8' }).stdout.trim(), '.complete'),
  );
  const required = Boolean(process.env.CI);
  if (!installed && !required) {
    console.warn(
      `${suite} skipped: the FHIR profile validator is not installed (bash scripts/fhir-profile-validate.sh --install)`,
    );
  }
  return installed || required ? describe : describe.skip;
}

/** Validates the documents, by file name, in one run; the report names each file as given. */
export function validate(documents: Record<string, Json>): Report {
  const directory = mkdtempSync(join(tmpdir(), 'fhir-profiles-'));
  try {
    const paths = Object.entries(documents).map(([name, document]) => {
      const path = join(directory, name);
      writeFileSync(path, JSON.stringify(document, null, 2));
      return path;
    });
    const run = spawnSync('bash', [SCRIPT, ...paths], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (run.status !== 0) {
      throw new Error(`fhir-profile-validate.sh exited ${run.status}:\n${run.stderr}`);
    }
    const report = JSON.parse(run.stdout) as Report;
    for (const file of report.files) file.file = file.file.slice(directory.length + 1);
    return report;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** The issues of the named files at these severities, each with its file. */
export const issuesIn = (report: Report, names: string[], severities: string[]) =>
  report.files
    .filter((file) => names.includes(file.file))
    .flatMap((file) =>
      file.issues
        .filter((issue) => severities.includes(issue.severity))
        .map((issue) => ({ ...issue, file: file.file })),
    );

/** Each error or fatal issue as one line: file, where and what. */
export const errorsIn = (report: Report, names: string[]) =>
  issuesIn(report, names, ['error', 'fatal']).map(
    (issue) => `${issue.file}: ${issue.severity} at ${issue.location}: ${issue.message}`,
  );
