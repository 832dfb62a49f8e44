import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { FormulariesRepository } from '../../infrastructure/formularies/formularies.repository';
import { bearer, startTestApp, TestAccount, TestApp } from '../support/test-app';

const EXAMPLE = readFileSync(path.join(__dirname, '../../docs/examples/formulary.csv'), 'utf8');
const EXAMPLE_ROWS = 7;

describe('the formularies admin API', () => {
  let testApp: TestApp;
  let account: TestAccount;

  beforeAll(async () => {
    testApp = await startTestApp();
    account = await testApp.createAccountWithLiveAdmin();
  });
  afterAll(() => testApp.close());

  const upload = (payerId: string, csv: string, key = account.keys.admin, type = 'text/csv') =>
    testApp.http().put(`/formularies/${payerId}`).set(bearer(key)).set('Content-Type', type).send(csv);
  const list = (key = account.keys.admin) => testApp.http().get('/formularies').set(bearer(key));

  it('loads a CSV formulary for a payer and lists it with its row count, time and loader', async () => {
    const response = await upload('BHH01', EXAMPLE);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      id: 'BHH01',
      object: 'formulary',
      payer_id: 'BHH01',
      rows: EXAMPLE_ROWS,
      loaded_at: expect.any(String),
      loaded_by: { type: 'api_key', id: expect.stringMatching(/^key_/) },
    });
    expect((await list()).body.data).toEqual({
      object: 'list',
      data: [response.body.data],
      has_more: false,
      next_cursor: null,
    });
  });

  it('feeds the per-drug lookup that live benefit verifications use', async () => {
    const { accountId, keys } = await testApp.createAccountWithLiveAdmin();
    await upload('BHH01', EXAMPLE, keys.admin);
    const results = await new FormulariesRepository(testApp.db).coverageFor(
      accountId,
      'BHH01',
      { groupNumber: 'GRP-20418', planName: null },
      [
        { ndc: '00169-4132-12', quantity: 1 },
        { name: 'Remicade 100 mg vial', quantity: 1 },
      ],
    );
    expect(results).toMatchObject([
      { coverage: 'covered', tier: 2, prior_authorization_required: 'no', source: 'formulary' },
      { coverage: 'covered', benefit_type: 'medical', hcpcs_code: 'J1745', coinsurance_percent: 20 },
    ]);
  });

  it('refuses a bad file with a 400 naming row and column, and keeps the formulary it had', async () => {
    const { keys } = await testApp.createAccountWithLiveAdmin();
    await upload('BHH01', EXAMPLE, keys.admin);
    const response = await upload(
      'BHH01',
      'drug_name,coverage,tier\nOzempic,covered,1\nSecretDrug,covered,tier-nine\n',
      keys.admin,
    );
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      status: 'error',
      data: null,
      error: {
        code: 'validation_error',
        details: [{ field: 'row 3, column tier', issue: 'must be a whole number from 1 to 20' }],
        request_id: expect.stringMatching(/^req_/),
      },
    });
    expect(JSON.stringify(response.body)).not.toMatch(/SecretDrug|tier-nine/);
    expect((await list(keys.admin)).body.data.data).toMatchObject([
      { payer_id: 'BHH01', rows: EXAMPLE_ROWS },
    ]);
  });

  it('refuses a body that is not text/csv with 415, and an empty one with 400', async () => {
    const json = await upload('BHH01', JSON.stringify({ rows: [] }), account.keys.admin, 'application/json');
    expect(json.status).toBe(415);
    expect(json.body.error.code).toBe('unsupported_media_type');
    const empty = await testApp.http().put('/formularies/BHH01').set(bearer(account.keys.admin));
    expect(empty.status).toBe(400);
    expect(empty.body.error.details).toEqual([
      { field: 'row 1', issue: 'the file is empty: it needs a header row and one row per drug' },
    ]);
  });

  it('answers a CSV sent with a method the path does not take with 405', async () => {
    const response = await testApp
      .http()
      .post('/formularies/BHH01')
      .set(bearer(account.keys.admin))
      .set('Content-Type', 'text/csv')
      .send(EXAMPLE);
    expect(response.status).toBe(405);
  });

  it('refuses a payer id that no clearinghouse uses', async () => {
    const response = await upload('BHH%2001', EXAMPLE);
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([{ field: 'payer_id', issue: expect.any(String) }]);
  });

  it('refuses a file over 10 MB with 413', async () => {
    const response = await upload('BHH01', `drug_name,coverage\n${'x'.repeat(10 * 1024 * 1024)}`);
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('payload_too_large');
  });

  it('deletes a formulary, and answers 404 for one the account does not have', async () => {
    const { keys } = await testApp.createAccountWithLiveAdmin();
    await upload('BHH02', EXAMPLE.replace(/BHH01/g, 'BHH02'), keys.admin);
    const removed = await testApp.http().delete('/formularies/bhh02').set(bearer(keys.admin));
    expect(removed.status).toBe(200);
    expect(removed.body.data).toMatchObject({ payer_id: 'BHH02', rows: EXAMPLE_ROWS });
    expect((await list(keys.admin)).body.data.data).toEqual([]);
    const again = await testApp.http().delete('/formularies/BHH02').set(bearer(keys.admin));
    expect(again.status).toBe(404);
  });

  it("keeps each account's formularies to itself", async () => {
    const other = await testApp.createAccountWithLiveAdmin();
    expect((await list(other.keys.admin)).body.data.data).toEqual([]);
    expect((await testApp.http().delete('/formularies/BHH01').set(bearer(other.keys.admin))).status).toBe(
      404,
    );
  });

  it('needs the admin role', async () => {
    for (const key of [account.keys.provider, account.keys.reviewer]) {
      expect((await upload('BHH01', EXAMPLE, key)).status).toBe(403);
      expect((await list(key)).status).toBe(403);
    }
  });

  it('records loads and deletions in the audit trail, by payer id', async () => {
    const { keys } = await testApp.createAccountWithLiveAdmin();
    await upload('BHH03', EXAMPLE.replace(/BHH01/g, 'BHH03'), keys.admin);
    await testApp.http().delete('/formularies/BHH03').set(bearer(keys.admin));
    const trail = await testApp.http().get('/audit-events').set(bearer(keys.admin));
    expect(
      (trail.body.data.data as Array<{ action: string; target: unknown }>)
        .filter((event) => event.action.startsWith('formulary.'))
        .map((event) => [event.action, event.target]),
    ).toEqual([
      ['formulary.deleted', { object: 'formulary', id: 'BHH03' }],
      ['formulary.replaced', { object: 'formulary', id: 'BHH03' }],
    ]);
  });

  it('is described in the OpenAPI document as a text/csv upload', async () => {
    const document = (await testApp.http().get('/openapi.json')).body;
    const put = document.paths['/formularies/{payer_id}'].put;
    expect(Object.keys(put.requestBody.content)).toEqual(['text/csv']);
    expect(put.requestBody.content['text/csv'].schema).toMatchObject({
      type: 'string',
      format: 'formulary-csv',
    });
    expect(Object.keys(put.responses)).toEqual(expect.arrayContaining(['200', '400', '403', '413', '415']));
    expect(document.paths['/formularies/{payer_id}'].delete.responses).toHaveProperty('404');
  });
});
