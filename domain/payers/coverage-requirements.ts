import type { ResolvedPlan } from './payer-connector';
import type { CasePatient, Provider } from '../cases/case-model';
import type { Prescription, PriorAuthorizationRequest } from '../cases/prior-authorization-request';
import type { PrescriberRegistryCheck } from '../providers/prescriber-registry';

/**
 * What a payer says an order needs before it is filled, as Da Vinci Coverage Requirements Discovery
 * (CRD STU 2, CDS Hooks `order-sign`) answers it in the `coverage-information` extension, and what a
 * prior authorization keeps of it (docs/crd.md).
 */

/** The `pa-needed` codes of CRD's coverage-information extension. */
export const PA_NEEDED = ['auth-needed', 'no-auth', 'satisfied', 'performpa', 'conditional'] as const;
export type PaNeeded = (typeof PA_NEEDED)[number];

/** `covered`: whether the order is covered at all. */
export const COVERED = ['covered', 'not-covered', 'conditional'] as const;
export type Covered = (typeof COVERED)[number];

/** `doc-needed`: what documentation the payer wants with the order. */
export const DOC_NEEDED = ['clinical', 'admin', 'both', 'conditional'] as const;
export type DocNeeded = (typeof DOC_NEEDED)[number];

/** `info-needed`: what the payer could not decide for want of information (CRD 2.0.1's value set). */
export const INFO_NEEDED = ['performer', 'location', 'timeframe', 'contract-window', 'OTH'] as const;
export type InfoNeeded = (typeof INFO_NEEDED)[number];

/** The answers that end a prior authorization without a submission or a review. */
const AUTHORIZATION_NOT_NEEDED: ReadonlySet<PaNeeded> = new Set(['no-auth', 'satisfied']);

/**
 * Whether the payer itself said the order needs no prior authorization: never a fallback's guess, and
 * never for an order it does not cover (CRD forbids `not-covered` with `no-auth`; a payer that sends
 * the pair anyway gets a review, not an approval).
 */
export function authorizationNotNeeded(requirements: CoverageRequirements): boolean {
  return (
    requirements.source === 'crd' &&
    requirements.covered !== 'not-covered' &&
    requirements.pa_needed !== null &&
    AUTHORIZATION_NOT_NEEDED.has(requirements.pa_needed)
  );
}

/**
 * Whether a case asks a CRD service at all: every test-mode case (the sandbox's); in live mode, the
 * drugs whose authorization goes over PAS (the medical benefit), where a payer runs CRD beside it.
 */
export function asksCoverageRequirements(
  mode: 'test' | 'live',
  benefit: 'pharmacy' | 'medical' | null,
): boolean {
  return mode === 'test' || benefit === 'medical';
}

/**
 * What the sandbox's CRD service is told to answer: the request's own mock; `auth-needed` where the
 * request scripts the payer's determination (`mock_result.result`), so that script is played rather
 * than cut short by the formulary's `no-auth`; else nothing, and the formulary decides.
 */
export function sandboxCrdMock(
  mock: PriorAuthorizationRequest['mock_result'],
): MockCoverageRequirements | null {
  if (mock?.coverage_requirements) return mock.coverage_requirements;
  return mock?.result ? 'auth-needed' : null;
}

/**
 * Why a case went on without the payer's requirements. Each is a reason the CRD service gave none we
 * can act on; the case then takes today's path, and never fails for it.
 */
export const CRD_FALLBACK_REASONS = [
  'crd_unavailable',
  'crd_timed_out',
  'crd_invalid_answer',
  'crd_no_coverage_information',
] as const;
export type CrdFallbackReason = (typeof CRD_FALLBACK_REASONS)[number];

/** What the sandbox's CRD service answers, chosen by `mock_result.coverage_requirements`. */
export type MockCoverageRequirements = NonNullable<
  NonNullable<PriorAuthorizationRequest['mock_result']>['coverage_requirements']
>;
export const MOCK_COVERAGE_REQUIREMENTS = [
  'no-auth',
  'auth-needed',
  'unavailable',
] as const satisfies readonly MockCoverageRequirements[];

/** One CDS Hooks card's instruction to the clinician: its summary and its Markdown detail. */
export interface CoverageInstruction {
  summary: string;
  detail: string | null;
}

/** A prior authorization's `coverage_requirements` (docs/decisions.md#payer-requirements). */
export interface CoverageRequirements {
  /** `crd` when the payer's CRD service answered; `catalog` when the case fell back to our criteria. */
  source: 'crd' | 'catalog';
  covered: Covered | null;
  pa_needed: PaNeeded | null;
  doc_needed: DocNeeded | null;
  info_needed: InfoNeeded[];
  /** Canonical URLs of the questionnaires the payer names for DTR. */
  questionnaires: string[];
  instructions: CoverageInstruction[];
  /** The payer's reason: the reason's text, else its coded display; never a card's words. */
  reason: string | null;
  /**
   * Until when the payer's answer holds: the extension's `expiry-date` (CRD 2.1). CRD 2.0.1 has none;
   * its `date` is when the payer made the assertion.
   */
  expires_at: string | null;
  /** With `satisfied`: the payer's id of the authorization already on file that covers the order. */
  satisfied_pa_id: string | null;
  fallback_reason: CrdFallbackReason | null;
}

/** What the CRD step is asked, built from the case when it has been prepared for review. */
export interface CoverageRequirementsQuery {
  /** Our case id: the hook instance and the resources' ids derive from it, never from PHI. */
  caseId: string;
  accountId: string;
  mode: 'test' | 'live';
  patient: CasePatient;
  prescription: Prescription;
  provider: Provider;
  plan: ResolvedPlan | null;
  /** Whether the drug is billed on the medical benefit, where its PA goes over PAS. */
  benefit: 'pharmacy' | 'medical' | null;
  diagnoses: Array<{ code: string; description?: string }>;
  /** The sandbox's forced answer; ignored in live mode. */
  mock: MockCoverageRequirements | null;
  /** What the NPI registry said of the prescriber: a match lends the Practitioner its practice address. */
  prescriber?: PrescriberRegistryCheck | null;
}

/**
 * The CRD step's answer: the payer's requirements, a fallback with its reason, or nothing asked (live
 * mode without a `coverage_requirements` connector, or a drug whose PA does not go over PAS).
 */
export type CoverageRequirementsAnswer =
  | { kind: 'answered'; requirements: CoverageRequirements }
  | { kind: 'fallback'; requirements: CoverageRequirements }
  | { kind: 'not_asked' };

/** The requirements a case keeps when it goes on without the payer's answer. */
export function catalogFallback(reason: CrdFallbackReason): CoverageRequirements {
  return {
    source: 'catalog',
    covered: null,
    pa_needed: null,
    doc_needed: null,
    info_needed: [],
    questionnaires: [],
    instructions: [],
    reason: null,
    expires_at: null,
    satisfied_pa_id: null,
    fallback_reason: reason,
  };
}
