import { caseReadModelBackfill } from '../../src/worker/read-model-backfill';
import { JsonObject, untilVisibleAsCases, waitForStatus } from '../support/case-journeys';
import { clinicalEligibilityRequest, syntheticPatient } from '../support/case-requests';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';

/** A case type both modes can start without a connector. */
const PATH = '/clinical-eligibility';

/**
 * Case lists are served from the read model: newest first across pages, filtered in SQL by account
 * and mode, each page full while more follow. A worker runs only where the workflow must move a
 * case: the API writes a new case's row itself, and the backfill reads memos, which the API writes too.
 */
describe('case lists', () => {
  let testApp: TestApp;
  let account: TestAccount;
  const live = { provider: '' };

  beforeAll(async () => {
    testApp = await startTestApp();
    account = await testApp.createAccount('Clinic listing in two modes');
    Object.assign(live, await testApp.createLiveKeys(account.accountId));
  });
  afterAll(async () => {
    await testApp.close();
  });

  const create = async (key: string, overrides: Record<string, unknown> = {}): Promise<JsonObject> => {
    const response = await testApp
      .http()
      .post(PATH)
      .set(bearer(key))
      .send({ ...clinicalEligibilityRequest(), ...overrides });
    expect(response.status).toBe(201);
    return response.body.data as JsonObject;
  };
  const list = async (key: string, query: string) => {
    const response = await testApp.http().get(`${PATH}?${query}`).set(bearer(key));
    return { status: response.status, body: response.body };
  };
  const patientOnly = (internalId: string) => ({
    patient: syntheticPatient({ internal_id: internalId }),
  });

  it("fills every page while more follow, newest first across pages, though the other mode's cases lie between", async () => {
    const internalId = 'mrn-pages-4410';
    const created: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      created.push((await create(account.keys.provider, patientOnly(internalId))).id as string);
      await create(live.provider, patientOnly(internalId));
    }

    const first = await list(account.keys.provider, `patient_internal_id=${internalId}&limit=2`);
    const second = await list(
      account.keys.provider,
      `patient_internal_id=${internalId}&limit=2&cursor=${first.body.data.next_cursor}`,
    );

    expect(first.body.data).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
    expect(first.body.data.data).toHaveLength(2);
    expect(second.body.data).toMatchObject({ has_more: false, next_cursor: null });
    const shown = [...first.body.data.data, ...second.body.data.data] as JsonObject[];
    expect(shown.map((item) => item.id)).toEqual([...created].reverse());
    expect(shown.every((item) => item.livemode === false)).toBe(true);
  });

  it('shows each case as GET shows it, request included', async () => {
    const internalId = 'mrn-shown-4411';
    const { id } = await create(account.keys.provider, patientOnly(internalId));

    const listed = (await list(account.keys.provider, `patient_internal_id=${internalId}`)).body.data.data;
    const shown = (await testApp.http().get(`${PATH}/${id}`).set(bearer(account.keys.provider))).body.data;

    expect(listed).toEqual([shown]);
  });

  it('shows a case as GET shows it after the workflow moved it on', async () => {
    const internalId = 'mrn-moved-4414';
    const worker = await testApp.startWorker();
    try {
      const { id } = await create(account.keys.provider, patientOnly(internalId));
      const done = await waitForStatus(testApp, account.keys.provider, PATH, id as string, 'completed');

      const listed = await eventually(async () => {
        const rows = (await list(account.keys.provider, `patient_internal_id=${internalId}`)).body.data.data;
        return rows[0]?.status === 'completed' ? rows : undefined;
      });

      expect(listed).toEqual([done]);
    } finally {
      await worker.stop();
    }
  });

  it('takes any cursor of the documented shape as the position it names', async () => {
    const internalId = 'mrn-hand-cursor-4413';
    const { id } = await create(account.keys.provider, patientOnly(internalId));

    const beforeAnyCase = await list(account.keys.provider, `patient_internal_id=${internalId}&cursor=0_a`);
    const afterEveryCase = await list(
      account.keys.provider,
      `patient_internal_id=${internalId}&cursor=9999999999999999_z`,
    );

    expect(beforeAnyCase.body.data).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
    expect(afterEveryCase.body.data.data.map((item: JsonObject) => item.id)).toEqual([id]);
  });

  it('answers a cursor of any other shape with 400 on cursor', async () => {
    const refused = await list(account.keys.provider, 'cursor=0');

    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'validation_error',
      details: [{ field: 'cursor', issue: 'must be a next_cursor this list returned: <microseconds>_<id>' }],
    });
  });

  it('shows a case whose row lacks its object from the case itself', async () => {
    const internalId = 'mrn-unsealed-4412';
    const { id } = await create(account.keys.provider, patientOnly(internalId));
    await testApp.db.query('UPDATE case_summaries SET case_sealed = NULL WHERE case_id = $1', [id]);

    const listed = (await list(account.keys.provider, `patient_internal_id=${internalId}`)).body.data.data;

    expect(listed).toMatchObject([{ id, request: { patient: { internal_id: internalId } } }]);
  });

  it('lists a case that never had a row once the backfill has run, and the next pass writes nothing', async () => {
    const internalId = 'mrn-backfilled-4413';
    const { id } = await create(account.keys.provider, patientOnly(internalId));
    await testApp.db.query('DELETE FROM case_summaries WHERE case_id = $1', [id]);
    expect((await list(account.keys.provider, `patient_internal_id=${internalId}`)).body.data.data).toEqual(
      [],
    );

    await untilVisibleAsCases(testApp, [id as string]);
    const backfill = caseReadModelBackfill({
      client: testApp.temporalClient,
      db: testApp.db,
      config: testApp.config,
    });
    const firstPass = await backfill.run();
    const secondPass = await backfill.run();

    const listed = (await list(account.keys.provider, `patient_internal_id=${internalId}`)).body.data.data;
    const shown = (await testApp.http().get(`${PATH}/${id}`).set(bearer(account.keys.provider))).body.data;
    expect(listed).toEqual([shown]);
    expect(firstPass.written).toBeGreaterThanOrEqual(1);
    expect(secondPass.written).toBe(0);
  });
});
