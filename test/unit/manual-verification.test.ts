import {
  manualDrugCoverage,
  manualVerificationIssues,
  manualVerificationNotes,
} from '../../domain/cases/benefit-verification';

const requested = [
  { name: 'Ozempic 1 mg pen', quantity: 1 },
  { ndc: '0074-0554-02', quantity: 2 },
];

describe('a manual verification’s per-drug results', () => {
  it('match a requested drug by name whatever its case and spacing, or by NDC in any hyphenation', () => {
    const input = {
      status: 'completed' as const,
      drugs: [
        {
          drug: 'OZEMPIC  1-MG pen',
          coverage: 'covered' as const,
          prior_authorization_required: 'no' as const,
        },
        {
          drug: '00074055402',
          coverage: 'not_covered' as const,
          prior_authorization_required: 'not_applicable' as const,
        },
      ],
    };
    expect(manualVerificationIssues(requested, input)).toEqual([]);
    expect(
      manualDrugCoverage(requested, input).map((drug) => [drug.drug, drug.coverage_detail_code]),
    ).toEqual([
      ['Ozempic 1 mg pen', 'covered'],
      ['0074-0554-02', 'not_covered'],
    ]);
  });

  it('say why a drug is unknown: not determined by the reviewer, or not recorded at all', () => {
    const coverage = manualDrugCoverage(requested, {
      status: 'completed',
      drugs: [
        { drug: 'Ozempic 1 mg pen', coverage: 'unknown', prior_authorization_required: 'not_applicable' },
      ],
    });
    expect(coverage.map((drug) => [drug.coverage_detail_code, drug.unknown_reason])).toEqual([
      ['not_determined', 'The manual verification could not determine coverage.'],
      ['not_recorded', 'Not recorded by the manual verification.'],
    ]);
  });

  it('join each drug’s notes to the verification’s, labelled with the drug as requested', () => {
    const notes = manualVerificationNotes(requested, {
      status: 'completed',
      notes: 'Called the plan.',
      drugs: [
        {
          drug: '0074-0554-02',
          coverage: 'covered',
          prior_authorization_required: 'yes',
          notes: 'Specialty pharmacy only.',
        },
      ],
    });
    expect(notes).toBe('Called the plan.\n0074-0554-02: Specialty pharmacy only.');
    expect(manualVerificationNotes(requested, { status: 'completed' })).toBeNull();
  });
});
