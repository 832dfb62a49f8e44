import { ValidateIf, ValidationOptions } from 'class-validator';
import { documentedRule, type DocumentedRule } from './documented-rule';
import { subFieldIssues } from '../validation';

const MEBIBYTE = 1024 * 1024;
const HOUR_MS = 60 * 60 * 1000;
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/** Contract section 7: each base64 document at most 10 MB once decoded. */
export const MAX_DOCUMENT_BYTES = 10 * MEBIBYTE;

const ICD10_CM = /^[A-Z]\d[A-Z\d](?:\.[A-Z\d]{1,4})?$/i;
const NPI = /^\d{10}$/;
const NDC = /^(?:\d{11}|\d{5}-\d{4}-\d{2}|\d{4}-\d{4}-\d{2}|\d{5}-\d{3}-\d{2}|\d{5}-\d{4}-\d)$/;
const PHONE = /^[\d +\-().]{7,20}$/;
const MIN_PHONE_DIGITS = 7;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|[+-](\d{2}):(\d{2}))?$/;

/** ICD-10-CM as written by clinicians: E11.9, M06.9, J45.50, Z79.4, I10. Letters in any case. */
export function IsIcd10Code(options?: ValidationOptions): PropertyDecorator {
  return documentedRule(
    'isIcd10Code',
    (value) => typeof value === 'string' && ICD10_CM.test(value),
    'must be an ICD-10-CM code such as E11.9: a letter, a digit, a letter or digit, then optionally a dot and 1 to 4 letters or digits',
    options,
    {
      schema: {
        type: 'string',
        format: 'icd10-cm',
        pattern: '^[A-Za-z][0-9][A-Za-z0-9](?:\\.[A-Za-z0-9]{1,4})?$',
      },
    },
  );
}

/** A National Provider Identifier: 10 digits whose last is the check digit CMS defines. */
export function IsNpi(options?: ValidationOptions): PropertyDecorator {
  return documentedRule(
    'isNpi',
    (value) => typeof value === 'string' && NPI.test(value) && passesLuhn(`80840${value}`),
    'must be a 10-digit NPI with a valid check digit',
    options,
    {
      schema: { type: 'string', format: 'npi', pattern: '^[0-9]{10}$' },
      description: 'The check digit is Luhn over "80840" followed by the first nine digits.',
    },
  );
}

