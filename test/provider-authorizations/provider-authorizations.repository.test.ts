import { newId } from '../../domain/ids';
import type { ProviderAuthorization } from '../../domain/providers/provider-authorization';
import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import { ProviderAuthorizationsRepository } from '../../infrastructure/provider-authorizations/provider-authorizations.repository';
import type { Database } from '../../infrastructure/storage/database';
import { migrate } from '../../infrastructure/storage/migrations';
import { databaseEngines } from '../support/database-engines';

const engines = databaseEngines('provider authorizations');

describe.each(engines)('provider authorizations on %s', (_engine, open) => {
  let db: Database;

  beforeAll(async () => {
    db = await open();
    await migrate(db);
  });
  afterAll(() => db.close());

  it('stores a new authorization as pending and unchanged since its creation, whatever the object says', async () => {
    const { id: accountId } = await new AccountsRepository(db).createAccount('Pending clinic');
    const scope = { accountId, livemode: false };
    const created = new Date('2026-11-29T10:00:00.000Z');
    const later = new Date('2026-11-29T11:00:00.000Z').toISOString();
    const claimingMore: ProviderAuthorization = {
      id: newId('providerAuthorization', created.getTime()),
      object: 'provider_authorization',
      npi: '1234567893',
      first_name: 'Elodie',
      last_name: 'Pendingsworth',
      email: 'e@clinic.example',
      phone: null,
      practice: null,
      status: 'signed',
      link_expires_at: new Date('2026-12-13T10:00:00.000Z').toISOString(),
      signed_at: later,
      expires_at: new Date('2027-11-29T11:00:00.000Z').toISOString(),
      revoked_at: later,
      created_at: created.toISOString(),
      updated_at: later,
    };
    const authorizations = new ProviderAuthorizationsRepository(db);

    const inserted = await authorizations.insertPending(
      scope,
      claimingMore,
      { periodDays: 365, renewableFrom: created },
      null,
    );

    expect(inserted).toEqual({ created: true });
    expect(await authorizations.find(scope, claimingMore.id)).toEqual({
      ...claimingMore,
      status: 'pending',
      signed_at: null,
      expires_at: null,
      revoked_at: null,
      updated_at: claimingMore.created_at,
    });
  });
});
