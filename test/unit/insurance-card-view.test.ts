import { CARD_FIELDS } from '../../domain/payers/card-fields';
import type { CardField } from '../../domain/payers/card-fields';
import type { ScannedCard } from '../../domain/payers/insurance-card';
import { insuranceCardView, withCardFilledGaps } from '../../domain/payers/insurance-card-view';

function cardWith(values: Partial<Record<CardField, string>>): ScannedCard {
  return Object.fromEntries(
    CARD_FIELDS.map((field) => [
      field,
      values[field] ? { value: values[field], confidence: 0.9, words: [], page: 1 } : null,
    ]),
  ) as ScannedCard;
}

describe('what a case shows of a card beside its discrete insurance', () => {
  it('lists every card field not read as unread, and shows none of them as a value', () => {
    const view = insuranceCardView(undefined, cardWith({ member_id: 'W123456789' }));

    expect(Object.keys(view.scanned)).toEqual(['member_id']);
    expect(view.unread).toContain('rx_bin');
    expect(view.unread).not.toContain('member_id');
  });

  it('takes the Medicare beneficiary id as the member id of a Medicare card', () => {
    const view = insuranceCardView(undefined, cardWith({ medicare_beneficiary_id: '1EG4TE5MK73' }));

    expect(view.used.member_id).toEqual({ value: '1EG4TE5MK73', source: 'card' });
  });

  it('sees no conflict where values differ only in case, spaces or dashes', () => {
    const view = insuranceCardView(
      { payer: 'Blue Horizon Health', member_id: 'w123-456-789' },
      cardWith({ payer_name: 'BLUE HORIZON HEALTH', member_id: 'W123456789' }),
    );

    expect(view.conflicts).toEqual([]);
  });

  it('uses the discrete value where both differ, and lists the conflict with both', () => {
    const view = insuranceCardView(
      { payer: 'Blue Horizon Health', member_id: 'W111111111', group_number: '0100' },
      cardWith({ member_id: 'W123456789', group_number: '0200' }),
    );

    expect(view.used.group_number).toEqual({ value: '0100', source: 'discrete' });
    expect(view.conflicts).toEqual([
      { field: 'member_id', discrete: 'W111111111', card: 'W123456789' },
      { field: 'group_number', discrete: '0100', card: '0200' },
    ]);
  });

  it("never fills the discrete data's gaps from another member's card, only lists the conflict", () => {
    const view = insuranceCardView(
      { payer: 'Blue Horizon Health', member_id: 'W111111111' },
      cardWith({ member_id: 'W123456789', rx_bin: '999901' }),
    );

    expect(view.used.rx_bin).toBeUndefined();
    expect(view.conflicts.map((conflict) => conflict.field)).toEqual(['member_id']);
  });

  it('fills only the gaps of the discrete data from the card', () => {
    const filled = withCardFilledGaps(
      { payer: 'Blue Horizon Health', member_id: 'W111111111', rx_bin: '610014' },
      cardWith({ member_id: 'W123456789', rx_bin: '999901', rx_pcn: 'SBXBHHPPO' }),
    );

    expect(filled).toEqual({
      payer: 'Blue Horizon Health',
      member_id: 'W111111111',
      rx_bin: '610014',
      rx_pcn: 'SBXBHHPPO',
    });
  });
});
