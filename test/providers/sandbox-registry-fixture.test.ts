import Ajv2020 from 'ajv/dist/2020';

import { registryNameMatches } from '../../domain/providers/name-match';
import { RegistryUnavailableError } from '../../domain/providers/npi-registry';
import { registryProviderOf } from '../../infrastructure/providers/nppes-answer';
import {
  SANDBOX_NPIS,
  SANDBOX_REGISTRY_DOWN_LAST_NAME,
  SandboxRegistry,
  sandboxRegistryRecords,
} from '../../infrastructure/providers/sandbox-registry';
import fixture from '../../infrastructure/providers/sandbox-registry.json';

/**
 * The NPPES NPI Registry API's answer (version 2.1; CMS documents it at
 * https://npiregistry.cms.hhs.gov/api-page): `result_count` and `results[]`, each record with
 * `number`, `enumeration_type` NPI-1 or NPI-2, `basic`, `addresses[]` (`address_purpose` LOCATION or
 * MAILING), `taxonomies[]` (`code`, `desc`, `primary`) and `other_names[]`; a query it refuses is
 * answered with HTTP 200 and `{"Errors":[{"description", "field", "number"}]}`.
 * Provenance: written by hand in November 2026 from answers the API gave as public clients quote them
 * (a whole NPI-1 record in the README of the Go wrapper alexanderkarlis/npi; the `Errors` answer to a
 * one-letter wildcard, with HTTP 200, in public notes on the API), not generated from our fixture.
 * The registry adds fields over time, so objects stay open; only what the service reads is required.
 */
const NPPES_ANSWER_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  oneOf: [
    {
      type: 'object',
      required: ['result_count', 'results'],
      properties: {
        result_count: { type: 'integer', minimum: 0 },
        results: { type: 'array', items: { $ref: '#/$defs/record' } },
      },
    },
    {
      type: 'object',
      required: ['Errors'],
      properties: {
        Errors: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            required: ['description'],
            properties: {
              description: { type: 'string' },
              field: { type: 'string' },
              number: { type: 'string' },
            },
          },
        },
      },
    },
  ],
  $defs: {
    text: { type: 'string' },
    record: {
      type: 'object',
      required: ['number', 'enumeration_type', 'basic', 'addresses', 'taxonomies'],
      properties: {
        number: { type: ['string', 'integer'], pattern: '^[0-9]{10}$' },
        enumeration_type: { enum: ['NPI-1', 'NPI-2'] },
        created_epoch: { type: ['string', 'integer'] },
        last_updated_epoch: { type: ['string', 'integer'] },
        basic: {
          type: 'object',
          required: ['status'],
          properties: {
            first_name: { $ref: '#/$defs/text' },
            last_name: { $ref: '#/$defs/text' },
            middle_name: { $ref: '#/$defs/text' },
            credential: { $ref: '#/$defs/text' },
            organization_name: { $ref: '#/$defs/text' },
            sole_proprietor: { enum: ['YES', 'NO', 'X'] },
            gender: { enum: ['M', 'F', 'U'] },
            enumeration_date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
            last_updated: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
            deactivation_date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
            status: { enum: ['A', 'D'] },
          },
        },
        addresses: {
          type: 'array',
          items: {
            type: 'object',
            required: ['address_purpose', 'address_1', 'city', 'state', 'postal_code'],
            properties: {
              address_purpose: { enum: ['LOCATION', 'MAILING'] },
              address_type: { enum: ['DOM', 'FGN'] },
              address_1: { $ref: '#/$defs/text' },
              address_2: { $ref: '#/$defs/text' },
              city: { $ref: '#/$defs/text' },
              state: { type: 'string', pattern: '^[A-Z]{2}$' },
              postal_code: { type: 'string', pattern: '^[0-9]{5}([0-9]{4})?$' },
              country_code: { type: 'string' },
              telephone_number: { type: 'string' },
            },
          },
        },
        taxonomies: {
          type: 'array',
          items: {
            type: 'object',
            required: ['code', 'desc', 'primary'],
            properties: {
              code: { type: 'string', pattern: '^[0-9A-Z]{9}X$' },
              desc: { $ref: '#/$defs/text' },
              primary: { type: 'boolean' },
              state: { type: 'string' },
              license: { type: 'string' },
            },
          },
        },
        other_names: {
          type: 'array',
          items: {
            type: 'object',
            properties: { type: { type: 'string' }, code: { type: 'string' } },
          },
        },
      },
      allOf: [
        {
          if: { properties: { enumeration_type: { const: 'NPI-1' } } },
          then: { properties: { basic: { required: ['first_name', 'last_name'] } } },
          else: { properties: { basic: { required: ['organization_name'] } } },
        },
      ],
    },
  },
};

