import { createHash } from 'node:crypto';

import { catalogFallback } from '../../../domain/payers/coverage-requirements';
import type {
  CoverageRequirementsAnswer,
  CoverageRequirementsQuery,
  Covered,
  DocNeeded,
  MockCoverageRequirements,
  PaNeeded,
} from '../../../domain/payers/coverage-requirements';
import type { CatalogDrug, PayerCatalog } from '../../../domain/payers/payer-catalog';
import { shippedPayerCatalog } from '../../catalogs/shipped-catalogs';
import { SYSTEM } from '../pas/pas-codes';
import { COVERAGE_INFORMATION_EXTENSION } from './cds-hooks';
import type { CdsHooksCard, CdsHooksRequest, CdsHooksResponse, FhirResource } from './cds-hooks';
import { hookInstanceOf, orderSignRequest, orderSignSubject } from './order-sign-request';
import { readOrderSignResponse } from './order-sign-response';

/**
 * The sandbox payer's CRD service: answers `order-sign` from the sandbox formulary as a CRD 2.0.1
 * service would, with a coverage-information system action on the draft order and one card.
 *
 * - the plan needs no authorization for the drug: `no-auth`;
 * - it needs one and the catalog has the drug's criteria: `auth-needed`, naming the questionnaire
 *   the sandbox's DTR serves for the drug;
 * - it needs one and the catalog has no criteria (or does not know the drug): `conditional`, with why;
 * - the plan does not cover the drug: `not-covered`, with why, and no pa-needed.
 */

/** Where the sandbox's DTR serves each drug's questionnaire. */
export const SANDBOX_QUESTIONNAIRE_BASE = 'http://sandbox.healthcare-access-api.example/fhir/Questionnaire';

/** `mock_result.coverage_requirements` values the service answers itself (`unavailable` never reaches it). */
export type MockCrdAnswer = Exclude<MockCoverageRequirements, 'unavailable'>;

export interface SimulatedCrdOptions {
  catalog?: PayerCatalog;
  /** Stamps the assertion's date and the order's signing time. */
  now?: () => Date;
}

interface Assessment {
  covered: Covered;
  paNeeded: PaNeeded | null;
  docNeeded: DocNeeded | null;
  questionnaire: string | null;
  reason: string | null;
  card: Pick<CdsHooksCard, 'summary' | 'detail' | 'indicator'>;
}

export function answerOrderSign(
  request: CdsHooksRequest,
  mock: MockCrdAnswer | null,
  options: SimulatedCrdOptions = {},
): CdsHooksResponse {
  const catalog = options.catalog ?? shippedPayerCatalog();
  const order = request.context.draftOrders.entry[0]!.resource;
  const coverage = request.prefetch.coverage.entry[0]!.resource;
  const drug = catalog.findDrug(drugNamedBy(order));
  const assessment = mock ? mocked(mock, drug) : assess(catalog, drug, planIdOf(coverage));
  const assertedOn = (options.now ?? (() => new Date()))().toISOString().slice(0, 10);
  return {
    cards: [{ ...assessment.card, source: { label: 'Sandbox payer CRD service' } }],
    systemActions: [
      {
        type: 'update',
        description: 'Added coverage information to the draft MedicationRequest.',
        resource: {
          ...order,
          extension: [coverageInformation(request.hookInstance, coverage.id, assessment, assertedOn)],
        },
      },
    ],
  };
}

/**
 * The sandbox's CRD step: the real request writer, the simulated service and the real reader, each
 * through JSON, so the sandbox exercises the wire format a live payer sees. `unavailable` plays a
 * service that cannot be reached.
 */
export function simulatedCoverageRequirements(
  query: CoverageRequirementsQuery,
  options: SimulatedCrdOptions = {},
): CoverageRequirementsAnswer {
  if (query.mock === 'unavailable')
    return { kind: 'fallback', requirements: catalogFallback('crd_unavailable') };
  const now = options.now ?? (() => new Date());
  const request = orderSignRequest(query, hookInstanceOf(query.caseId), now());
  const received = JSON.parse(JSON.stringify(request)) as CdsHooksRequest;
  const answer = JSON.parse(JSON.stringify(answerOrderSign(received, query.mock, options))) as unknown;
  return { kind: 'answered', requirements: readOrderSignResponse(answer, orderSignSubject(query.caseId)) };
}

function mocked(mock: MockCrdAnswer, drug: CatalogDrug | undefined): Assessment {
  return mock === 'no-auth' ? noAuthorization(drug) : authorizationNeeded(drug);
}

