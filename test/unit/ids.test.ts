import { createdAtOfId, newId } from '../../domain/ids';

describe('when an id was made', () => {
  it('reads the millisecond an id was made at back from it', () => {
    const made = Date.parse('2026-11-20T09:15:00.123Z');
    expect(createdAtOfId(newId('priorAuthorization', made))?.toISOString()).toBe('2026-11-20T09:15:00.123Z');
  });

  it('answers null for a string no id of the service has the shape of', () => {
    expect(createdAtOfId('pa_123')).toBeNull();
    expect(createdAtOfId('pa_0000000000000000000000000u')).toBeNull();
    expect(createdAtOfId('not an id')).toBeNull();
  });
});