/** CMS computes the NPI check digit with Luhn over the number prefixed by 80840, the US health issuer prefix. */
function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let fromRight = 0; fromRight < digits.length; fromRight++) {
    let digit = Number(digits[digits.length - 1 - fromRight]);
    if (fromRight % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** A National Drug Code: 11 digits, or the dashed 5-4-2, 4-4-2, 5-3-2 and 5-4-1 forms printed on packages. */
export function IsNdc(options?: ValidationOptions): PropertyDecorator {
  return documentedRule(
    'isNdc',
    (value) => typeof value === 'string' && NDC.test(value),
    'must be an NDC: 11 digits, or dashed as 5-4-2, 4-4-2, 5-3-2 or 5-4-1 digits',
    options,
    { schema: { type: 'string', pattern: NDC.source } },
  );
}

/** Lenient on purpose: numbers arrive in every national format, so only the character set and size are checked. */
export function IsPhone(options?: ValidationOptions): PropertyDecorator {
  return documentedRule(
    'isPhone',
    (value) =>
      typeof value === 'string' && PHONE.test(value) && value.replace(/\D/g, '').length >= MIN_PHONE_DIGITS,
    `must be a phone number of 7 to 20 characters (digits, spaces, + - ( ) .) with at least ${MIN_PHONE_DIGITS} digits`,
    options,
    {
      schema: {
        type: 'string',
        pattern: `^(?=(?:[^0-9]*[0-9]){${MIN_PHONE_DIGITS}})${PHONE.source.slice(1)}`,
      },
    },
  );
}

export interface Base64DocumentOptions {
  /** Largest decoded size accepted; 10 MB by default. */
  maxBytes?: number;
}

/** Standard-alphabet base64 without whitespace, padding optional, decoding to at most `maxBytes`. */
export function IsBase64Document(
  { maxBytes = MAX_DOCUMENT_BYTES }: Base64DocumentOptions = {},
  options?: ValidationOptions,
): PropertyDecorator {
  return documentedRule(
    'isBase64Document',
    (value) => {
      const size = decodedBase64Size(value);
      return size !== undefined && size > 0 && size <= maxBytes;
    },
    ({ value }) =>
      (decodedBase64Size(value) ?? 0) > 0
        ? `must decode to at most ${describeBytes(maxBytes)}`
        : 'must be non-empty base64 (standard alphabet, no whitespace or line breaks)',
    options,
    {
      schema: {
        type: 'string',
        contentEncoding: 'base64',
        pattern: '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)$',
        maxLength: Math.ceil(maxBytes / 3) * 4,
      },
      description: `At most ${describeBytes(maxBytes)} once decoded.`,
    },
  );
}

/** The decoded size of well-formed base64, computed without decoding; undefined when it is not base64. */
function decodedBase64Size(value: unknown): number | undefined {
  if (typeof value !== 'string' || !BASE64.test(value)) return undefined;
  const padding = value.length - value.replace(/=+$/, '').length;
  const dataLength = value.length - padding;
  const remainder = dataLength % 4;
  if (remainder === 1) return undefined;
  if (padding > 0 && padding !== 4 - remainder) return undefined;
  return Math.floor((dataLength * 3) / 4);
}

function describeBytes(bytes: number): string {
  return bytes % MEBIBYTE === 0 ? `${bytes / MEBIBYTE} MB (${bytes} bytes)` : `${bytes} bytes`;
}

export interface CalendarDateOptions {
  /** Refuse dates after today, as for birth dates. */
  past?: boolean;
}

/** YYYY-MM-DD naming a day that exists (no 2023-02-30). */
export function IsCalendarDate(
  { past = false }: CalendarDateOptions = {},
  options?: ValidationOptions,
): PropertyDecorator {
  return documentedRule(
    'isCalendarDate',
    (value) => isCalendarDate(value) && (!past || value <= latestCurrentDate()),
    ({ value }) =>
      isCalendarDate(value) ? 'must not be in the future' : 'must be a calendar date YYYY-MM-DD that exists',
    options,
    past
      ? {
          schema: { type: 'string', format: 'past-date', pattern: CALENDAR_DATE.source },
          description: 'A calendar date YYYY-MM-DD, not in the future.',
        }
      : { schema: { type: 'string', format: 'date' } },
  );
}

function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = CALENDAR_DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Today somewhere on Earth (UTC+14), so a date that is already today in the caller's zone is never "future". */
function latestCurrentDate(): string {
  return new Date(Date.now() + 14 * HOUR_MS).toISOString().slice(0, 10);
}

export interface IsoDateTimeOptions {
  /** `optional` accepts local times such as 2024-03-01T10:00:00, which PA evidence uses. */
  zone: 'optional' | 'required';
  /** Also accept a bare calendar date, as range filters do. */
  orCalendarDate?: boolean;
}

/** ISO 8601 date-time with seconds (fraction optional), zone `Z` or `±hh:mm` as `zone` says. */
export function IsIsoDateTime(
  { zone, orCalendarDate = false }: IsoDateTimeOptions,
  options?: ValidationOptions,
): PropertyDecorator {
  const example =
    zone === 'required' ? '2024-03-01T10:00:00Z' : '2024-03-01T10:00:00 or 2024-03-01T10:00:00Z';
  const dateTime = `an ISO 8601 date-time${zone === 'required' ? ' with a zone' : ''}`;
  return documentedRule(
    'isIsoDateTime',
    (value) => (orCalendarDate && isCalendarDate(value)) || isIsoDateTime(value, zone === 'required'),
    orCalendarDate
      ? `must be a calendar date YYYY-MM-DD or ${dateTime}, e.g. ${example}`
      : `must be ${dateTime}, e.g. ${example}`,
    options,
    { schema: isoDateTimeSchema(zone, orCalendarDate) },
  );
}

/** The date-time format of the rule above; zone-less forms are named formats, as JSON Schema's date-time needs a zone. */
function isoDateTimeSchema(
  zone: IsoDateTimeOptions['zone'],
  orCalendarDate: boolean,
): Record<string, unknown> {
  const dateTime = `[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{1,9})?(?:Z|[+-][0-9]{2}:[0-9]{2})${zone === 'required' ? '' : '?'}`;
  if (orCalendarDate) {
    return {
      type: 'string',
      format: 'date-or-date-time',
      pattern: `^[0-9]{4}-[0-9]{2}-[0-9]{2}$|^${dateTime}$`,
    };
  }
  return zone === 'required'
    ? { type: 'string', format: 'date-time', pattern: `^${dateTime}$` }
    : { type: 'string', format: 'date-time-zone-optional', pattern: `^${dateTime}$` };
}

function isIsoDateTime(value: unknown, zoneRequired: boolean): boolean {
  if (typeof value !== 'string') return false;
  const match = DATE_TIME.exec(value);
  if (!match) return false;
  const [date, hour, minute, second, offsetHour, offsetMinute] = match.slice(1);
  const hasZone = value.endsWith('Z') || offsetHour !== undefined;
  return (
    isCalendarDate(date) &&
    Number(hour) <= 23 &&
    Number(minute) <= 59 &&
    Number(second) <= 59 &&
    (offsetHour === undefined || (Number(offsetHour) <= 23 && Number(offsetMinute) <= 59)) &&
    (hasZone || !zoneRequired)
  );
}

/**
 * A moment that has happened: an ISO 8601 date-time with a zone, at most CLOCK_SKEW_MS ahead of this
 * server's clock, so a signature recorded on a clinic computer whose clock runs a little fast is not refused.
 */
export function IsPastDateTime(options?: ValidationOptions): PropertyDecorator {
  return documentedRule(
    'isPastDateTime',
    (value) => isIsoDateTime(value, true) && Date.parse(value as string) <= Date.now() + CLOCK_SKEW_MS,
    ({ value }) =>
      isIsoDateTime(value, true)
        ? 'must not be in the future'
        : 'must be an ISO 8601 date-time with a zone, e.g. 2026-11-20T14:30:00Z',
    options,
    {
      schema: { ...isoDateTimeSchema('required', false), format: 'past-date-time' },
      description: 'An ISO 8601 date-time with a zone, not in the future.',
    },
  );
}

/** A date or date-time not earlier than the one in `otherProperty` (either may be a date or a date-time). */
export function IsNotBefore(otherProperty: string, options?: ValidationOptions): PropertyDecorator {
  return documentedRule(
    'isNotBefore',
    (value, { object }) => {
      const other = (object as Record<string, unknown>)[otherProperty];
      if (typeof value !== 'string' || typeof other !== 'string') return true;
      const [start, end] = [Date.parse(other), Date.parse(value)];
      // Unparsable values are the format validators' to report.
      return Number.isNaN(start) || Number.isNaN(end) || end >= start;
    },
    `must not be before ${otherProperty}`,
    options,
    { description: `Not before ${otherProperty}.` },
  );
}

export interface StringRecordLimits {
  maxEntries: number;
  maxKeyLength: number;
  maxValueLength: number;
}

/** A flat object of string values within the given limits, such as caller metadata. */
export function IsStringRecord(limits: StringRecordLimits, options?: ValidationOptions): PropertyDecorator {
  return documentedRule(
    'isStringRecord',
    (value) => isStringRecord(value, limits),
    `must be an object of at most ${limits.maxEntries} string values, with keys of 1 to ` +
      `${limits.maxKeyLength} characters and values of at most ${limits.maxValueLength} characters`,
    options,
    {
      schema: {
        type: 'object',
        maxProperties: limits.maxEntries,
        propertyNames: { minLength: 1, maxLength: limits.maxKeyLength },
        additionalProperties: { type: 'string', maxLength: limits.maxValueLength },
      },
    },
  );
}

function isStringRecord(value: unknown, limits: StringRecordLimits): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return (
    entries.length <= limits.maxEntries &&
    entries.every(
      ([key, entry]) =>
        key.length >= 1 &&
        key.length <= limits.maxKeyLength &&
        typeof entry === 'string' &&
        entry.length <= limits.maxValueLength,
    )
  );
}

/** Arrays at `paths` (dotted, from the validated object) together hold at most `max` items. */
export function MaxCombinedItems(
  paths: readonly string[],
  max: number,
  options?: ValidationOptions,
): PropertyDecorator {
  return documentedRule(
    'maxCombinedItems',
    (_value, { object }) =>
      paths.reduce((total, path) => total + arrayLength(valueAt(object, path)), 0) <= max,
    `must hold at most ${max} items in total across ${listOf(paths, 'and')}`,
    options,
    { description: `At most ${max} items in total across ${listOf(paths, 'and')}.` },
  );
}

function arrayLength(value: unknown): number {
  return Array.isArray(value) ? value.length : 0;
}

/**
 * At least one of `paths` (dotted, from the validated object) holds a value; reported on the decorated
 * property. Use it instead of @IsOptional(): class-validator runs or skips all of a property's validators
 * together, so the property is validated when it holds a value and also when the rule is broken — then it
 * is effectively required, and its own validators report alongside this rule.
 */
export function AtLeastOneOf(paths: readonly string[], options?: ValidationOptions): PropertyDecorator {
  return presenceRule(
    'atLeastOneOf',
    paths,
    (present) => present >= 1,
    () => `at least one of ${listOf(paths, 'or')} is required`,
    options,
    { objectSchema: { anyOf: paths.map(presenceSchema) } },
  );
}

/** Exactly one of `paths` holds a value; reported on the decorated property, used as AtLeastOneOf is. */
export function ExactlyOneOf(paths: readonly string[], options?: ValidationOptions): PropertyDecorator {
  return presenceRule(
    'exactlyOneOf',
    paths,
    (present) => present === 1,
    (present) =>
      present === 0
        ? `exactly one of ${listOf(paths, 'or')} is required`
        : `only one of ${listOf(paths, 'or')} may be given`,
    options,
    { objectSchema: { oneOf: paths.map(presenceSchema) } },
  );
}

function presenceRule(
  name: string,
  paths: readonly string[],
  holds: (present: number) => boolean,
  message: (present: number) => string,
  options: ValidationOptions | undefined,
  documented: DocumentedRule,
): PropertyDecorator {
  const countPresent = (object: object) => paths.filter((path) => isPresent(valueAt(object, path))).length;
  return (target, propertyName) => {
    // An empty string or list given alongside another source is still checked, so "" is never a name.
    ValidateIf((object: object, value: unknown) => value != null || !holds(countPresent(object)), options)(
      target,
      propertyName,
    );
    documentedRule(
      name,
      (_value, { object }) => holds(countPresent(object)),
      ({ object }) => message(countPresent(object)),
      options,
      documented,
    )(target, propertyName);
  };
}

/** Empty strings and empty lists carry no data, so they do not satisfy a presence rule. */
function isPresent(value: unknown): boolean {
  return (
    value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0)
  );
}

