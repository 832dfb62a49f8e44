import type { CdsHooksRequest } from '../../infrastructure/connectors/crd/cds-hooks';
import { answerOrderSign } from '../../infrastructure/connectors/crd/simulated-crd-service';
import { LoopbackAdaptiveDtr } from '../dtr/loopback-adaptive-dtr';
import { JsonObject, waitForStatus } from './case-journeys';
import { priorAuthorizationRequest, syntheticPatient } from './case-requests';
import { ClearinghouseServer } from './clearinghouse-server';
import { PasServer } from './pas-server';
import { bearer, TestApp } from './test-app';

/**
 * A live account's payer on loopback servers, for a prior authorization whose questionnaire is
 * adaptive: its CRD service names a questionnaire, its DTR service serves Inferno's adaptive dinner
 * order through `$next-question` (test/dtr/loopback-adaptive-dtr.ts), and its PAS server answers as
 * each test scripts it.
 */
export class AdaptivePayer {
  readonly dtr = new LoopbackAdaptiveDtr();
  readonly pas = new PasServer();
  private readonly crd = new ClearinghouseServer(({ body }) => ({
    status: 200,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(answerOrderSign(JSON.parse(body) as CdsHooksRequest, 'auth-needed')),
  }));

  /** Starts the servers and sets them as the account's connectors, through the API as an admin does. */
  async connect(testApp: TestApp, adminKey: string): Promise<void> {
    const [crdUrl, dtrUrl, pasUrl] = await Promise.all([
      this.crd.start(),
      this.dtr.start(),
      this.pas.start(),
    ]);
    for (const [kind, settings] of [
      ['prior_authorization', { url: pasUrl, auth: { type: 'bearer', token: 'pas-token-adaptive-0001' } }],
      ['coverage_requirements', { url: crdUrl, client_id: 'clinic-crd-adaptive', timeout_ms: 2000 }],
      [
        'questionnaire',
        { url: dtrUrl, auth: { type: 'bearer', token: 'dtr-token-adaptive-0001' }, timeout_ms: 2000 },
      ],
    ] as const) {
      const configured = await testApp.http().put(`/connectors/${kind}`).set(bearer(adminKey)).send(settings);
      if (configured.status !== 200)
        throw new Error(`Setting the ${kind} connector answered ${configured.status}`);
    }
  }

  stop(): Promise<void> {
    return Promise.all([this.crd.stop(), this.dtr.stop(), this.pas.stop()]).then(() => undefined);
  }
}

/**
 * A live Remicade request without mock_result, which the adaptive payer's CRD answer names its
 * questionnaire for, submitted and prepared for review; its patient synthetic.
 */
export async function preparedAdaptiveCase(
  testApp: TestApp,
  providerKey: string,
  firstName: string,
): Promise<string> {
  const { mock_result: _mockResult, ...request } = priorAuthorizationRequest({
    patient: syntheticPatient({ first_name: firstName, last_name: 'Zzadaptive' }),
    diagnoses: [{ code: 'K50.90' }],
    prescription: { drug_name: 'Remicade 100 mg vial', quantity: 4 },
    evidence: [],
  });
  const created = await testApp.http().post('/prior-authorization').set(bearer(providerKey)).send(request);
  if (created.status !== 201) throw new Error(`Submitting the case answered ${created.status}`);
  const id = (created.body.data as JsonObject).id as string;
  await waitForStatus(testApp, providerKey, '/prior-authorization', id, 'awaiting_review');
  return id;
}

/** Answers the case's questionnaire through the API, as an integration does; the questionnaire once its round is done. */
export async function answerQuestionnaire(
  testApp: TestApp,
  providerKey: string,
  id: string,
  answers: { link_id: string; value: unknown }[],
): Promise<JsonObject> {
  const response = await testApp
    .http()
    .post(`/prior-authorization/${id}/questionnaire`)
    .set(bearer(providerKey))
    .send({ answers, author: 'Dr. Example' });
  return response.body.data.questionnaire as JsonObject;
}