/** CMS's check digit: Luhn over 80840 and the NPI, as the API's validator (`IsNpi`) computes it. */
function passesNpiCheck(npi: string): boolean {
  const digits = `80840${npi}`;
  let sum = 0;
  for (let fromRight = 0; fromRight < digits.length; fromRight++) {
    let digit = Number(digits[digits.length - 1 - fromRight]);
    if (fromRight % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

describe('the sandbox registry', () => {
  const registry = new SandboxRegistry();

  it("holds its fixture in the NPPES API's documented answer shape", () => {
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(NPPES_ANSWER_SCHEMA);
    expect(validate(fixture) ? [] : validate.errors).toEqual([]);
    expect(fixture.result_count).toBe(fixture.results.length);
  });

  it('knows the schema would catch a record out of shape', () => {
    const validate = new Ajv2020({ strict: false }).compile(NPPES_ANSWER_SCHEMA);
    const [first] = fixture.results;
    expect(validate({ result_count: 1, results: [{ ...first, enumeration_type: 'individual' }] })).toBe(
      false,
    );
    expect(validate({ result_count: 1, results: [{ ...first, taxonomies: [{ code: '207Q00000X' }] }] })).toBe(
      false,
    );
  });

  it('gives every provider an NPI with a valid check digit, once', () => {
    const npis = sandboxRegistryRecords().map((record) => String(record.number));
    expect(npis.filter((npi) => !passesNpiCheck(npi))).toEqual([]);
    expect(new Set(npis).size).toBe(npis.length);
    expect(Object.values(SANDBOX_NPIS).filter((npi) => !passesNpiCheck(npi))).toEqual([]);
  });

  it('answers each case worth testing', async () => {
    expect(await registry.byNpi(SANDBOX_NPIS.active)).toMatchObject({ type: 'individual', active: true });
    expect(await registry.byNpi(SANDBOX_NPIS.notReturned)).toBeUndefined();
    expect(await registry.byNpi(SANDBOX_NPIS.organization)).toMatchObject({
      type: 'organization',
      active: true,
    });
    expect(await registry.byNpi(SANDBOX_NPIS.deactivated)).toMatchObject({
      type: 'individual',
      active: false,
    });
    const mismatch = await registry.byNpi(SANDBOX_NPIS.nameMismatch);
    expect(mismatch && registryNameMatches(mismatch, 'Demo', 'Prescriber')).toBe(false);
    expect(mismatch && registryNameMatches(mismatch, 'Morgan', 'Elsewhere')).toBe(true);
    await expect(registry.byNpi(SANDBOX_NPIS.registryDown)).rejects.toBeInstanceOf(RegistryUnavailableError);
    await expect(registry.byName(SANDBOX_REGISTRY_DOWN_LAST_NAME.toLowerCase(), 'OR')).rejects.toBeInstanceOf(
      RegistryUnavailableError,
    );
  });

  it('knows the prescriber of the README, the examples, the bench and the tests by each name they give', async () => {
    const record = await registry.byNpi('1234567893');
    const named = [
      ['Demo', 'Prescriber'], // README.md, the first journey
      ['Amadou', 'Reviewsworth'], // test/support/case-requests.ts, scripts/conformance-seed.js, the API examples
      ['Bench', 'Provider'], // bench/bench-requests.ts
      ['Sam', 'Ray'], // test/dtr
    ];
    for (const [first, last] of named)
      expect(record && registryNameMatches(record, first!, last!)).toBe(true);
  });

  it('maps its records with the mapper live mode uses', async () => {
    const [first] = sandboxRegistryRecords();
    expect(await registry.byNpi(String(first!.number))).toEqual(registryProviderOf(first!));
  });

  it('searches individuals by last name in a state, in any case', async () => {
    const found = await registry.byName('quintero', 'or');
    expect(found.map((record) => record.npi)).toEqual(['1000000053', '1000000061']);
    expect(await registry.byName('Quintero', 'WA')).toHaveLength(1);
    expect(await registry.byName('Sandbox Riverside Family Practice', 'OR')).toEqual([]);
  });
});
