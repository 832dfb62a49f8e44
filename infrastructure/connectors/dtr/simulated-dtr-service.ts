import { sandboxDtrPackages } from './sandbox-packages';
import type { PackageBundle, SandboxDtrPackage } from './sandbox-packages';

/**
 * The sandbox payer's DTR service: answers `$questionnaire-package` (DTR 2.0.1) for the Questionnaire
 * canonicals the sandbox's CRD service names (`${SANDBOX_QUESTIONNAIRE_BASE}/<drug id>`), with the
 * drug's package from catalog/dtr/: the Questionnaire, its CQL library and FHIRHelpers, as a Parameters
 * whose `PackageBundle` holds them. An unknown canonical, or a version the sandbox does not serve, is
 * not found: an OperationOutcome, which a caller maps to its fallback (the items wait for a person).
 */

export interface OperationOutcome {
  resourceType: 'OperationOutcome';
  issue: Array<{ severity: 'error' | 'warning'; code: string; diagnostics: string }>;
}

/** DTR's `dtr-qpackage-output-parameters`: one PackageBundle per Questionnaire found. */
export interface QuestionnairePackageParameters {
  resourceType: 'Parameters';
  parameter: Array<
    | { name: 'PackageBundle'; resource: PackageBundle }
    | { name: 'operationOutcome'; resource: OperationOutcome }
  >;
}

export type QuestionnairePackageAnswer =
  | { kind: 'found'; parameters: QuestionnairePackageParameters }
  | { kind: 'not_found'; outcome: OperationOutcome };

export interface SimulatedDtrOptions {
  /** By Questionnaire url (unversioned); the shipped catalog/dtr/ packages by default. */
  packages?: ReadonlyMap<string, SandboxDtrPackage>;
}

/** The package of one Questionnaire canonical, `url` or `url|version`. */
export function questionnairePackage(
  canonical: string,
  options: SimulatedDtrOptions = {},
): QuestionnairePackageAnswer {
  const found = findPackage(canonical, options.packages ?? sandboxDtrPackages());
  if ('missing' in found) return { kind: 'not_found', outcome: notFound([found.missing]) };
  return {
    kind: 'found',
    parameters: {
      resourceType: 'Parameters',
      parameter: [{ name: 'PackageBundle', resource: found.bundle }],
    },
  };
}

export interface FhirHttpAnswer {
  status: number;
  body: QuestionnairePackageParameters | OperationOutcome;
}

/**
 * `POST [base]/Questionnaire/$questionnaire-package` as a FHIR server answers it: the Parameters' every
 * `questionnaire` canonical (its other inputs, coverage, order and context, choose nothing here). 200
 * with a package per canonical found, and an `operationOutcome` parameter naming the others; 404 when
 * none is found; 400 for a body that is no such Parameters.
 */
export function answerQuestionnairePackageOperation(
  body: unknown,
  options: SimulatedDtrOptions = {},
): FhirHttpAnswer {
  const canonicals = questionnaireCanonicals(body);
  if (canonicals === null || canonicals.length === 0) {
    return {
      status: 400,
      body: outcome(
        'error',
        'invalid',
        'Expected a Parameters resource with at least one `questionnaire` parameter (valueCanonical).',
      ),
    };
  }
  const packages = options.packages ?? sandboxDtrPackages();
  const results = canonicals.map((canonical) => findPackage(canonical, packages));
  const bundles = results.flatMap((result) => ('bundle' in result ? [result.bundle] : []));
  const missing = results.flatMap((result) => ('missing' in result ? [result.missing] : []));
  if (bundles.length === 0) return { status: 404, body: notFound(missing) };
  return {
    status: 200,
    body: {
      resourceType: 'Parameters',
      parameter: [
        ...bundles.map((resource) => ({ name: 'PackageBundle' as const, resource })),
        ...(missing.length > 0
          ? [{ name: 'operationOutcome' as const, resource: notFound(missing, 'warning') }]
          : []),
      ],
    },
  };
}

function findPackage(
  canonical: string,
  packages: ReadonlyMap<string, SandboxDtrPackage>,
): { bundle: PackageBundle } | { missing: string } {
  const [url = '', version] = canonical.split('|');
  const found = packages.get(url);
  if (!found) return { missing: `No Questionnaire ${url} is served here.` };
  if (version !== undefined && version !== found.version) {
    return {
      missing: `Questionnaire ${url} is served in version ${found.version} only, not ${version}.`,
    };
  }
  return { bundle: found.bundle };
}

function questionnaireCanonicals(body: unknown): string[] | null {
  if (typeof body !== 'object' || body === null) return null;
  const { resourceType, parameter } = body as { resourceType?: unknown; parameter?: unknown };
  if (resourceType !== 'Parameters' || !Array.isArray(parameter)) return null;
  return parameter.flatMap((entry: { name?: unknown; valueCanonical?: unknown }) =>
    entry?.name === 'questionnaire' && typeof entry.valueCanonical === 'string' ? [entry.valueCanonical] : [],
  );
}

function notFound(reasons: string[], severity: 'error' | 'warning' = 'error'): OperationOutcome {
  return {
    resourceType: 'OperationOutcome',
    issue: reasons.map((diagnostics) => ({ severity, code: 'not-found', diagnostics })),
  };
}

function outcome(severity: 'error' | 'warning', code: string, diagnostics: string): OperationOutcome {
  return { resourceType: 'OperationOutcome', issue: [{ severity, code, diagnostics }] };
}
