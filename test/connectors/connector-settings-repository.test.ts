import { randomBytes } from 'node:crypto';

import { ConnectorError } from '../../domain/failures';
import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import {
  ConnectorSettingsInput,
  ConnectorSettingsRepository,
  MissingConnectorSecretError,
} from '../../infrastructure/connectors/connector-settings.repository';
import { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import type { Database } from '../../infrastructure/storage/database';
import { migrate } from '../../infrastructure/storage/migrations';
import { requireConnectorFor } from '../../src/connectors/connector-requirement';
import { databaseEngines } from '../support/database-engines';

const engines = databaseEngines('connector settings');

const PASSWORD = 'sealed-password-5150';

/** The kinds named by a URL, which these tests move between places. */
type UrlSettingsInput = Extract<ConnectorSettingsInput, { url: string }>;

const eligibility = (overrides: Partial<ConnectorSettingsInput> = {}): UrlSettingsInput =>
  ({
    kind: 'eligibility',
    url: 'https://clearinghouse.example/270',
    auth: { type: 'basic', username: 'clinic-0001', password: PASSWORD },
    timeoutMs: 10_000,
    format: 'json',
    submitterId: 'CLINIC0001',
    receiverId: 'CLEARINGHOUSE',
    usage: 'test',
    ...overrides,
  }) as UrlSettingsInput;

describe.each(engines)('connector settings on %s', (_engine, open) => {
  let db: Database;
  let settings: ConnectorSettingsRepository;
  let accounts: AccountsRepository;

  beforeAll(async () => {
    db = await open();
    await migrate(db);
    const secrets = new SecretBox({ currentKeyId: 'k1', keys: new Map([['k1', randomBytes(32)]]) });
    settings = new ConnectorSettingsRepository(db, secrets);
    accounts = new AccountsRepository(db);
  });
  afterAll(() => db.close());

  const newAccount = async () => (await accounts.createAccount('Connector clinic')).id;

  it('stores the secret sealed: the column holds neither the password nor any part of it', async () => {
    const accountId = await newAccount();
    await settings.put(accountId, eligibility());
    const [row] = await db.query<Record<string, unknown>>(
      'SELECT * FROM connector_settings WHERE account_id = $1',
      [accountId],
    );
    expect(row!.auth_secret_sealed).toMatch(/^k1:[A-Za-z0-9+/=]+$/);
    expect(JSON.stringify(row)).not.toContain(PASSWORD);
    expect(JSON.stringify(row)).not.toContain(Buffer.from(PASSWORD).toString('base64'));
  });

  it('reads the settings for use with the secret opened, and for people without it', async () => {
    const accountId = await newAccount();
    await settings.put(accountId, eligibility());
    expect(await settings.readForUse(accountId, 'eligibility')).toEqual({
      kind: 'eligibility',
      url: 'https://clearinghouse.example/270',
      auth: { type: 'basic', username: 'clinic-0001', password: PASSWORD },
      timeoutMs: 10_000,
      format: 'json',
      submitterId: 'CLINIC0001',
      receiverId: 'CLEARINGHOUSE',
      usage: 'test',
    });
    const view = await settings.find(accountId, 'eligibility');
    expect(view!.auth).toEqual({ type: 'basic', username: 'clinic-0001', hint: '…5150' });
    expect(JSON.stringify(await settings.list(accountId))).not.toContain(PASSWORD);
  });

  it('reads each authentication type back as it was set', async () => {
    const accountId = await newAccount();
    const endpoint = { url: 'https://hub.example/enroll', timeoutMs: 5_000 };
    await settings.put(accountId, {
      kind: 'program_enrollment',
      ...endpoint,
      auth: { type: 'header', name: 'X-Api-Key', value: 'k' },
    });
    await settings.put(accountId, { kind: 'prior_authorization', ...endpoint, auth: { type: 'none' } });
    expect(await settings.readForUse(accountId, 'program_enrollment')).toEqual({
      kind: 'program_enrollment',
      ...endpoint,
      auth: { type: 'header', name: 'X-Api-Key', value: 'k' },
    });
    expect(await settings.readForUse(accountId, 'prior_authorization')).toMatchObject({
      auth: { type: 'none' },
    });
    expect((await settings.find(accountId, 'program_enrollment'))!.auth!.hint).toBe('…');
  });

  it('keeps the stored secret only for the same authentication type, user and URL origin', async () => {
    const accountId = await newAccount();
    await settings.put(accountId, eligibility());
    const samePlace = eligibility({ auth: { type: 'basic', username: 'clinic-0001' } });
    await settings.put(accountId, { ...samePlace, url: `${new URL(samePlace.url).origin}/v2/270` });
    expect(await settings.readForUse(accountId, 'eligibility')).toMatchObject({
      auth: { password: PASSWORD },
    });
    const missing = (field: 'password' | 'token') => new MissingConnectorSecretError(field);
    await expect(
      settings.put(accountId, eligibility({ auth: { type: 'basic', username: 'renamed' } })),
    ).rejects.toEqual(missing('password'));
    await expect(
      settings.put(accountId, { ...samePlace, url: 'https://elsewhere.example/270' }),
    ).rejects.toEqual(missing('password'));
    await expect(settings.put(accountId, eligibility({ auth: { type: 'bearer' } }))).rejects.toEqual(
      missing('token'),
    );
  });

  it('answers whether a kind is configured, and requires the connector a live case type needs', async () => {
    const accountId = await newAccount();
    expect(await settings.isConfigured(accountId, 'eligibility')).toBe(false);
    await expect(requireConnectorFor(settings, accountId, 'benefit_verification')).rejects.toMatchObject({
      code: 'invalid_state',
      message: expect.stringContaining('PUT /connectors/eligibility'),
    });
    await expect(requireConnectorFor(settings, accountId, 'clinical_eligibility')).resolves.toBeUndefined();
    await settings.put(accountId, eligibility());
    expect(await settings.isConfigured(accountId, 'eligibility')).toBe(true);
    await expect(requireConnectorFor(settings, accountId, 'benefit_verification')).resolves.toBeUndefined();
    await expect(requireConnectorFor(settings, accountId, 'prior_authorization')).rejects.toMatchObject({
      code: 'invalid_state',
    });
  });

  it('deletes the settings and their secret, keeping nothing readable', async () => {
    const accountId = await newAccount();
    const { id } = await settings.put(accountId, eligibility());
    expect(await settings.delete(accountId, 'eligibility')).toBe(id);
    expect(await settings.delete(accountId, 'eligibility')).toBeUndefined();
    expect(await settings.readForUse(accountId, 'eligibility')).toBeUndefined();
    expect(await settings.list(accountId)).toEqual([]);
    const [row] = await db.query<{ auth_secret_sealed: string | null }>(
      'SELECT auth_secret_sealed FROM connector_settings WHERE account_id = $1',
      [accountId],
    );
    expect(row!.auth_secret_sealed).toBeNull();
    await expect(
      settings.put(accountId, eligibility({ auth: { type: 'basic', username: 'clinic-0001' } })),
    ).rejects.toBeInstanceOf(MissingConnectorSecretError);
  });

  it('keeps a mail server with its password sealed, reads it for the mailer, and deletes it whole', async () => {
    const accountId = await newAccount();
    const mail: ConnectorSettingsInput = {
      kind: 'mail',
      host: 'smtp.clinic.example',
      port: 465,
      security: 'tls',
      auth: { type: 'basic', username: 'clinic-mailer', password: PASSWORD },
      from: 'prior-auth@clinic.example',
      timeoutMs: 10_000,
      trustedCa: '-----BEGIN CERTIFICATE-----\n…\n-----END CERTIFICATE-----',
    };
    const { id } = await settings.put(accountId, mail);
    expect(await settings.readMailForUse(accountId)).toEqual(mail);
    const [row] = await db.query<Record<string, unknown>>(
      'SELECT * FROM connector_settings WHERE account_id = $1',
      [accountId],
    );
    expect(row).toMatchObject({
      url: 'smtps://smtp.clinic.example:465',
      mail_from: 'prior-auth@clinic.example',
    });
    expect(JSON.stringify(row)).not.toContain(PASSWORD);

    expect(await settings.delete(accountId, 'mail')).toBe(id);
    expect(await settings.readMailForUse(accountId)).toBeUndefined();
    const [deleted] = await db.query<Record<string, unknown>>(
      'SELECT mail_from, tls_ca, auth_secret_sealed FROM connector_settings WHERE account_id = $1',
      [accountId],
    );
    expect(deleted).toEqual({ mail_from: null, tls_ca: null, auth_secret_sealed: null });
  });

  it('hands out interchange control numbers from 1, one at a time, even to concurrent callers', async () => {
    const accountId = await newAccount();
    await settings.put(accountId, eligibility());
    expect(await settings.nextControlNumber(accountId)).toBe(1);
    const numbers = await Promise.all(
      Array.from({ length: 20 }, () => settings.nextControlNumber(accountId)),
    );
    expect([...numbers].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, index) => index + 2));
  });

  it('starts again at 1 after 999999999', async () => {
    const accountId = await newAccount();
    await settings.put(accountId, eligibility());
    await db.query('UPDATE connector_settings SET control_number = 999999998 WHERE account_id = $1', [
      accountId,
    ]);
    expect(await settings.nextControlNumber(accountId)).toBe(999_999_999);
    expect(await settings.nextControlNumber(accountId)).toBe(1);
  });

  it('goes on from the last control number when a deleted connector is configured again', async () => {
    const accountId = await newAccount();
    await settings.put(accountId, eligibility());
    await settings.nextControlNumber(accountId);
    await settings.nextControlNumber(accountId);
    await settings.delete(accountId, 'eligibility');
    await expect(settings.nextControlNumber(accountId)).rejects.toBeInstanceOf(ConnectorError);
    await settings.put(accountId, eligibility());
    expect(await settings.nextControlNumber(accountId)).toBe(3);
  });

  it("counts each account's control numbers apart", async () => {
    const [first, second] = [await newAccount(), await newAccount()];
    await settings.put(first, eligibility());
    await settings.put(second, eligibility());
    await settings.nextControlNumber(first);
    expect(await settings.nextControlNumber(second)).toBe(1);
  });
});
