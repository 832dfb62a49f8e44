import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import { AuditRepository } from '../../infrastructure/audit/audit.repository';
import { selfSignedCertificate } from '../support/loopback-smtp';
import { placeMigratedDatabase } from '../support/migrated-database';
import { runCommandBeside, serveDataFolder, ServedDataFolder } from '../support/served-data-folder';

const TOKEN = 'cli-bearer-token-0123456789-wxyz';
/** A self-signed certificate, as a private relay's CA would be given: only its shape matters here. */
const RELAY_CERTIFICATE = selfSignedCertificate().cert;

describe('connector settings through the admin CLI', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haa-connectors-cli-'));
  const env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '', CONNECTOR_SECRET: '' };
  const admin = (args: string[], options: { secret?: string; stdin?: string } = {}) =>
    runCommandBeside(
      'admin/cli.js',
      args,
      { ...env, CONNECTOR_SECRET: options.secret ?? '' },
      { input: options.stdin },
    );
  // Beside the local service, as operators mostly run it: each command connects to the database it
  // serves instead of opening the data folder's PGlite itself.
  let served: ServedDataFolder;
  let accountId: string;
  beforeAll(async () => {
    await placeMigratedDatabase(dataDir);
    served = await serveDataFolder(dataDir);
    accountId = (await new AccountsRepository(served.db).createAccount('CLI connector clinic')).id;
  });
  afterAll(async () => {
    await served.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const setEligibility = (extra: string[] = [], options: { secret?: string; stdin?: string } = {}) =>
    admin(
      [
        'connectors:set',
        '--account',
        accountId,
        '--kind',
        'eligibility',
        '--url',
        'http://127.0.0.1:9/270',
        '--auth',
        'bearer',
        '--submitter-id',
        'CLINIC0001',
        '--receiver-id',
        'CLEARINGHOUSE',
        ...extra,
      ],
      options,
    );

  it('sets a connector with the secret from CONNECTOR_SECRET and prints only its hint', async () => {
    const result = await setEligibility(['--timeout-ms', '15000'], { secret: TOKEN });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      object: 'connector',
      kind: 'eligibility',
      auth: { type: 'bearer', hint: '…wxyz' },
      timeout_ms: 15000,
      format: 'x12',
      usage: 'production',
    });
    expect(result.stdout + result.stderr).not.toContain(TOKEN);
  });

  it('reads the secret from stdin when it is piped, and lists the connectors without it', async () => {
    const piped = 'piped-token-abcdefghijk-9876';
    expect((await setEligibility(['--usage', 'test'], { stdin: `${piped}\n` })).status).toBe(0);
    const listed = await admin(['connectors:list', '--account', accountId]);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({
        kind: 'eligibility',
        usage: 'test',
        auth: { type: 'bearer', hint: '…9876' },
      }),
    ]);
    expect(listed.stdout).not.toContain(piped);
  });

  it('refuses what the API refuses, naming the flags, with exit code 2', async () => {
    const result = await setEligibility(['--submitter-id', 'lower', '--timeout-ms', 'soon'], {
      secret: TOKEN,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--submitter-id: must be 1 to 15 uppercase letters');
    expect(result.stderr).toContain('--timeout-ms: must be an integer number');
  });

  it('refuses a private address by the SSRF policy', async () => {
    const result = await admin([
      'connectors:set',
      '--account',
      accountId,
      '--kind',
      'prior_authorization',
      '--url',
      'https://10.0.0.7/fhir',
      '--auth',
      'none',
    ]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      '--url: is refused by the SSRF policy: 10.0.0.7 is not a public unicast address',
    );
  });

  it('refuses an unknown kind', async () => {
    const result = await admin(['connectors:delete', '--account', accountId, '--kind', 'fax']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      '--kind takes eligibility, prior_authorization, program_enrollment, coverage_requirements, questionnaire, mail',
    );
  });

  describe('the coverage requirements connector', () => {
    const setCrd = (extra: string[] = []) =>
      admin([
        'connectors:set',
        '--account',
        accountId,
        '--kind',
        'coverage_requirements',
        '--url',
        'http://127.0.0.1:9/cds-services/order-sign-crd',
        '--client-id',
        'clinic-crd-0001',
        ...extra,
      ]);

    it('is set without credentials and answers its JWKS URL under the local address, and its key id', async () => {
      const result = await setCrd(['--timeout-ms', '2500']);
      expect(result.status).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({
        kind: 'coverage_requirements',
        client_id: 'clinic-crd-0001',
        auth: null,
        timeout_ms: 2500,
        signing: {
          jwks_url: expect.stringMatching(/^http:\/\/localhost:3000\/jwks\/jwks_/),
          kid: expect.any(String),
          previous_kid: null,
        },
      });
      expect(result.stdout).not.toContain('"d"');
    });

    it('rotates its signing key, keeping the previous key id published', async () => {
      const before = JSON.parse((await admin(['connectors:list', '--account', accountId])).stdout).find(
        (connector: { kind: string }) => connector.kind === 'coverage_requirements',
      );
      const rotated = await admin(['connectors:rotate-signing-key', '--account', accountId]);
      expect(rotated.status).toBe(0);
      expect(JSON.parse(rotated.stdout).signing).toMatchObject({
        jwks_url: before.signing.jwks_url,
        previous_kid: before.signing.kid,
      });
    });

    it('refuses credentials and a time limit past 10 seconds, naming the flags', async () => {
      const result = await setCrd(['--auth', 'bearer', '--timeout-ms', '15000']);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain('--auth: is not a known field');
      expect(result.stderr).toContain('--timeout-ms: must not be greater than 10000');
    });

    it('is removed with its keys', async () => {
      const deleted = await admin([
        'connectors:delete',
        '--account',
        accountId,
        '--kind',
        'coverage_requirements',
      ]);
      expect(JSON.parse(deleted.stdout)).toMatchObject({ kind: 'coverage_requirements', deleted: true });
      expect((await admin(['connectors:rotate-signing-key', '--account', accountId])).status).toBe(2);
    });
  });

  it('sets the DTR connector with its FHIR base and a bearer token, refusing a time limit past 10 seconds', async () => {
    const setDtr = (timeout: string) =>
      admin(
        [
          'connectors:set',
          '--account',
          accountId,
          '--kind',
          'questionnaire',
          '--url',
          'http://127.0.0.1:9/fhir',
          '--auth',
          'bearer',
          '--timeout-ms',
          timeout,
        ],
        { secret: TOKEN },
      );
    const result = await setDtr('2000');
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      kind: 'questionnaire',
      url: 'http://127.0.0.1:9/fhir',
      auth: { type: 'bearer', hint: '…wxyz' },
      timeout_ms: 2000,
    });
    expect(result.stdout).not.toContain(TOKEN);
    const refused = await setDtr('15000');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('--timeout-ms: must not be greater than 10000');
    expect(
      (await admin(['connectors:delete', '--account', accountId, '--kind', 'questionnaire'])).status,
    ).toBe(0);
  });

  it('sets the mail connector with the password from CONNECTOR_SECRET and a certificate from a file, refusing plain SMTP', async () => {
    const caFile = path.join(dataDir, 'relay-ca.pem');
    writeFileSync(caFile, RELAY_CERTIFICATE);
    const setMail = (security: string) =>
      admin(
        [
          'connectors:set',
          '--account',
          accountId,
          '--kind',
          'mail',
          '--host',
          '127.0.0.1',
          '--port',
          '2587',
          '--security',
          security,
          '--username',
          'clinic-mailer',
          '--from',
          'prior-auth@clinic.example',
          '--ca-file',
          caFile,
        ],
        { secret: TOKEN },
      );
    const result = await setMail('starttls');
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      kind: 'mail',
      url: 'smtp://127.0.0.1:2587',
      auth: { type: 'basic', username: 'clinic-mailer', hint: '…wxyz' },
      mail: { host: '127.0.0.1', port: 2587, security: 'starttls', ca_certificate: RELAY_CERTIFICATE },
    });
    expect(result.stdout + result.stderr).not.toContain(TOKEN);
    const refused = await setMail('none');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('--security: must be one of the following values: tls, starttls');
    expect((await admin(['connectors:delete', '--account', accountId, '--kind', 'mail'])).status).toBe(0);
  });

  it('deletes a connector and records the changes in the audit trail with the operator as the actor', async () => {
    const deleted = await admin(['connectors:delete', '--account', accountId, '--kind', 'eligibility']);
    expect(deleted.status).toBe(0);
    expect(JSON.parse(deleted.stdout)).toMatchObject({
      object: 'connector',
      kind: 'eligibility',
      deleted: true,
    });
    expect(JSON.parse((await admin(['connectors:list', '--account', accountId])).stdout)).toEqual([]);
    expect((await admin(['connectors:delete', '--account', accountId, '--kind', 'eligibility'])).status).toBe(
      2,
    );

    const trail = await new AuditRepository(served.db).list(accountId, { limit: 10 });
    expect(trail.data.map((event) => [event.action, event.actor.type, event.target?.object])).toEqual([
      ['connector.deleted', 'operator', 'connector'],
      ['connector.deleted', 'operator', 'connector'],
      ['connector.configured', 'operator', 'connector'],
      ['connector.deleted', 'operator', 'connector'],
      ['connector.configured', 'operator', 'connector'],
      ['connector.deleted', 'operator', 'connector'],
      ['connector.signing_key_rotated', 'operator', 'connector'],
      ['connector.configured', 'operator', 'connector'],
      ['connector.configured', 'operator', 'connector'],
      ['connector.configured', 'operator', 'connector'],
    ]);
  });
});