/**
 * The property may be given only beside `otherProperty`: a detail without what it details would be
 * taken and then ignored. Use it with @IsOptional(), which leaves an absent property alone.
 */
export function OnlyWith(otherProperty: string, options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    documentedRule(
      'onlyWith',
      (_value, { object }) => (object as Record<string, unknown>)[otherProperty] !== undefined,
      `is given only with ${otherProperty}`,
      options,
      {
        objectSchema: {
          if: { required: [propertyName as string] },
          then: { required: [otherProperty] },
        },
      },
    )(target, propertyName);
}

/**
 * The property is required while `otherProperty` holds one of `values`; when given otherwise, it is
 * validated all the same. Use it instead of @IsOptional(), like the presence rules below.
 */
export function RequiredWhen(
  otherProperty: string,
  values: readonly string[],
  options?: ValidationOptions,
): PropertyDecorator {
  const applies = (object: object) =>
    values.includes((object as Record<string, unknown>)[otherProperty] as string);
  return (target, propertyName) => {
    ValidateIf((object: object, value: unknown) => value !== undefined || applies(object), options)(
      target,
      propertyName,
    );
    documentedRule(
      'requiredWhen',
      (value) => value !== undefined,
      `is required when ${otherProperty} is ${values.join(' or ')}`,
      options,
      {
        objectSchema: {
          if: { required: [otherProperty], properties: { [otherProperty]: { enum: values } } },
          then: { required: [propertyName] },
        },
      },
    )(target, propertyName);
  };
}

