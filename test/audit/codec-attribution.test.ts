import { defaultPayloadConverter } from '@temporalio/common';

import type { Role } from '../../domain/accounts/roles';
import { newId } from '../../domain/ids';
import { actorOf } from '../../src/common/actor';
import { idsNamedIn } from '../../src/audit/codec-audit';

describe('what a codec use is attributed to', () => {
  it('finds account, case, delivery and event ids anywhere in JSON payloads', () => {
    const [caseId, accountId, deliveryId, eventId] = [
      newId('priorAuthorization'),
      newId('account'),
      newId('delivery'),
      newId('event'),
    ];
    const named = idsNamedIn([
      defaultPayloadConverter.toPayload({ case: { id: caseId, status: 'processing' }, accountId }),
      defaultPayloadConverter.toPayload([{ deliveryId }, { nested: { eventId } }]),
    ]);
    expect(named).toEqual({
      accountIds: new Set([accountId]),
      caseIds: new Set([caseId]),
      deliveryIds: new Set([deliveryId]),
      eventIds: new Set([eventId]),
    });
  });

  it('ignores text that merely starts like an id, and payloads that are not JSON', () => {
    const named = idsNamedIn([
      defaultPayloadConverter.toPayload({ note: `see ${newId('priorAuthorization')}`, code: 'pa_short' }),
      defaultPayloadConverter.toPayload(new Uint8Array([1, 2, 3])),
      defaultPayloadConverter.toPayload(null),
    ]);
    expect([...Object.values(named)].every((ids) => ids.size === 0)).toBe(true);
  });

  it('reads a deeply nested payload without overflowing the stack', () => {
    const enrollmentId = newId('patientEnrollment');
    const depth = 100_000;
    const payload = {
      metadata: { encoding: Buffer.from('json/plain') },
      data: Buffer.from(`${'['.repeat(depth)}"${enrollmentId}"${']'.repeat(depth)}`),
    };
    expect(idsNamedIn([payload]).caseIds).toEqual(new Set([enrollmentId]));
  });

  it('names a key holding the platform-wide operator role an operator, and every other key an API key', () => {
    const principal = (roles: string[]) => ({
      requestId: 'req_1',
      principal: {
        accountId: newId('account'),
        roles: roles as Role[],
        credential: { type: 'api_key' as const, id: 'key_1' },
        livemode: false,
      },
    });
    expect(actorOf(principal(['operator']))).toEqual({ type: 'operator', id: 'key_1' });
    expect(actorOf(principal(['admin']))).toEqual({ type: 'api_key', id: 'key_1' });
    expect(actorOf({ requestId: 'req_2' })).toEqual({ type: 'operator', id: 'local-loopback' });
  });
});
