import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';

import type { Role } from '../../domain/accounts/roles';
import { EncryptionCodec } from '../../infrastructure/temporal/encryption-codec';
import { REQUIRED_ROLE } from '../../src/common/route-access';
import { CodecController } from '../../src/codec/codec.controller';
import { JsonObject, waitForStatus } from '../support/case-journeys';
import {
  authorizationFor,
  benefitVerificationRequest,
  enrollmentPatient,
  priorAuthorizationRequest,
} from '../support/case-requests';
import { bearer, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestWorker } from '../support/workers';

const PA = '/prior-authorization';
const MYABBVIE_ASSIST = 'prog_01jnnmj58jf1nen1dn9mmkb0r6';

type Payload = temporal.api.common.v1.IPayload;

const asJson = (payload: Payload) => ({
  metadata: Object.fromEntries(
    Object.entries(payload.metadata ?? {}).map(([key, value]) => [
      key,
      Buffer.from(value).toString('base64'),
    ]),
  ),
  data: Buffer.from(payload.data ?? []).toString('base64'),
});

describe('the audit trail', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let keyIds: Record<Role, string>;

  beforeAll(async () => {
    testApp = await startTestApp();
    worker = await testApp.startWorker();
    account = await testApp.createAccount();
    keyIds = {} as Record<Role, string>;
    for (const [role, secret] of Object.entries(account.keys) as [Role, string][]) {
      keyIds[role] = (await testApp.accounts.findKeyIdBySecret(secret))!;
    }
  });
  afterAll(async () => {
    await worker.stop();
    await testApp.close();
  });

  const auditEvents = async (query: Record<string, string | number> = {}, key = account.keys.admin) => {
    const response = await testApp.http().get('/audit-events').query(query).set(bearer(key));
    expect(response.status).toBe(200);
    return response.body.data as { data: JsonObject[]; has_more: boolean; next_cursor: string | null };
  };
  const eventsAbout = async (targetId: string) => (await auditEvents({ target_id: targetId })).data;

  const submitPriorAuthorization = async (body = priorAuthorizationRequest()) => {
    const response = await testApp.http().post(PA).set(bearer(account.keys.provider)).send(body);
    expect(response.status).toBe(201);
    return response.body.data.id as string;
  };

  it('records a case creation, review, outcome and the reads in between, each with its actor and no PHI', async () => {
    const submitted = priorAuthorizationRequest();
    const id = await submitPriorAuthorization(submitted);
    await waitForStatus(testApp, account.keys.provider, PA, id, 'awaiting_review');
    const reviewed = await testApp
      .http()
      .post(`${PA}/${id}/review`)
      .set(bearer(account.keys.reviewer))
      .send({ decision: 'approve', reviewer: 'Dr. Reviewer', notes: 'criteria met' });
    expect(reviewed.status).toBe(200);
    const decided = await testApp
      .http()
      .post(`${PA}/${id}/outcome`)
      .set(bearer(account.keys.reviewer))
      .send({ result: 'approved', detail_code: 'approval', payer_reference: 'PAYER-REF-1' });
    expect(decided.status).toBe(200);

    const events = await eventsAbout(id);
    const written = events.filter((event) => event.action !== 'case.read');
    expect(written.map((event) => [event.action, event.actor])).toEqual([
      ['case.outcome_recorded', { type: 'api_key', id: keyIds.reviewer }],
      ['case.decision_recorded', { type: 'api_key', id: keyIds.reviewer }],
      ['case.created', { type: 'api_key', id: keyIds.provider }],
    ]);
    for (const event of events) {
      expect(event).toMatchObject({
        id: expect.stringMatching(/^aud_/),
        object: 'audit_event',
        target: { object: 'prior_authorization', id },
        request_id: expect.stringMatching(/^req_/),
        created_at: expect.any(String),
      });
    }
    const trail = JSON.stringify(events);
    for (const phi of [
      submitted.patient.first_name,
      submitted.patient.last_name,
      submitted.patient.internal_id,
      submitted.patient.date_of_birth,
      'Dr. Reviewer',
      'PAYER-REF-1',
    ]) {
      expect(trail).not.toContain(phi);
    }
  });

  it('records the request id the caller saw in X-Request-Id', async () => {
    const id = await submitPriorAuthorization();
    const read = await testApp.http().get(`${PA}/${id}`).set(bearer(account.keys.reviewer));
    const [event] = (await auditEvents({ target_id: id, action: 'case.read' })).data;
    expect(event!.request_id).toBe(read.headers['x-request-id']);
  });

  it('records one event per case read', async () => {
    const id = await submitPriorAuthorization();
    for (let read = 0; read < 3; read++) {
      expect((await testApp.http().get(`${PA}/${id}`).set(bearer(account.keys.reviewer))).status).toBe(200);
    }
    const reads = (await auditEvents({ target_id: id, action: 'case.read' })).data;
    expect(reads).toHaveLength(3);
    expect(reads.every((event) => event.actor.id === keyIds.reviewer)).toBe(true);
  });

  it('records one event per list request, naming the filters used but never their values', async () => {
    const id = await submitPriorAuthorization();
    const patientId = 'mrn-listed-0001';
    const before = (await auditEvents({ action: 'case.listed' })).data.length;
    const listed = await testApp
      .http()
      .get(PA)
      .query({ status: 'processing', patient_internal_id: patientId, limit: 5 })
      .set(bearer(account.keys.provider));
    expect(listed.status).toBe(200);

    const lists = (await auditEvents({ action: 'case.listed' })).data;
    expect(lists).toHaveLength(before + 1);
    expect(lists[0]).toMatchObject({
      actor: { type: 'api_key', id: keyIds.provider },
      target: { object: 'prior_authorization', id: null },
      details: { filters: ['patient_internal_id', 'status'], result_ids: [] },
    });
    expect(JSON.stringify(lists[0])).not.toContain(patientId);

    await testApp.http().get(PA).set(bearer(account.keys.provider));
    const [unfiltered] = (await auditEvents({ action: 'case.listed' })).data;
    expect(unfiltered!.details.filters).toEqual([]);
    expect(unfiltered!.details.result_ids).toContain(id);
  });

  it('records a cancellation by the provider who cancelled', async () => {
    const id = await submitPriorAuthorization();
    await waitForStatus(testApp, account.keys.provider, PA, id, 'awaiting_review');
    await testApp
      .http()
      .post(`${PA}/${id}/cancel`)
      .set(bearer(account.keys.provider))
      .send({ reason: 'Duplicate request' });
    const [cancelled] = (await auditEvents({ target_id: id, action: 'case.cancelled' })).data;
    expect(cancelled).toMatchObject({ actor: { id: keyIds.provider }, target: { id } });
    expect(JSON.stringify(cancelled)).not.toContain('Duplicate request');
  });

  it('records the creation of a benefit verification under its own object type', async () => {
    const created = await testApp
      .http()
      .post('/benefit-verification')
      .set(bearer(account.keys.provider))
      .send(benefitVerificationRequest());
    const [event] = await eventsAbout(created.body.data.id);
    expect(event).toMatchObject({
      action: 'case.created',
      target: { object: 'benefit_verification', id: created.body.data.id },
    });
  });

  it('records the information a provider sends to an enrollment, without the information', async () => {
    const submitted = await testApp
      .http()
      .post('/patient-enrollment')
      .set(bearer(account.keys.provider))
      .send({
        programId: MYABBVIE_ASSIST,
        ...authorizationFor(MYABBVIE_ASSIST),
        patient: enrollmentPatient({
          last_name: 'Auditperson',
          metadata: { patient_id: 'mrn-audit-enroll-1' },
        }),
        prescription: { drug_name: 'Humira' },
        evidence: [
          {
            type: 'uninsured_attestation',
            date_created: '2026-11-01T10:00:00Z',
            content: { insured: false },
          },
        ],
      });
    expect(submitted.body).toMatchObject({ data: { status: 'awaiting_review' } });
    const id = submitted.body.data.id as string;
    const sent = await testApp
      .http()
      .post(`/patient-enrollment/${id}/information`)
      .set(bearer(account.keys.provider))
      .send({
        evidence: [
          {
            type: 'income_verification',
            date_created: '2026-11-01T10:00:00Z',
            content: { household_size: 2, annual_household_income_cents: 3_123_456 },
          },
        ],
      });
    expect(sent.status).toBe(200);

    const events = (await eventsAbout(id)).filter((event) => event.action !== 'case.read');
    expect(events.map((event) => [event.action, event.target])).toEqual([
      ['case.information_provided', { object: 'patient_enrollment', id }],
      ['case.created', { object: 'patient_enrollment', id }],
    ]);
    for (const phi of ['Auditperson', 'mrn-audit-enroll-1', '3123456', 'Humira']) {
      expect(JSON.stringify(events)).not.toContain(phi);
    }
  });

  it('marks an idempotent replay of a creation as such', async () => {
    const body = priorAuthorizationRequest();
    const send = () =>
      testApp
        .http()
        .post(PA)
        .set(bearer(account.keys.provider))
        .set('Idempotency-Key', 'audit-replay-1')
        .send(body);
    const first = await send();
    const replay = await send();
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const created = (await auditEvents({ target_id: first.body.data.id, action: 'case.created' })).data;
    expect(created.map((event) => event.details.idempotent_replay ?? false)).toEqual([true, false]);
  });

  it('records nothing for a request that failed', async () => {
    const unknown = 'pa_00000000000000000000000000';
    expect((await testApp.http().get(`${PA}/${unknown}`).set(bearer(account.keys.provider))).status).toBe(
      404,
    );
    expect(await eventsAbout(unknown)).toEqual([]);
  });

  it('records API key creation and revocation by the admin', async () => {
    const created = await testApp
      .http()
      .post('/api-keys')
      .set(bearer(account.keys.admin))
      .send({ label: 'pharmacy integration', roles: ['provider'] });
    const keyId = created.body.data.id as string;
    await testApp.http().delete(`/api-keys/${keyId}`).set(bearer(account.keys.admin));

    const events = await eventsAbout(keyId);
    expect(events.map((event) => [event.action, event.actor.id, event.target])).toEqual([
      ['api_key.revoked', keyIds.admin, { object: 'api_key', id: keyId }],
      ['api_key.created', keyIds.admin, { object: 'api_key', id: keyId }],
    ]);
    expect(JSON.stringify(events)).not.toContain(created.body.data.secret);
  });

  it('records webhook endpoint creation, change and deletion', async () => {
    const secret = 'whsec_audit_trail_0123456789abcdef';
    const created = await testApp
      .http()
      .post('/webhooks')
      .set(bearer(account.keys.provider))
      .send({
        name: 'Pharmacy',
        url: 'http://127.0.0.1:9/hooks',
        secret,
        events: ['prior_authorization.updated'],
      });
    const endpointId = created.body.data.id as string;
    await testApp
      .http()
      .patch(`/webhooks/${endpointId}`)
      .set(bearer(account.keys.provider))
      .send({ name: 'Renamed' });
    await testApp.http().delete(`/webhooks/${endpointId}`).set(bearer(account.keys.provider));

    const events = await eventsAbout(endpointId);
    expect(events.map((event) => event.action)).toEqual([
      'webhook_endpoint.deleted',
      'webhook_endpoint.updated',
      'webhook_endpoint.created',
    ]);
    expect(JSON.stringify(events)).not.toContain(secret);
  });

  it('records a delivery sent again, since it discloses its event once more', async () => {
    const created = await testApp
      .http()
      .post('/webhooks')
      .set(bearer(account.keys.provider))
      .send({
        name: 'Unreachable pharmacy',
        url: 'http://127.0.0.1:9/hooks',
        secret: 'whsec_audit_retry_0123456789abcdef',
        events: ['prior_authorization.updated'],
      });
    const endpointId = created.body.data.id as string;
    const test = await testApp.http().post(`/webhooks/${endpointId}/test`).set(bearer(account.keys.provider));
    const retried = await testApp
      .http()
      .post(`/webhooks/${endpointId}/deliveries/${test.body.data.delivery_id}/retry`)
      .set(bearer(account.keys.provider));
    expect(retried.status).toBe(202);

    expect((await eventsAbout(endpointId)).map((event) => event.action)).toContain(
      'webhook_delivery.retried',
    );
  });

  describe('operator decodes through the codec', () => {
    let operatorKey: string;
    let operatorKeyId: string;

    beforeAll(async () => {
      // Whatever role the codec requires, held by a key outside the audited account, as operators' are.
      const codecRole = Reflect.getMetadata(REQUIRED_ROLE, CodecController) as Role;
      const platform = await testApp.accounts.createAccount('Platform operators');
      const created = await testApp.accounts.createApiKey({
        accountId: platform.id,
        roles: [codecRole],
        label: 'operator',
      });
      operatorKey = created.secret;
      operatorKeyId = created.key.id;
    });

    const decode = (payloads: Payload[]) =>
      testApp
        .http()
        .post('/codec/decode')
        .set(bearer(operatorKey))
        .send({ payloads: payloads.map(asJson) });

    it("records a decode of a case's payloads in the audit trail of the account that owns the case", async () => {
      const id = await submitPriorAuthorization();
      const history = await testApp.temporalClient.workflow.getHandle(id).fetchHistory();
      const started = history.events![0]!.workflowExecutionStartedEventAttributes!;
      const memo = started.memo!.fields!.case!;

      const response = await decode([...started.input!.payloads!, memo]);
      expect(response.status).toBe(200);

      const [event] = (await auditEvents({ target_id: id, action: 'codec.decoded' })).data;
      expect(event).toMatchObject({
        actor: { id: operatorKeyId },
        target: { object: 'prior_authorization', id },
        details: { payload_count: 2 },
        request_id: response.headers['x-request-id'],
      });
    });

    it('records a decode that names no account as a platform-level event, in no account’s trail', async () => {
      const [encrypted] = await new EncryptionCodec(testApp.config.encryption!).encode([
        defaultPayloadConverter.toPayload({ decision: 'approve' }),
      ]);
      const response = await decode([encrypted!]);
      expect(response.status).toBe(200);

      expect(
        (await auditEvents({ actor_id: operatorKeyId })).data.map((event) => event.request_id),
      ).not.toContain(response.headers['x-request-id']);
      const [platformEvent] = await testApp.db.query<{ account_id: string | null; action: string }>(
        'SELECT account_id, action FROM audit_events WHERE request_id = $1',
        [response.headers['x-request-id']],
      );
      expect(platformEvent).toEqual({ account_id: null, action: 'codec.decoded' });
    });
  });

  describe('GET /audit-events', () => {
    let pagedCase: string;

    beforeAll(async () => {
      pagedCase = await submitPriorAuthorization();
      for (let read = 0; read < 4; read++) {
        await testApp.http().get(`${PA}/${pagedCase}`).set(bearer(account.keys.provider));
      }
    });

    it('pages newest first with an opaque cursor, visiting every event once', async () => {
      const everything = (await auditEvents({ target_id: pagedCase, limit: 100 })).data;
      expect(everything).toHaveLength(5);

      const visited: JsonObject[] = [];
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof auditEvents>> = await auditEvents({
          target_id: pagedCase,
          limit: 2,
          ...(cursor ? { cursor } : {}),
        });
        expect(page.data.length).toBeLessThanOrEqual(2);
        expect(page.has_more).toBe(page.next_cursor !== null);
        visited.push(...page.data);
        cursor = page.next_cursor;
      } while (cursor);

      expect(visited).toEqual(everything);
      const times = visited.map((event) => event.created_at as string);
      expect([...times].sort().reverse()).toEqual(times);
      expect(visited.at(-1)!.action).toBe('case.created');
    });

    it('answers in the contract’s list envelope', async () => {
      const response = await testApp
        .http()
        .get('/audit-events')
        .query({ limit: 1 })
        .set(bearer(account.keys.admin));
      expect(response.body).toMatchObject({
        status: 'success',
        error: null,
        data: { object: 'list', data: [expect.any(Object)], has_more: true, next_cursor: expect.any(String) },
      });
    });

    it('filters by actor', async () => {
      const byReviewer = (await auditEvents({ actor_id: keyIds.reviewer, limit: 100 })).data;
      expect(byReviewer.length).toBeGreaterThan(0);
      expect(byReviewer.every((event) => event.actor.id === keyIds.reviewer)).toBe(true);
    });

    it('filters by time range', async () => {
      const [newest] = (await auditEvents({ limit: 1 })).data;
      const at = newest!.created_at as string;
      const inRange = (await auditEvents({ from: at, to: at, limit: 100 })).data;
      expect(inRange.map((event) => event.id)).toContain(newest!.id);
      expect(inRange.every((event) => event.created_at === at)).toBe(true);
      const later = new Date(Date.parse(at) + 60_000).toISOString();
      expect((await auditEvents({ from: later })).data).toEqual([]);
    });

    it('refuses a cursor it did not hand out, and bad filters, with 400 naming the field', async () => {
      const query = async (params: Record<string, string>) =>
        testApp.http().get('/audit-events').query(params).set(bearer(account.keys.admin));
      for (const [params, field] of [
        [{ cursor: 'not-a-cursor' }, 'cursor'],
        [{ from: 'yesterday' }, 'from'],
        [{ from: '2026-11-02', to: '2026-11-01' }, 'to'],
        [{ action: 'case.deleted' }, 'action'],
        [{ actor_id: "key_' OR 1=1" }, 'actor_id'],
        [{ limit: '0' }, 'limit'],
      ] as const) {
        const response = await query(params);
        expect(response.status).toBe(400);
        expect(response.body.error.code).toBe('validation_error');
        expect(response.body.error.details.map((detail: { field: string }) => detail.field)).toContain(field);
      }
    });

    it('is for account admins only', async () => {
      for (const key of [account.keys.provider, account.keys.reviewer]) {
        const response = await testApp.http().get('/audit-events').set(bearer(key));
        expect(response.status).toBe(403);
        expect(response.body.error.code).toBe('forbidden');
      }
    });

    it("never shows an admin another account's events", async () => {
      const other = await testApp.createAccount('Another clinic');
      await testApp
        .http()
        .post('/api-keys')
        .set(bearer(other.keys.admin))
        .send({ label: 'other clinic key', roles: ['provider'] });

      const theirs = (await auditEvents({ limit: 100 }, other.keys.admin)).data;
      expect(theirs.map((event) => event.action)).toEqual(['api_key.created']);
      expect((await auditEvents({ target_id: pagedCase }, other.keys.admin)).data).toEqual([]);

      const ours = (await auditEvents({ limit: 100 })).data;
      expect(ours.map((event) => event.id)).not.toContain(theirs[0]!.id);
    });
  });
});
