import { shippedPayerCatalog } from '../../infrastructure/catalogs/shipped-catalogs';
describe("A prescribed drug's benefit, which decides whether its prior authorization can go over PAS", () => {
  it('is medical for an infusion the catalog bills under a HCPCS code', () => {
    expect(shippedPayerCatalog().prescribedDrugBenefit({ drug_name: 'Remicade 100 mg vial' })).toBe(
      'medical',
    );
  });

  it('is pharmacy for a drug dispensed by a pharmacy', () => {
    expect(
      shippedPayerCatalog().prescribedDrugBenefit({ drug_name: 'Ozempic 1 mg pen', ndc: '0169-4132-12' }),
    ).toBe('pharmacy');
  });

  it('is unknown for a drug the catalog does not list', () => {
    expect(
      shippedPayerCatalog().prescribedDrugBenefit({ drug_name: 'Nonexistamab', ndc: null }),
    ).toBeUndefined();
  });
});
