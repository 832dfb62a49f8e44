import { normalizeIcd10Code } from '../../domain/clinical/icd10';
import { shippedIcd10Subset } from '../../infrastructure/catalogs/shipped-catalogs';

describe('the ICD-10-CM subset', () => {
  it('holds at least 40 codes, each once and in ICD-10-CM shape', () => {
    const codes = shippedIcd10Subset().data.codes.map((code) => code.code);
    expect(codes.length).toBeGreaterThanOrEqual(40);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[A-Z]\d[0-9A-Z](?:\.[0-9A-Z]{1,4})?$/);
  });

  it('has at least one code in every family it lists', () => {
    const { families, codes } = shippedIcd10Subset().data;
    for (const family of families) {
      expect(codes.some((code) => code.code.startsWith(family.prefix))).toBe(true);
    }
  });

  it('describes a listed code with its official description', () => {
    expect(shippedIcd10Subset().describe('E11.9')).toBe('Type 2 diabetes mellitus without complications');
  });

  it('describes a family prefix with the family description', () => {
    expect(shippedIcd10Subset().describe('J45.5')).toBe('Severe persistent asthma');
  });

  it('describes nothing for a code outside the subset', () => {
    expect(shippedIcd10Subset().describe('S72.001A')).toBeNull();
  });
});

describe('normalizing a code', () => {
  it.each([
    ['e119', 'E11.9'],
    [' j45.50 ', 'J45.50'],
    ['I10', 'I10'],
    ['m06.9', 'M06.9'],
  ])('writes %p as %p', (input, expected) => {
    expect(normalizeIcd10Code(input)).toBe(expected);
  });
});

describe('resolving a submitted diagnosis', () => {
  it('uses the code when both code and description are given', () => {
    expect(shippedIcd10Subset().resolve({ code: 'E11.9', description: 'Type 2 diabetes' })).toEqual({
      input: { code: 'E11.9', description: 'Type 2 diabetes' },
      code: 'E11.9',
      description: 'Type 2 diabetes mellitus without complications',
      resolved_by: 'code',
    });
  });

  it('keeps the code even when the description names another condition', () => {
    const resolved = shippedIcd10Subset().resolve({ code: 'I10', description: 'rheumatoid arthritis' });
    expect(resolved.code).toBe('I10');
    expect(resolved.resolved_by).toBe('code');
    expect(resolved.description).toBe('Essential (primary) hypertension');
  });

  it('normalizes a code written in lower case without its dot', () => {
    expect(shippedIcd10Subset().resolve({ code: 'l400' }).code).toBe('L40.0');
  });

  it('keeps the submitted description for a code the subset does not list', () => {
    expect(shippedIcd10Subset().resolve({ code: 'F32.9', description: 'Depression' })).toMatchObject({
      code: 'F32.9',
      description: 'Depression',
      resolved_by: 'code',
    });
  });

  it.each([
    ['type 2 diabetes', 'E11.9'],
    ['T2DM', 'E11.9'],
    ['adult-onset diabetes', 'E11.9'],
    ['rheumatoid arthritis', 'M06.9'],
    ['plaque psoriasis', 'L40.0'],
    ['moderate persistent asthma', 'J45.40'],
    ['severe persistent asthma', 'J45.50'],
    ['atopic dermatitis', 'L20.9'],
    ['eczema', 'L20.9'],
    ['obesity', 'E66.9'],
    ['hypertension', 'I10'],
    ['hyperlipidemia', 'E78.5'],
    ['familial hypercholesterolemia', 'E78.01'],
    ['coronary artery disease', 'I25.10'],
    ["Crohn's disease", 'K50.90'],
    ['ulcerative colitis', 'K51.90'],
    ['chronic spontaneous urticaria', 'L50.1'],
  ])('maps the description %p alone to %p', (description, code) => {
    expect(shippedIcd10Subset().resolve({ description })).toMatchObject({ code, resolved_by: 'description' });
  });

  it('maps a description regardless of case and punctuation', () => {
    expect(shippedIcd10Subset().resolve({ description: "CROHN'S  DISEASE." }).code).toBe('K50.90');
    expect(shippedIcd10Subset().resolve({ description: 'Type-2 diabetes' }).code).toBe('E11.9');
  });

  it('prefers the most specific synonym the description contains', () => {
    expect(shippedIcd10Subset().resolve({ description: 'Severe persistent asthma, eosinophilic' }).code).toBe(
      'J45.50',
    );
    expect(
      shippedIcd10Subset().resolve({ description: 'Type 2 diabetes mellitus with hyperglycemia' }).code,
    ).toBe('E11.65');
  });

  it('does not read type 1 diabetes as type 2', () => {
    expect(shippedIcd10Subset().resolve({ description: 'type 1 diabetes' }).code).toBe('E10.9');
  });

  it('reports the official description of the code a description mapped to', () => {
    expect(shippedIcd10Subset().resolve({ description: 'high blood pressure' }).description).toBe(
      'Essential (primary) hypertension',
    );
  });

  it('leaves a description that matches no code unresolved', () => {
    expect(shippedIcd10Subset().resolve({ description: 'feels tired lately' })).toEqual({
      input: { description: 'feels tired lately' },
      code: null,
      description: 'feels tired lately',
      resolved_by: 'unresolved',
    });
  });

  it('leaves a diagnosis with neither code nor description unresolved', () => {
    expect(shippedIcd10Subset().resolve({})).toMatchObject({
      code: null,
      description: null,
      resolved_by: 'unresolved',
    });
  });
});
