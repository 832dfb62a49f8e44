import { randomBytes } from 'node:crypto';

import { Client, Connection, WorkflowFailedError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';

import { newId } from '../../domain/ids';
import { addressTo } from '../../domain/temporal/message-address';
import { ACCOUNT_ID, CASE_STATUS, CASE_TYPE } from '../../domain/temporal/search-attributes';
import { bindCaseToAccount } from '../../infrastructure/temporal/case-binding';
import { EncryptionCodec } from '../../infrastructure/temporal/encryption-codec';
import { caseReadModelBackfill } from '../../src/worker/read-model-backfill';
import {
  eventsFor,
  JsonObject,
  subscribeReceiver,
  untilVisibleAsCases,
  waitForStatus,
} from '../support/case-journeys';
import { priorAuthorizationRequest } from '../support/case-requests';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';
import { TestWorker } from '../support/workers';

const PATH = '/prior-authorization';

/**
 * Someone who reaches the Temporal namespace but holds no payload key (or no API key for the
 * account) must not be able to start a case for an account, nor decide one.
 */
describe('cases forged or decided outside the API', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let otherAccount: TestAccount;
  let receiver: TestReceiver;
  let connection: Connection;
  /**
   * Sends every payload unencrypted, as an intruder in the namespace without the keys would; reads
   * answers with the keys, only so the test can see why it was refused.
   */
  let plaintextClient: Client;

  beforeAll(async () => {
    testApp = await startTestApp({ PAYER_POLL_INTERVAL_MS: '300', WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '100' });
    worker = await testApp.startWorker();
    account = await testApp.createAccount();
    otherAccount = await testApp.createAccount('Another clinic');
    receiver = await subscribeReceiver(testApp, account.keys.provider);
    connection = await Connection.connect({ address: testApp.config.temporal.address });
    const codec = new EncryptionCodec(testApp.config.encryption!);
    plaintextClient = new Client({
      connection,
      namespace: testApp.config.temporal.namespace,
      dataConverter: {
        payloadCodecs: [
          { encode: async (payloads) => payloads, decode: (payloads) => codec.decode(payloads) },
        ],
        failureConverterPath: require.resolve('../../infrastructure/temporal/failure-converter'),
      },
    });
  });
  afterAll(async () => {
    await connection.close();
    await receiver.stop();
    await worker.stop();
    await testApp.close();
  });

  /** A prior authorization input as the API would build it for `account`. */
  function caseInput(caseId: string) {
    const now = new Date().toISOString();
    return {
      case: {
        id: caseId,
        object: 'prior_authorization',
        status: 'processing',
        status_description: 'Resolving the plan and preparing the request from the clinical record.',
        created_at: now,
        updated_at: now,
        status_history: [{ status: 'processing', at: now, reason: 'Submitted.' }],
        outcome: null,
        failure: null,
        metadata: {},
        urgency: 'standard',
        due_at: new Date(Date.now() + 72 * 3600_000).toISOString(),
        overdue: false,
        plan: null,
        coverage: null,
        criteria: [],
        review: null,
        review_reminder_at: null,
        submission: null,
        request: { ...priorAuthorizationRequest(), insurance: [] },
      },
      accountId: account.accountId,
      timings: { reviewReminderMs: 60_000, reviewExpiryMs: 120_000, payerPollIntervalMs: 300 },
    };
  }

  function start(client: Client, caseId: string, input: object, listedUnder = account.accountId) {
    return client.workflow.start('priorAuthorizationWorkflow', {
      workflowId: caseId,
      taskQueue: testApp.config.temporal.taskQueue,
      args: [input],
      typedSearchAttributes: [
        { key: ACCOUNT_ID, value: listedUnder },
        { key: CASE_TYPE, value: 'prior_authorization' },
        { key: CASE_STATUS, value: 'processing' },
      ],
    });
  }

  /** How the case ended, read with the codec so the failure is legible. */
  async function failureOf(caseId: string): Promise<ApplicationFailure> {
    const error = await testApp.temporalClient.workflow
      .getHandle(caseId)
      .result()
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(WorkflowFailedError);
    return (error as WorkflowFailedError).cause as ApplicationFailure;
  }

  const submit = async () => {
    const response = await testApp
      .http()
      .post(PATH)
      .set(bearer(account.keys.provider))
      .send(priorAuthorizationRequest());
    expect(response.status).toBe(201);
    return response.body.data as JsonObject;
  };

  /** Once a real case's first event has arrived, one the forged case had published would have too. */
  async function expectNoEventsFor(forgedId: string): Promise<void> {
    const { id } = await submit();
    await eventually(async () => eventsFor(receiver, id).length > 0);
    expect(eventsFor(receiver, forgedId)).toEqual([]);
  }

  it('fails a case started without the payload codec as unencrypted input, and its account hears nothing of it', async () => {
    const caseId = newId('priorAuthorization');
    await start(plaintextClient, caseId, caseInput(caseId));

    const failure = await failureOf(caseId);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: 'UnencryptedInput', nonRetryable: true });
    expect(failure.message).toContain('not encrypted');
    await expectNoEventsFor(caseId);
    const read = await testApp.http().get(`${PATH}/${caseId}`).set(bearer(account.keys.provider));
    expect(read.status).toBe(404);
  });

  it('fails a case whose account binding was made for another account, and its account hears nothing of it', async () => {
    const caseId = newId('priorAuthorization');
    const bindingForAnotherAccount = bindCaseToAccount(
      testApp.config.encryption!,
      caseId,
      otherAccount.accountId,
    );
    await start(testApp.temporalClient, caseId, { ...caseInput(caseId), binding: bindingForAnotherAccount });

    const failure = await failureOf(caseId);
    expect(failure).toMatchObject({ type: 'AccountBindingInvalid', nonRetryable: true });
    expect(failure.message).toContain('account binding does not verify');
    await expectNoEventsFor(caseId);
    const read = await testApp.http().get(`${PATH}/${caseId}`).set(bearer(account.keys.provider));
    expect(read.status).toBe(404);
  });

  it('fails a case started with the codec but without any account binding', async () => {
    const caseId = newId('priorAuthorization');
    await start(testApp.temporalClient, caseId, caseInput(caseId));

    expect(await failureOf(caseId)).toMatchObject({ type: 'AccountBindingInvalid', nonRetryable: true });
  });

  it('fails a case started with an encrypted input that is not a case at all, instead of retrying it for ever', async () => {
    const caseId = newId('priorAuthorization');
    await start(testApp.temporalClient, caseId, { accountId: account.accountId, request: {} });

    expect(await failureOf(caseId)).toMatchObject({ type: 'AccountBindingInvalid', nonRetryable: true });
    const listedUnder = (await testApp.temporalClient.workflow.getHandle(caseId).describe())
      .typedSearchAttributes;
    expect(listedUnder.get(ACCOUNT_ID)).toBeUndefined();
  });

  it('fails a correctly bound case listed under another account, so that account never reads it', async () => {
    const caseId = newId('priorAuthorization');
    const binding = bindCaseToAccount(testApp.config.encryption!, caseId, account.accountId);
    await start(testApp.temporalClient, caseId, { ...caseInput(caseId), binding }, otherAccount.accountId);

    expect(await failureOf(caseId)).toMatchObject({ type: 'AccountBindingInvalid', nonRetryable: true });
    const read = await testApp.http().get(`${PATH}/${caseId}`).set(bearer(otherAccount.keys.provider));
    expect(read.status).toBe(404);
  });

  it('drops an unencrypted review decision signal, and the case then takes a decision sent through the API', async () => {
    const { id } = await submit();
    await waitForStatus(testApp, account.keys.provider, PATH, id, 'awaiting_review');

    await plaintextClient.workflow
      .getHandle(id)
      .signal('reviewDecision', { decision: 'reject', reviewer: 'Intruder' });
    await eventually(async () => {
      const events = (await testApp.temporalClient.workflow.getHandle(id).fetchHistory()).events ?? [];
      const signalled = events.findIndex((event) => event.workflowExecutionSignaledEventAttributes);
      return (
        signalled >= 0 && events.slice(signalled).some((event) => event.workflowTaskCompletedEventAttributes)
      );
    });
    expect(
      (await waitForStatus(testApp, account.keys.provider, PATH, id, 'awaiting_review')).review,
    ).toBeNull();

    const decided = await testApp
      .http()
      .post(`${PATH}/${id}/review`)
      .set(bearer(account.keys.reviewer))
      .send({ decision: 'approve', reviewer: 'Dr. Reviewer' });
    expect(decided.status).toBe(200);
    expect(decided.body.data).toMatchObject({
      status: 'awaiting_outcome',
      review: { decision: 'approve', reviewer: 'Dr. Reviewer' },
    });
  });

  it('rejects an unencrypted review decision update and leaves the case as it was', async () => {
    const { id } = await submit();
    await waitForStatus(testApp, account.keys.provider, PATH, id, 'awaiting_review');

    const error = await plaintextClient.workflow
      .getHandle(id)
      .executeUpdate('submitReviewDecision', { args: [{ decision: 'approve', reviewer: 'Intruder' }] })
      .catch((failure: unknown) => failure);

    expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
    expect((error as WorkflowUpdateFailedError).cause).toMatchObject({
      type: 'UnencryptedInput',
      message: expect.stringContaining('update was not encrypted'),
    });
    const read = await testApp.http().get(`${PATH}/${id}`).set(bearer(account.keys.provider));
    expect(read.body.data).toMatchObject({ status: 'awaiting_review', review: null });
  });

  describe('messages copied from another case', () => {
    /** What a copy of case `from`'s encrypted decision carries: the API addressed it to `from`. */
    const copiedFrom = (from: string) =>
      addressTo(from, { decision: 'approve' as const, reviewer: 'Dr. Reviewer' });

    it('rejects a decision update addressed to another case and leaves the case as it was', async () => {
      const { id: original } = await submit();
      const { id: target } = await submit();
      await waitForStatus(testApp, account.keys.provider, PATH, target, 'awaiting_review');

      const error = await testApp.temporalClient.workflow
        .getHandle(target)
        .executeUpdate('submitReviewDecision', { args: [copiedFrom(original)] })
        .catch((failure: unknown) => failure);

      expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
      expect((error as WorkflowUpdateFailedError).cause).toMatchObject({ type: 'MessageForAnotherCase' });
      const read = await testApp.http().get(`${PATH}/${target}`).set(bearer(account.keys.provider));
      expect(read.body.data).toMatchObject({ status: 'awaiting_review', review: null });
    });

    it('drops a decision signal addressed to another case', async () => {
      const { id: original } = await submit();
      const { id: target } = await submit();
      await waitForStatus(testApp, account.keys.provider, PATH, target, 'awaiting_review');

      await testApp.temporalClient.workflow.getHandle(target).signal('reviewDecision', copiedFrom(original));
      await eventually(async () => {
        const events = (await testApp.temporalClient.workflow.getHandle(target).fetchHistory()).events ?? [];
        const signalled = events.findIndex((event) => event.workflowExecutionSignaledEventAttributes);
        return (
          signalled >= 0 &&
          events.slice(signalled).some((event) => event.workflowTaskCompletedEventAttributes)
        );
      });

      const read = await testApp.http().get(`${PATH}/${target}`).set(bearer(account.keys.provider));
      expect(read.body.data).toMatchObject({ status: 'awaiting_review', review: null });
    });

    it('keeps the address out of the decision the case records', async () => {
      const { id } = await submit();
      await waitForStatus(testApp, account.keys.provider, PATH, id, 'awaiting_review');

      const decided = await testApp
        .http()
        .post(`${PATH}/${id}/review`)
        .set(bearer(account.keys.reviewer))
        .send({ decision: 'approve', reviewer: 'Dr. Reviewer' });

      expect(decided.body.data.review).not.toHaveProperty('addressedTo');
    });
  });

  describe('reads, before any worker has looked at a forged case', () => {
    const UNPOLLED_TASK_QUEUE = 'nobody-polls-this-queue';

    /** Starts a case where no worker will ever refuse it, listed under `account`, with the memo given. */
    async function startUnrefused(
      memo: Record<string, unknown>,
      caseId = newId('priorAuthorization'),
      client = testApp.temporalClient,
    ): Promise<string> {
      await client.workflow.start('priorAuthorizationWorkflow', {
        workflowId: caseId,
        taskQueue: UNPOLLED_TASK_QUEUE,
        args: [caseInput(caseId)],
        memo,
        typedSearchAttributes: [
          { key: ACCOUNT_ID, value: account.accountId },
          { key: CASE_TYPE, value: 'prior_authorization' },
          { key: CASE_STATUS, value: 'awaiting_review' },
        ],
      });
      return caseId;
    }

    async function listedIds(): Promise<string[]> {
      const list = await testApp.http().get(`${PATH}?limit=100`).set(bearer(account.keys.provider));
      expect(list.status).toBe(200);
      return (list.body.data.data as JsonObject[]).map((entry) => entry.id as string);
    }

    it("never shows a copy of another account's case memo to the account the copy is listed under", async () => {
      const theirs = await testApp
        .http()
        .post(PATH)
        .set(bearer(otherAccount.keys.provider))
        .send(priorAuthorizationRequest());
      const theirMemo = (await testApp.temporalClient.workflow.getHandle(theirs.body.data.id).describe())
        .memo!;
      const copyId = await startUnrefused(theirMemo);

      const read = await testApp.http().get(`${PATH}/${copyId}`).set(bearer(account.keys.provider));
      expect(read.status).toBe(404);
      expect(await listedIds()).not.toContain(copyId);
    });

    it('never shows a case started after bindings began whose memo carries no binding', async () => {
      const { id } = await submit();
      const { binding: _dropped, ...unboundMemo } = (
        await testApp.temporalClient.workflow.getHandle(id).describe()
      ).memo!;
      const unboundId = await startUnrefused(unboundMemo);

      const read = await testApp.http().get(`${PATH}/${unboundId}`).set(bearer(account.keys.provider));
      expect(read.status).toBe(404);
      // Once a case submitted after the forged one is listed, the forged one would be too.
      const { id: later } = await submit();
      const listed = await eventually(async () => {
        const ids = await listedIds();
        return ids.includes(later) ? ids : undefined;
      });
      expect(listed).toContain(id);
      expect(listed).not.toContain(unboundId);
    });

    it('never shows a case whose memo was written unencrypted, even with a valid binding', async () => {
      const caseId = newId('priorAuthorization');
      const record = caseInput(caseId).case;
      const plaintextMemo = {
        case: { ...record, status: 'approved' },
        binding: bindCaseToAccount(testApp.config.encryption!, caseId, account.accountId),
      };
      await startUnrefused(plaintextMemo, caseId, plaintextClient);

      const read = await testApp.http().get(`${PATH}/${caseId}`).set(bearer(account.keys.provider));
      expect(read.status).toBe(404);
      expect(await listedIds()).not.toContain(caseId);
    });

    it("gives none of them a row when the read model's backfill runs, and passes over a memo sealed under a key it lacks", async () => {
      const { id } = await submit();
      const { binding: _dropped, ...unboundMemo } = (
        await testApp.temporalClient.workflow.getHandle(id).describe()
      ).memo!;
      const unboundId = await startUnrefused(unboundMemo);
      const plaintextId = newId('priorAuthorization');
      await startUnrefused(
        {
          case: caseInput(plaintextId).case,
          binding: bindCaseToAccount(testApp.config.encryption!, plaintextId, account.accountId),
        },
        plaintextId,
        plaintextClient,
      );
      const foreignKeyId = newId('priorAuthorization');
      const foreignKeyConnection = await Connection.connect({ address: testApp.config.temporal.address });
      try {
        const foreignKeyClient = new Client({
          connection: foreignKeyConnection,
          namespace: testApp.config.temporal.namespace,
          dataConverter: {
            payloadCodecs: [
              new EncryptionCodec({
                currentKeyId: 'elsewhere',
                keys: new Map([['elsewhere', randomBytes(32)]]),
              }),
            ],
          },
        });
        await startUnrefused({ case: caseInput(foreignKeyId).case }, foreignKeyId, foreignKeyClient);
      } finally {
        await foreignKeyConnection.close();
      }

      await untilVisibleAsCases(testApp, [id, unboundId, plaintextId, foreignKeyId]);
      await caseReadModelBackfill({
        client: testApp.temporalClient,
        db: testApp.db,
        config: testApp.config,
      }).run();

      const rows = await testApp.db.query<{ case_id: string }>(
        'SELECT case_id FROM case_summaries WHERE case_id = ANY($1::text[])',
        [[unboundId, plaintextId, foreignKeyId]],
      );
      expect(rows).toEqual([]);
      expect(await listedIds()).toContain(id);
    });
  });
});
