import {
  containedAdaptiveQuestionnaire,
  DTR_ADAPTIVE_QUESTIONNAIRE_PROFILE,
} from '../../../domain/dtr/adaptive-questionnaire';
import type { FhirQuestionnaire } from '../../../domain/dtr/fhir-questionnaire';
import type { FhirResource } from '../crd/cds-hooks';
import { sandboxDtrPackages } from './sandbox-packages';
import type { PackageBundle, SandboxDtrPackage } from './sandbox-packages';

/**
 * The sandbox payer's DTR service: answers `$questionnaire-package` (DTR 2.0.1) for the Questionnaire
 * canonicals the sandbox's CRD service names (`${SANDBOX_QUESTIONNAIRE_BASE}/<drug id>`), with the
 * drug's package from catalog/dtr/: the Questionnaire, its CQL library and FHIRHelpers, as a Parameters
 * whose `PackageBundle` holds them. An unknown canonical, or a version the sandbox does not serve, is
 * not found: an OperationOutcome, which a caller maps to its fallback (the items wait for a person).
 *
 * The packages of ADAPTIVE_SANDBOX_DRUGS are served adaptive (SDC): their Questionnaire holds no items,
 * and `$next-question` (nextQuestion) serves the catalog Questionnaire's items one a round.
 */

/**
 * The drugs whose sandbox package is adaptive, so a sandbox prior authorization runs DTR's adaptive
 * exchange as a live payer's would; the others' are static.
 */
export const ADAPTIVE_SANDBOX_DRUGS: ReadonlySet<string> = new Set(['xeljanz']);

const ADAPTIVE_EXTENSION =
  'http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-questionnaireAdaptive';

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
  return { bundle: servedBundle(found) };
}

/** The package as served: an adaptive drug's Questionnaire without its items, which `$next-question` serves. */
function servedBundle(found: SandboxDtrPackage): PackageBundle {
  if (!ADAPTIVE_SANDBOX_DRUGS.has(found.drugId)) return found.bundle;
  return {
    ...found.bundle,
    entry: found.bundle.entry.map((entry) =>
      entry.resource.resourceType === 'Questionnaire'
        ? { ...entry, resource: adaptiveQuestionnaire(entry.resource, []) }
        : entry,
    ),
  };
}

/** The catalog Questionnaire marked adaptive (SDC, DTR's profile), holding only `items`. */
function adaptiveQuestionnaire(questionnaire: FhirResource, items: unknown[]): FhirResource {
  const { item: _all, text: _narrative, ...rest } = questionnaire;
  const extension = (questionnaire.extension as unknown[] | undefined) ?? [];
  return {
    ...rest,
    meta: { profile: [DTR_ADAPTIVE_QUESTIONNAIRE_PROFILE] },
    extension: [...extension, { url: ADAPTIVE_EXTENSION, valueBoolean: true }],
    ...(items.length > 0 && { item: items }),
  };
}

export type NextQuestionAnswer =
  { kind: 'found'; response: Record<string, unknown> } | { kind: 'not_found'; outcome: OperationOutcome };

/**
 * `$next-question` (SDC) for the sandbox's adaptive packages: the QuestionnaireResponse so far in, its
 * Questionnaire contained as last served; out, the response with the items served so far and the next
 * of the catalog Questionnaire's, `completed` once it holds them all. A response whose Questionnaire is
 * not an adaptive sandbox package's is not found.
 */
export function nextQuestion(body: unknown, options: SimulatedDtrOptions = {}): NextQuestionAnswer {
  const response = (typeof body === 'object' && body !== null ? body : {}) as FhirResource;
  const contained = Array.isArray(response.contained) ? (response.contained as FhirResource[]) : [];
  const served = contained.find(
    (resource) => resource.resourceType === 'Questionnaire' && `#${resource.id}` === response.questionnaire,
  );
  const found = (options.packages ?? sandboxDtrPackages()).get(servedCanonical(served));
  if (!served || !found || !ADAPTIVE_SANDBOX_DRUGS.has(found.drugId))
    return {
      kind: 'not_found',
      outcome: notFound(['No adaptive Questionnaire of this response is served here.']),
    };
  const questionnaire = found.bundle.entry.find(
    (entry) => entry.resource.resourceType === 'Questionnaire',
  )!.resource;
  const all = (questionnaire.item as { linkId: string }[] | undefined) ?? [];
  const asked = new Set(((served.item as { linkId: string }[] | undefined) ?? []).map((item) => item.linkId));
  const next = all.findIndex((item) => !asked.has(item.linkId));
  const items = next < 0 ? all : all.slice(0, next + 1);
  return {
    kind: 'found',
    response: {
      resourceType: 'QuestionnaireResponse',
      status: items.length === all.length ? 'completed' : 'in-progress',
      questionnaire: response.questionnaire,
      contained: [{ ...servedRound(questionnaire, items), id: served.id }],
      item: Array.isArray(response.item) ? response.item : [],
    },
  };
}

/**
 * The package a contained Questionnaire is of: the canonical it was derived from, as a round serves it
 * (DTR's `dtr-questionnaire-adapt`), or its own, as the package's is contained before the first round.
 */
function servedCanonical(served: FhirResource | undefined): string {
  const derivedFrom = Array.isArray(served?.derivedFrom) ? (served.derivedFrom as unknown[])[0] : undefined;
  const canonical = typeof derivedFrom === 'string' ? derivedFrom : String(served?.url ?? '');
  return canonical.split('|')[0]!;
}

/** A round's Questionnaire: the catalog's items served so far, in DTR's adaptive form, derived from the package's. */
function servedRound(questionnaire: FhirResource, items: unknown[]): FhirResource {
  const adaptive = adaptiveQuestionnaire(questionnaire, items);
  const canonical = `${String(adaptive.url)}|${String(adaptive.version)}`;
  return containedAdaptiveQuestionnaire(
    adaptive as unknown as FhirQuestionnaire,
    canonical,
  ) as unknown as FhirResource;
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
