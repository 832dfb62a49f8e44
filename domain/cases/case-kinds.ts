import type { ConnectorKind } from '../connectors/connector-kinds';
import type { CaseKind } from './case-kind';
import { BENEFIT_VERIFICATION_KIND } from './benefit-verification.kind';
import { CLINICAL_ELIGIBILITY_KIND } from './clinical-eligibility.kind';
import { PATIENT_ENROLLMENT_KIND } from './patient-enrollment.kind';
import { PRIOR_AUTHORIZATION_KIND } from './prior-authorization.kind';

// The case types' names as the published schemas read them: spelled out, because their generator
// (scripts/generate-published-schemas.js) reads types without evaluating them. CASE_KINDS may name
// only these, and test/architecture/case-type-registry.test.ts holds them to exactly its names. (Line
// comments: a doc comment would become the schemas' description.)
export type CaseObjectType =
  'prior_authorization' | 'benefit_verification' | 'clinical_eligibility' | 'patient_enrollment';
export type CaseEventType =
  | 'benefit_verification.updated'
  | 'prior_authorization.updated'
  | 'prior_authorization.overdue'
  | 'clinical_eligibility.updated'
  | 'patient_enrollment.updated';

/**
 * Every case type, in the order ids and webhook events list them (the API document shows the events
 * in this order). A new case type is one more entry here, its names added to the two types above.
 */
export const CASE_KINDS = [
  BENEFIT_VERIFICATION_KIND,
  PRIOR_AUTHORIZATION_KIND,
  CLINICAL_ELIGIBILITY_KIND,
  PATIENT_ENROLLMENT_KIND,
] as const satisfies readonly CaseKind<CaseObjectType>[];

type AnyCaseKind = (typeof CASE_KINDS)[number];

/** The names `CASE_KINDS` declares, for the registry test to hold the spelled-out types to. */
export type DeclaredObjectType = AnyCaseKind['object'];
export type DeclaredEventType = AnyCaseKind extends infer Kind
  ? Kind extends { events: infer Events }
    ? keyof Events & string
    : never
  : never;

/** Each case type's id prefix by its id kind, for `ID_PREFIXES`. */
export const CASE_ID_PREFIXES = Object.fromEntries(
  CASE_KINDS.map((kind) => [kind.idKind, kind.idPrefix]),
) as { readonly [Kind in AnyCaseKind as Kind['idKind']]: Kind['idPrefix'] };

/** The connector a live case of each type needs before it may start. */
export const CONNECTOR_KIND_FOR_CASE_TYPE = Object.fromEntries(
  CASE_KINDS.map((kind) => [kind.object, kind.connector]),
) as Readonly<Record<CaseObjectType, ConnectorKind | null>>;
