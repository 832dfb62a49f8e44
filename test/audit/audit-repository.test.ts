import { newId } from '../../domain/ids';
import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import type { NewAuditEvent } from '../../infrastructure/audit/audit-event';
import { AuditRepository } from '../../infrastructure/audit/audit.repository';
import type { Database } from '../../infrastructure/storage/database';
import { keysetPosition } from '../../infrastructure/storage/keyset-cursor';
import { migrate } from '../../infrastructure/storage/migrations';
import { databaseEngines } from '../support/database-engines';

const engines = databaseEngines('audit repository');

describe.each(engines)('the audit trail on %s', (_engine, open) => {
  let db: Database;
  let audit: AuditRepository;
  let accountId: string;

  beforeAll(async () => {
    db = await open();
    await migrate(db);
    audit = new AuditRepository(db);
    accountId = (await new AccountsRepository(db).createAccount('Audited clinic')).id;
  });
  afterAll(() => db.close());

  const read = (targetId: string, actorId = 'key_reader'): NewAuditEvent => ({
    accountId,
    actor: { type: 'api_key', id: actorId },
    action: 'case.read',
    target: { object: 'prior_authorization', id: targetId },
    requestId: newId('request'),
  });

  it('pages through events written in the same millisecond without repeating or losing one', async () => {
    const caseId = newId('priorAuthorization');
    await audit.record(Array.from({ length: 7 }, () => read(caseId)));
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await audit.list(accountId, {
        targetId: caseId,
        limit: 3,
        ...(cursor && { after: keysetPosition(cursor) }),
      });
      seen.push(...page.data.map((event) => event.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
  });

  it('combines filters by actor, action and time', async () => {
    const caseId = newId('priorAuthorization');
    const at = new Date('2001-02-03T04:05:06.789Z');
    await audit.record([read(caseId, 'key_one'), read(caseId, 'key_two')], at);
    const page = await audit.list(accountId, {
      targetId: caseId,
      actorId: 'key_two',
      action: 'case.read',
      from: '2001-02-03',
      to: '2001-02-04',
      limit: 10,
    });
    expect(page.data).toEqual([
      expect.objectContaining({ actor: { type: 'api_key', id: 'key_two' }, created_at: at.toISOString() }),
    ]);
    expect((await audit.list(accountId, { targetId: caseId, from: '2001-02-04', limit: 10 })).data).toEqual(
      [],
    );
  });

  it('commits every record made at once, each with its own time', async () => {
    const caseIds = Array.from({ length: 40 }, () => newId('priorAuthorization'));
    const times = caseIds.map((_, index) => new Date(Date.UTC(2002, 0, 1, 0, 0, index)));
    await Promise.all(caseIds.map((caseId, index) => audit.record([read(caseId)], times[index])));
    for (const [index, caseId] of caseIds.entries()) {
      const page = await audit.list(accountId, { targetId: caseId, limit: 10 });
      expect(page.data.map((event) => event.created_at)).toEqual([times[index]!.toISOString()]);
    }
  });

  it('fails only the record the database refuses among those made at once', async () => {
    const caseIds = Array.from({ length: 6 }, () => newId('priorAuthorization'));
    const unknownAccount = { ...read(caseIds[3]!), accountId: 'acct_does_not_exist' };
    const outcomes = await Promise.allSettled(
      caseIds.map((caseId, index) => audit.record([index === 3 ? unknownAccount : read(caseId)])),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    const recorded = await Promise.all(
      caseIds.map(
        async (caseId) => (await audit.list(accountId, { targetId: caseId, limit: 10 })).data.length,
      ),
    );
    expect(recorded).toEqual([1, 1, 1, 0, 1, 1]);
  });

  it('commits a record of thousands of events beside the records made with it', async () => {
    const manyCases = Array.from({ length: 7_000 }, () => newId('priorAuthorization'));
    const others = [newId('priorAuthorization'), newId('priorAuthorization')];
    await Promise.all([
      audit.record([read(others[0]!)]),
      audit.record(manyCases.map((caseId) => read(caseId))),
      audit.record([read(others[1]!)]),
    ]);
    const [{ recorded }] = await db.query<{ recorded: number }>(
      'SELECT count(*)::int AS recorded FROM audit_events WHERE target_id = ANY($1::text[])',
      [[...manyCases, ...others]],
    );
    expect(recorded).toBe(7_002);
  });

  it('purges only what is older than the cutoff', async () => {
    const [oldCase, newerCase] = [newId('priorAuthorization'), newId('priorAuthorization')];
    await audit.record([read(oldCase)], new Date('1999-12-31T23:59:59Z'));
    await audit.record([read(newerCase)], new Date('2000-01-01T00:00:01Z'));
    expect(await audit.purgeBefore(new Date('2000-01-01T00:00:00Z'))).toBe(1);
    expect((await audit.list(accountId, { targetId: oldCase, limit: 10 })).data).toEqual([]);
    expect((await audit.list(accountId, { targetId: newerCase, limit: 10 })).data).toHaveLength(1);
  });

  it('knows the accounts that own account ids, and ignores ids that name nothing', async () => {
    const owners = await audit.ownersOf({
      accountIds: [accountId, newId('account')],
      deliveryIds: [newId('delivery')],
      eventIds: [],
    });
    expect(owners).toEqual(new Map([[accountId, accountId]]));
  });
});
