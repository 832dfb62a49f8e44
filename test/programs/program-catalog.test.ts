import type { PlanType } from '../../domain/cases/case-model';
import { hasIdPrefix } from '../../domain/ids';
import { PROGRAM_TYPES } from '../../domain/programs/program-catalog';
import { CONFIRMATION_KIND_OF_PROGRAM_TYPE } from '../../domain/programs/program-model';
import type { SupportProgram } from '../../domain/programs/program-model';
import { PATIENT_AUTHORIZATION_TYPES } from '../../domain/programs/patient-authorization';
import { shippedSupportPrograms } from '../../infrastructure/catalogs/shipped-catalogs';

const PLAN_TYPES: PlanType[] = [
  'commercial',
  'medicare',
  'medicare_advantage',
  'medicaid',
  'tricare',
  'other',
];
const GOVERNMENT_PLAN_TYPES: PlanType[] = ['medicare', 'medicare_advantage', 'medicaid', 'tricare'];

const allPrograms = shippedSupportPrograms().list();

function names(programs: SupportProgram[]): string[] {
  return programs.map((program) => program.name);
}

function programsOfType(type: SupportProgram['type']): SupportProgram[] {
  return allPrograms.filter((program) => program.type === type);
}

describe('the shipped program catalog', () => {
  it('has at least 15 programs for at least 8 drugs', () => {
    const isBrandName = (drug: string) => /^[A-Z]/.test(drug);
    const brands = new Set(allPrograms.flatMap((program) => program.drugs.filter(isBrandName)));
    expect(allPrograms.length).toBeGreaterThanOrEqual(15);
    expect(brands.size).toBeGreaterThanOrEqual(8);
  });

  it('has programs of every type', () => {
    expect(new Set(allPrograms.map((program) => program.type))).toEqual(new Set(PROGRAM_TYPES));
  });

  it('gives every program a unique support program id', () => {
    const ids = allPrograms.map((program) => program.id);
    expect(ids.filter((id) => !hasIdPrefix('supportProgram', id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('describes every program completely', () => {
    for (const program of allPrograms) {
      expect(program).toEqual(
        expect.objectContaining({
          object: 'support_program',
          name: expect.stringMatching(/\S/),
          manufacturer: expect.stringMatching(/\S/),
          description: expect.stringMatching(/\S/),
          benefits: expect.stringMatching(/\S/),
        }),
      );
      expect(program.drugs.length).toBeGreaterThan(0);
    }
  });

  it('uses only known plan types and two-letter country codes in its rules', () => {
    for (const { eligibility } of allPrograms) {
      const planTypes = [
        ...(eligibility.insurance_types_excluded ?? []),
        ...(eligibility.insurance_types_required ?? []),
      ];
      expect(planTypes.filter((planType) => !PLAN_TYPES.includes(planType))).toEqual([]);
      expect((eligibility.residency_countries ?? []).filter((code) => !/^[A-Z]{2}$/.test(code))).toEqual([]);
    }
  });

  it('keeps copay cards, bridge and quick-start supplies to commercially insured patients', () => {
    const commercialPrograms = [
      ...programsOfType('copay_card'),
      ...programsOfType('bridge_supply'),
      ...programsOfType('quick_start'),
    ];
    for (const { eligibility } of commercialPrograms) {
      expect(eligibility.insurance_types_required).toEqual(['commercial']);
      expect(eligibility.insurance_types_excluded).toEqual(expect.arrayContaining(GOVERNMENT_PLAN_TYPES));
    }
  });

  it('gives every program the confirmation terms of its type', () => {
    const mismatched = allPrograms.filter(
      (program) => program.confirmation?.kind !== CONFIRMATION_KIND_OF_PROGRAM_TYPE[program.type],
    );
    expect(names(mismatched)).toEqual([]);
  });

  it('gives copay cards sandbox identifiers, and other programs no card identifiers', () => {
    for (const { confirmation } of programsOfType('copay_card')) {
      expect(confirmation).toMatchObject({
        bin: expect.stringMatching(/^9999\d{2}$/),
        pcn: expect.stringMatching(/^SBX/),
        group: expect.stringMatching(/^SBX/),
      });
    }
    const others = allPrograms.filter((program) => program.type !== 'copay_card');
    expect(others.filter(({ confirmation }) => 'bin' in confirmation || 'pcn' in confirmation)).toEqual([]);
  });

  it('states for every program which patient authorization it requires, if any', () => {
    const stated = new Set(allPrograms.map((program) => program.patient_authorization_required));
    expect(
      [...stated].filter((type) => type !== null && !PATIENT_AUTHORIZATION_TYPES.includes(type)),
    ).toEqual([]);
  });

  it("requires the patient's HIPAA authorization for every program whose hub receives their health information to ship drug", () => {
    const shippingPrograms = [
      ...programsOfType('patient_assistance'),
      ...programsOfType('bridge_supply'),
      ...programsOfType('quick_start'),
    ];
    expect(
      shippingPrograms.filter((program) => program.patient_authorization_required !== 'hipaa_authorization'),
    ).toEqual([]);
  });

  it('re-verifies patient assistance before the enrollment year ends', () => {
    for (const { confirmation } of programsOfType('patient_assistance')) {
      expect(confirmation).toMatchObject({ valid_months: 12, reverify_days_before_end: expect.any(Number) });
    }
  });

  it('keeps patient assistance to patients without commercial insurance and below an income limit', () => {
    for (const { eligibility } of programsOfType('patient_assistance')) {
      expect(eligibility.max_income_percent_fpl).toEqual(expect.any(Number));
      const forUninsuredOnly = eligibility.requires_insurance === false;
      const refusesCommercial = eligibility.insurance_types_excluded?.includes('commercial') ?? false;
      expect(forUninsuredOnly || refusesCommercial).toBe(true);
    }
  });
});

describe('listing programs', () => {
  it('returns the whole catalog without filters', () => {
    expect(shippedSupportPrograms().list({})).toHaveLength(allPrograms.length);
  });

  it('ignores blank filters', () => {
    expect(shippedSupportPrograms().list({ drug_name: ' ', manufacturer: '' })).toHaveLength(
      allPrograms.length,
    );
  });

  it('finds programs for a drug written with its strength, in any case', () => {
    expect(names(shippedSupportPrograms().list({ drug_name: 'ozempic 1 MG' }))).toEqual([
      'Ozempic Savings Card',
      'NovoCare Patient Assistance Program',
    ]);
  });

  it('finds programs for a generic name the programs list', () => {
    expect(names(shippedSupportPrograms().list({ drug_name: 'dupilumab 300 mg/2 mL' }))).toEqual([
      'Dupixent MyWay Copay Card',
      'Dupixent MyWay Quick Start Program',
      'Dupixent MyWay Patient Assistance Program',
    ]);
  });

  it('finds nothing for a drug no program lists', () => {
    expect(shippedSupportPrograms().list({ drug_name: 'Jardiance' })).toEqual([]);
  });

  it('matches part of the manufacturer name, ignoring case and punctuation', () => {
    const pfizer = shippedSupportPrograms().list({ manufacturer: 'PFIZER' });
    expect(names(pfizer)).toEqual(['Eliquis Co-pay Card', 'Eliquis 360 Support']);
    expect(shippedSupportPrograms().list({ manufacturer: 'bristol-myers' })).toEqual(pfizer);
  });

  it('returns only programs of the requested type', () => {
    const bridges = shippedSupportPrograms().list({ type: 'bridge_supply' });
    expect(bridges.length).toBeGreaterThan(0);
    expect(bridges.every((program) => program.type === 'bridge_supply')).toBe(true);
  });

  it('requires every given filter to match', () => {
    expect(
      names(
        shippedSupportPrograms().list({
          drug_name: 'Humira',
          manufacturer: 'abbvie',
          type: 'patient_assistance',
        }),
      ),
    ).toEqual(['myAbbVie Assist']);
    expect(shippedSupportPrograms().list({ drug_name: 'Humira', manufacturer: 'Amgen' })).toEqual([]);
  });

  it('lists the programs for a drug written with its strength and device', () => {
    expect(shippedSupportPrograms().list({ drug_name: 'Repatha 140 mg/mL SureClick' })).toEqual(
      shippedSupportPrograms().list({ drug_name: 'Repatha' }),
    );
    expect(names(shippedSupportPrograms().list({ drug_name: 'Repatha' }))).toEqual([
      'Repatha Ready Co-Pay Card',
      'Repatha Ready Bridge Program',
      'Amgen Safety Net Foundation',
    ]);
  });
});

describe('finding a program', () => {
  it('returns the program with the id', () => {
    expect(shippedSupportPrograms().find('prog_01jnmzexzmv0rb4xy0ry2j0x0k')?.name).toBe(
      'Humira Complete Savings Card',
    );
  });

  it('returns nothing for an unknown id', () => {
    expect(shippedSupportPrograms().find('prog_00000000000000000000000000')).toBeUndefined();
  });
});
