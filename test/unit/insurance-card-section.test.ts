import type { InsuranceCardView } from '../../domain/payers/card-fields';
import { insuranceCardSection } from '../../src/console/cases/case-request-views';

const VIEW: InsuranceCardView = {
  scanned: { rx_bin: { value: '999901', confidence: 0.97, readers: 2 } },
  unread: ['member_id'],
  unread_reasons: { member_id: 'readers_disagree' },
  discrete: null,
  used: { rx_bin: { value: '999901', source: 'card' } },
  conflicts: [],
  other_cards: [],
  error: null,
};

describe("the console's insurance card", () => {
  it("shows a reviewer both readings of a field the card's readers read differently, neither used", () => {
    const { markup } = insuranceCardSection(VIEW, [
      { field: 'member_id', readings: ['ZZBHH000000001', 'ZZBHHO000000001'] },
    ]);
    expect(markup).toMatch(
      /<code>ZZBHH000000001<\/code> and <code>ZZBHHO000000001<\/code>; neither\s+is used/,
    );
  });

  it('says why each field was not read', () => {
    expect(insuranceCardSection(VIEW).markup).toMatch(/Member id \(the two readers differ\)/);
  });
});
