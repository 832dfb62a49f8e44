import { CLEARINGHOUSE_PAYER_ID } from '../../../domain/payers/eligibility';
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsInt, IsString, Matches, Max, MaxLength, Min } from 'class-validator';

import type { PlanType } from '../../../domain/cases/case-model';
import { Field, FieldOptions, NestedObject, Stack, TextField } from './compose';
import {
  AtLeastOneOf,
  IsCalendarDate,
  IsIcd10Code,
  IsIsoDateTime,
  IsNdc,
  IsPhone,
  IsStringRecord,
} from './case-validators';
import { shippedBenefitVerificationMockCaseNames } from '../../../infrastructure/catalogs/shipped-catalogs';

/**
 * The words every request of the contract shares (sections 3a and 7): their limits, declared once,
 * and one decorator per field, so a patient, an address or insurance data reads the same in every
 * case type and a limit changes in one place.
 */
export const LIMITS = {
  documentsPerRequest: 20,
  name: 100,
  identifier: 100,
  /** Street lines, drug names, titles and who decided. */
  label: 200,
  diagnosisDescription: 500,
  notes: 5000,
  /** Directions, cancellation reasons and short decisions in words. */
  sentence: 1000,
  quantity: 100_000,
  postalCode: 20,
  /** Pharmacy PCN and group. */
  rxCode: 32,
  /** RFC 5321's limit on an address in a path. */
  email: 254,
  url: 2048,
  snakeCase: 80,
  metadata: { maxEntries: 20, maxKeyLength: 40, maxValueLength: 500 },
} as const;

export const PLAN_TYPES = [
  'commercial',
  'medicare',
  'medicare_advantage',
  'medicaid',
  'tricare',
  'other',
] as const satisfies readonly PlanType[];

const SNAKE_CASE = /^[a-z][a-z0-9_]*$/;
const RX_BIN = /^\d{6}$/;

export const PersonName = (example: string, options: FieldOptions = {}) =>
  TextField(LIMITS.name, { example, ...options });

export const Identifier = (options: FieldOptions) => TextField(LIMITS.identifier, options);

export const DateOfBirth = (options: FieldOptions = {}) =>
  Stack(
    Field({ description: 'Calendar date, not in the future.', example: '1980-04-12', ...options }),
    IsCalendarDate({ past: true }),
  );

export const Email = (options: FieldOptions = {}) =>
  Stack(Field({ example: 'alex.sample@example.com', ...options }), IsEmail(), MaxLength(LIMITS.email));

export const Phone = (example: string, options: FieldOptions = {}) =>
  Stack(Field({ example, ...options }), IsPhone());

export const PayerName = (options: FieldOptions = {}) =>
  TextField(LIMITS.name, { example: 'Example Health Plan', ...options });

export const GroupNumber = () => TextField(LIMITS.identifier, { optional: true, example: 'GRP-0042' });

export const RxBin = (options: FieldOptions = {}) =>
  Stack(
    Field({ optional: true, description: 'Pharmacy BIN: 6 digits.', example: '999901', ...options }),
    Matches(RX_BIN, { message: 'must be 6 digits' }),
  );

/** NM109 of the payer in a 270: the id the account's clearinghouse knows the payer by. */
export const ClearinghousePayerId = () =>
  Stack(
    Field({
      optional: true,
      description:
        "The payer's id at the account's clearinghouse (2–20 letters or digits), which a live benefit verification's 270 is addressed to.",
      example: 'SBX01',
    }),
    Matches(CLEARINGHOUSE_PAYER_ID, { message: 'must be 2 to 20 letters or digits' }),
  );

/** A pharmacy PCN or group. */
export const RxCode = (example: string, options: FieldOptions = {}) =>
  TextField(LIMITS.rxCode, { optional: true, example, ...options });

export const PlanTypeField = () => Stack(Field({ optional: true, enum: PLAN_TYPES }), IsIn(PLAN_TYPES));

/** An ICD-10-CM code in any letter case, kept upper-case as catalogs and payers compare it. */
export const Icd10Code = (options: FieldOptions) =>
  Stack(
    Field(options),
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value)),
    IsIcd10Code(),
  );

/** When a document or note was written; clinical systems often leave out the zone. */
export const WrittenAt = (example: string) =>
  Stack(
    Field({ description: 'ISO 8601 date-time; a zone designator is optional.', example }),
    IsIsoDateTime({ zone: 'optional' }),
  );

/** A machine-readable code: snake_case within LIMITS.snakeCase. */
export const SnakeCaseCode = (options: FieldOptions) =>
  Stack(
    Field({ optional: true, ...options }),
    Matches(SNAKE_CASE, {
      message: `must be snake_case (lower-case letters, digits, _), at most ${LIMITS.snakeCase} characters`,
    }),
    MaxLength(LIMITS.snakeCase),
  );

/** A drug is named by name or by NDC: `nameProperty` is required unless ndc is given. */
export const DrugName = (nameProperty: string) =>
  Stack(
    AtLeastOneOf([nameProperty, 'ndc']),
    TextField(LIMITS.label, {
      required: false,
      description: 'Required unless ndc is given.',
      example: 'Metformin',
    }),
  );

/** The NDC beside a drug's `nameProperty`, one of which is required (see DrugName). */
export const Ndc = (nameProperty: string) =>
  Stack(
    Field({
      optional: true,
      description: `National Drug Code; required unless ${nameProperty} is given.`,
      example: '00093-7214-01',
    }),
    IsNdc(),
  );

export const Quantity = () =>
  Stack(Field({ minimum: 1, maximum: LIMITS.quantity, example: 60 }), IsInt(), Min(1), Max(LIMITS.quantity));

/** Free-text remarks of at most LIMITS.notes characters; unlike other text fields, they may be empty. */
export const Notes = (example: string) =>
  Stack(Field({ optional: true, example }), IsString(), MaxLength(LIMITS.notes));

/** The optional `metadata` of a case request: the caller's own string tags, within the same limits everywhere. */
export function CaseMetadata(example: Record<string, string>): PropertyDecorator {
  const { maxEntries, maxKeyLength, maxValueLength } = LIMITS.metadata;
  return Stack(
    Field({
      optional: true,
      description: `Caller's tags: at most ${maxEntries} string values, keys up to ${maxKeyLength} characters, values up to ${maxValueLength}.`,
      type: 'object',
      additionalProperties: { type: 'string' },
      example,
    }),
    IsStringRecord(LIMITS.metadata),
  );
}

/**
 * `mock_result.case` of a benefit verification: one of the sandbox's scenarios
 * (catalog/benefit-verification-mock-cases.json, listed in docs/sandbox.md). Refused at the edge when
 * it names none, since the simulator has nothing to play for it.
 */
export const SandboxBenefitVerificationCase = () => {
  const cases = shippedBenefitVerificationMockCaseNames();
  return Stack(
    Field({
      optional: true,
      enum: cases,
      description: 'A sandbox scenario the simulated payer plays (docs/sandbox.md).',
      example: cases[0],
    }),
    IsIn(cases, { message: `must be one of the sandbox's cases (docs/sandbox.md): ${cases.join(', ')}` }),
  );
};

/** `mock_result`: what the local simulators answer instead of deciding (contract section 8). */
export const SandboxMockResult = (type: () => new () => object) =>
  NestedObject(type, { optional: true, description: 'Sandbox only: forces the outcome.' });
