import { authorizationPeriods } from '../../infrastructure/connectors/authorization-periods';
import { shippedPayerCatalog } from '../../infrastructure/catalogs/shipped-catalogs';

describe('approval periods by drug class', () => {
  const periods = authorizationPeriods();

  it('puts every catalog drug in exactly one class', () => {
    for (const drug of shippedPayerCatalog().drugs) {
      const classes = periods.classes.filter((entry) => entry.drugs.includes(drug.id));
      expect({ drug: drug.id, classes: classes.length }).toEqual({ drug: drug.id, classes: 1 });
    }
  });

  it('names only catalog drugs', () => {
    const known = new Set(shippedPayerCatalog().drugs.map((drug) => drug.id));
    expect(periods.classes.flatMap((entry) => entry.drugs).filter((id) => !known.has(id))).toEqual([]);
  });

  it('approves weight-management GLP-1s and biologics for 6 months first, maintenance drugs for 12', () => {
    expect(periods.initialApprovalDays('wegovy')).toBe(180);
    expect(periods.initialApprovalDays('humira')).toBe(180);
    expect(periods.initialApprovalDays('ozempic')).toBe(365);
    expect(periods.initialApprovalDays('atorvastatin')).toBe(365);
  });

  it('gives a drug outside the catalog the shorter period', () => {
    expect(periods.initialApprovalDays(undefined)).toBe(180);
  });
});