/**
 * When the decorated object is given, it must hold each of `fields` unless one of `unlessPaths` (dotted,
 * from the validated object) holds a value: discrete insurance data is complete on its own, partial
 * beside a card. An empty `unlessPaths` makes the fields always required.
 */
export function RequiresFieldsUnless(
  fields: readonly string[],
  unlessPaths: readonly string[],
  options?: ValidationOptions,
): PropertyDecorator {
  const excused = (object: object) => unlessPaths.some((path) => isPresent(valueAt(object, path)));
  const missing = (value: unknown) =>
    fields.filter((field) => !isPresent((value as Record<string, unknown>)[field]));
  return (target, propertyName) => {
    const property = propertyName as string;
    const given = { required: [property] };
    documentedRule(
      'requiresFieldsUnless',
      (value, { object }) =>
        typeof value !== 'object' || value === null || excused(object) || missing(value).length === 0,
      ({ value }) =>
        subFieldIssues(
          missing(value).map((field) => [
            field,
            unlessPaths.length > 0
              ? `is required when the request carries no ${listOf(unlessPaths, 'or')}`
              : 'is required',
          ]),
        ),
      options,
      {
        objectSchema: {
          if: unlessPaths.length > 0 ? { ...given, not: { anyOf: unlessPaths.map(presenceSchema) } } : given,
          then: { properties: { [property]: { allOf: fields.map(presenceSchema) } } },
        },
      },
    )(target, propertyName);
  };
}

/** JSON Schema for "the dotted path holds a value" in the sense of isPresent. */
function presenceSchema(path: string): Record<string, unknown> {
  const [key, ...rest] = path.split('.');
  const value = rest.length > 0 ? presenceSchema(rest.join('.')) : { not: { enum: [null, '', []] } };
  return { required: [key], properties: { [key!]: value } };
}

function valueAt(object: object, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (current, key) =>
        typeof current === 'object' && current !== null
          ? (current as Record<string, unknown>)[key]
          : undefined,
      object,
    );
}

function listOf(paths: readonly string[], conjunction: 'and' | 'or'): string {
  return paths.length > 1
    ? `${paths.slice(0, -1).join(', ')} ${conjunction} ${paths[paths.length - 1]}`
    : paths.join('');
}