function assess(
  catalog: PayerCatalog,
  drug: CatalogDrug | undefined,
  planId: string | undefined,
): Assessment {
  if (!drug)
    return conditional(drug, 'The payer has no coverage policy for this drug; it decides on review.');
  const plan = planId ? catalog.findPlan(planId)?.plan : undefined;
  switch (catalog.planFormulary(plan).priorAuthorizationFor(drug.id)) {
    case 'no':
      return noAuthorization(drug);
    case 'not_applicable':
      return notCovered(drug);
    case 'yes':
      return catalog.criteriaFor(drug, plan).length > 0
        ? authorizationNeeded(drug)
        : conditional(drug, 'The payer has published no criteria for this drug; it decides on review.');
  }
}

function noAuthorization(drug: CatalogDrug | undefined): Assessment {
  return {
    covered: 'covered',
    paNeeded: 'no-auth',
    docNeeded: null,
    questionnaire: null,
    reason: null,
    card: { summary: `No prior authorization needed for ${nameOf(drug)} on this plan`, indicator: 'info' },
  };
}

function authorizationNeeded(drug: CatalogDrug | undefined): Assessment {
  const questionnaire = drug ? `${SANDBOX_QUESTIONNAIRE_BASE}/${drug.id}` : null;
  return {
    covered: 'covered',
    paNeeded: 'auth-needed',
    docNeeded: 'clinical',
    questionnaire,
    reason: null,
    card: {
      summary: `Prior authorization needed for ${nameOf(drug)}`,
      detail: questionnaire
        ? "Answer the payer's questionnaire for this drug and send the request with the clinical documentation that supports it."
        : 'Send the request with the clinical documentation that supports it.',
      indicator: 'warning',
    },
  };
}

function conditional(drug: CatalogDrug | undefined, reason: string): Assessment {
  return {
    covered: 'conditional',
    paNeeded: 'conditional',
    docNeeded: 'clinical',
    questionnaire: null,
    reason,
    card: {
      summary: `Prior authorization may be needed for ${nameOf(drug)}`,
      detail: reason,
      indicator: 'warning',
    },
  };
}

function notCovered(drug: CatalogDrug): Assessment {
  const reason = 'The plan does not cover this drug: it is excluded or not on its formulary.';
  return {
    covered: 'not-covered',
    paNeeded: null,
    docNeeded: null,
    questionnaire: null,
    reason,
    card: { summary: `${nameOf(drug)} is not covered by this plan`, detail: reason, indicator: 'critical' },
  };
}

/** The 2.0.1 extension, with its required slices: coverage, covered, date and coverage-assertion-id. */
function coverageInformation(
  hookInstance: string,
  coverageId: string,
  assessment: Assessment,
  assertedOn: string,
) {
  const slices = [
    { url: 'coverage', valueReference: { reference: `Coverage/${coverageId}` } },
    { url: 'covered', valueCode: assessment.covered },
    ...(assessment.paNeeded ? [{ url: 'pa-needed', valueCode: assessment.paNeeded }] : []),
    ...(assessment.docNeeded
      ? [
          { url: 'doc-needed', valueCode: assessment.docNeeded },
          { url: 'doc-purpose', valueCode: 'withpa' },
        ]
      : []),
    ...(assessment.reason ? [{ url: 'reason', valueCodeableConcept: { text: assessment.reason } }] : []),
    ...(assessment.questionnaire ? [{ url: 'questionnaire', valueCanonical: assessment.questionnaire }] : []),
    { url: 'date', valueDate: assertedOn },
    {
      url: 'coverage-assertion-id',
      valueString: createHash('sha256').update(hookInstance).digest('hex').slice(0, 32),
    },
  ];
  return { url: COVERAGE_INFORMATION_EXTENSION, extension: slices };
}

/** What a payer reads of the ordered drug: its NDC and the order's text. */
function drugNamedBy(order: FhirResource): { ndc?: string; name?: string } {
  const concept = order.medicationCodeableConcept as
    { coding?: Array<{ system?: string; code?: string }>; text?: string } | undefined;
  const ndc = concept?.coding?.find((coding) => coding.system === SYSTEM.ndc)?.code;
  return { ndc, name: concept?.text };
}

function planIdOf(coverage: FhirResource): string | undefined {
  const classes = coverage.class as
    Array<{ type?: { coding?: Array<{ code?: string }> }; value?: string }> | undefined;
  return classes?.find((entry) => entry.type?.coding?.some((coding) => coding.code === 'plan'))?.value;
}

function nameOf(drug: CatalogDrug | undefined): string {
  return drug ? (drug.brand_name ?? drug.generic_name) : 'this drug';
}
