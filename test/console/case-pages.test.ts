import { subscribeReceiver } from '../support/case-journeys';
import { insuranceCard, priorAuthorizationRequest } from '../support/case-requests';
import { consoleGet, consolePost, signedInPerson, submitCase, timelineOf } from '../support/console-cases';
import { ConsoleBrowser } from '../support/console-session';
import { eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';
import { TestWorker } from '../support/workers';

const API_PATH = '/prior-authorization';
const PAGES = '/console/prior-authorizations';

describe('case pages and decisions in the console', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let account: TestAccount;
  let receiver: TestReceiver;
  let reviewer: ConsoleBrowser;

  beforeAll(async () => {
    testApp = await startTestApp();
    worker = await testApp.startWorker();
    account = await testApp.createAccount('Clinic Cases');
    receiver = await subscribeReceiver(testApp, account.keys.provider);
    reviewer = await signedInPerson(testApp, account.accountId, ['reviewer'], 'Dr. Ada Reviewer');
  });
  afterAll(async () => {
    await receiver.stop();
    await worker.stop();
    await testApp.close();
  });

  const submitted = (body: object = priorAuthorizationRequest()) =>
    submitCase(testApp, account.keys.provider, API_PATH, body);
  const casePage = (id: string, browser = reviewer) => consoleGet(testApp, browser, `${PAGES}/${id}`);
  const awaitingReview = (id: string) =>
    eventually(async () => {
      const page = await casePage(id);
      return page.text.includes('<h2 id="review-heading">Clinical review</h2>') ? page : undefined;
    });

  it('takes a PA from the review queue through review and payer outcome, its timeline showing every status', async () => {
    const { id } = await submitted();
    await eventually(async () =>
      (await consoleGet(testApp, reviewer, '/console/review-queue')).text.includes(id),
    );
    await awaitingReview(id);

    const approved = await consolePost(testApp, reviewer, `${PAGES}/${id}/review`, {
      notes: 'Chart supports medical necessity.',
      choice: 'approve',
    });
    expect(approved.status).toBe(303);
    expect(approved.headers.location).toBe(`${PAGES}/${id}?done=review`);
    const reviewed = await consoleGet(testApp, reviewer, approved.headers.location!);
    expect(reviewed.text).toContain('Your review decision was recorded.');
    expect(reviewed.text).toContain('Dr. Ada Reviewer');
    expect(reviewed.text).toContain('Chart supports medical necessity.');
    expect(reviewed.text).toContain('<h2 id="outcome-heading">Record the payer&#39;s answer</h2>');

    const recorded = await consolePost(testApp, reviewer, `${PAGES}/${id}/outcome`, {
      result: 'approved',
      payer_reference: 'PA-2026-000777',
      authorization_start_date: '2026-12-01',
      authorization_expiration: '2027-11-30',
    });
    expect(recorded.status).toBe(303);
    const completed = await eventually(async () => {
      const page = await casePage(id);
      return timelineOf(page.text).includes('completed') ? page : undefined;
    });
    expect(timelineOf(completed.text)).toEqual([
      'processing',
      'awaiting_review',
      'awaiting_outcome',
      'completed',
    ]);
    expect(completed.text).toContain('PA-2026-000777');
    expect(completed.text).toContain('2026-12-01 to 2027-11-30');
  });

  it("shows the payer's information request and takes the answers, then a partial approval recorded with its quantity", async () => {
    const clinician = await signedInPerson(testApp, account.accountId, ['provider', 'reviewer'], 'Dr. Both');
    const { id } = await submitted(priorAuthorizationRequest({ mock_result: { result: 'other' } }));
    await awaitingReview(id);
    await consolePost(testApp, clinician, `${PAGES}/${id}/review`, { choice: 'approve' });
    const asked = await eventually(async () => {
      const page = await casePage(id, clinician);
      return page.text.includes('information-heading') ? page : undefined;
    });
    expect(asked.text).toContain('The payer asks for information, answer by');
    const questionId = /name="answers\.0\.question_id" value="([^"]+)"/.exec(asked.text)?.[1];
    expect(questionId).toEqual(expect.any(String));

    const answered = await consolePost(testApp, clinician, `${PAGES}/${id}/information`, {
      'answers.0.question_id': questionId!,
      'answers.0.answer': 'A1c 8.4 % on 2026-10-20.',
    });
    expect(answered.status).toBe(303);
    const decided = await eventually(async () => {
      const page = await casePage(id, clinician);
      return timelineOf(page.text).includes('completed') ? page : undefined;
    });
    expect(decided.text).not.toContain('information-heading');

    const partial = await submitted();
    await awaitingReview(partial.id);
    await consolePost(testApp, reviewer, `${PAGES}/${partial.id}/review`, { choice: 'approve' });
    const recorded = await consolePost(testApp, reviewer, `${PAGES}/${partial.id}/outcome`, {
      result: 'partially_approved',
      approved_quantity: '1',
      authorization_number: 'AUTH-CONSOLE-1',
    });
    expect(recorded.status).toBe(303);
    const completed = await eventually(async () => {
      const page = await casePage(partial.id);
      return timelineOf(page.text).includes('completed') ? page : undefined;
    });
    expect(completed.text).toContain('partially approved');
    expect(completed.text).toContain('AUTH-CONSOLE-1');
  });

  it('applies one decision when two reviewers decide the same case at once, and refuses the other clearly', async () => {
    const { id } = await submitted();
    await awaitingReview(id);
    const second = await signedInPerson(testApp, account.accountId, ['reviewer'], 'Dr. Second');
    const answers = await Promise.all([
      consolePost(testApp, reviewer, `${PAGES}/${id}/review`, { choice: 'approve' }),
      consolePost(testApp, second, `${PAGES}/${id}/review`, { choice: 'reject' }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 409]);
    const refusal = answers.find((answer) => answer.status === 409)!;
    expect(refusal.text).toMatch(/<p\s+class="notice notice-error"\s+role="alert"/);
    const page = await casePage(id);
    expect(page.text.match(/<dt>Reviewer<\/dt>/g)).toHaveLength(1);
  });

  it('shows the API validation messages for an invalid decision, keeping what was typed', async () => {
    const { id } = await submitted();
    await awaitingReview(id);
    const answer = await consolePost(testApp, reviewer, `${PAGES}/${id}/review`, {
      notes: 'Kept note',
      choice: 'maybe',
    });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('decision: must be one of the following values: approve, reject');
    expect(answer.text).toContain('>Kept note</textarea>');
    expect(timelineOf((await casePage(id)).text)).toEqual(['processing', 'awaiting_review']);
  });

  it('shows the documents by name and content type, and the webhook deliveries of the case', async () => {
    const { id } = await submitted(priorAuthorizationRequest({ insurance: [insuranceCard()] }));
    const endpointId = [...receiver.endpointIds][0]!;
    const page = await eventually(async () => {
      const candidate = await casePage(id);
      return candidate.text.includes(endpointId) && candidate.text.includes('badge-ok">succeeded')
        ? candidate
        : undefined;
    });
    expect(page.text).toMatch(
      new RegExp(
        `<a href="${PAGES}/${id}/documents/doc_[0-9a-z]+">insurance_1</a>\\s*</td>\\s*<td>text/plain</td>`,
      ),
    );
    expect(page.text).not.toContain(insuranceCard().file_content);
  });

  it('shows the request as a reviewer reads it: patient, prescription, diagnoses, prescriber and insurance', async () => {
    const { id } = await submitted();

    const page = await awaitingReview(id);

    const request = page.text.slice(page.text.indexOf('id="request-heading"'));
    const submittedRequest = priorAuthorizationRequest();
    expect(request).toContain(submittedRequest.provider.npi);
    expect(request).toMatch(/<code>E11\.9<\/code\s*>/);
    expect(request).toContain('Ozempic 1 mg pen, quantity 1, 28 days');
    expect(request).toContain('Blue Horizon Health, member ZZBHH123456789');
  });

  it("lists the plan's criteria the prefill answered, each with where its answer came from", async () => {
    const { id } = await submitted();

    const page = await awaitingReview(id);

    const criteria = page.text.slice(page.text.indexOf('id="criteria-heading"'));
    expect(criteria).toMatch(/<td>yes<\/td>\s*<td>[^<]*E11\.9/);
  });

  it("shows the reviewer what the payer's CRD service said the order requires, and the questionnaire it named", async () => {
    const { id } = await submitted();

    const page = await awaitingReview(id);

    const requirements = page.text.slice(page.text.indexOf('id="requirements-heading"'));
    expect(requirements).toMatch(/Prior authorization<\/dt>\s*<dd>auth-needed/);
    expect(requirements).toContain('/fhir/Questionnaire/ozempic');
  });

  it("tells the reviewer when the payer's requirements could not be used, and why", async () => {
    const { id } = await submitted(
      priorAuthorizationRequest({ mock_result: { coverage_requirements: 'unavailable' } }),
    );

    const page = await awaitingReview(id);

    const requirements = page.text.slice(page.text.indexOf('id="requirements-heading"'));
    expect(requirements).toContain('could not be used (crd_unavailable)');
  });

  it('records reading a case page as case.read, with the person as the actor', async () => {
    const { id } = await submitted();
    await casePage(id);
    const events = await testApp.db.query<{ actor_type: string }>(
      `SELECT actor_type FROM audit_events WHERE action = 'case.read' AND target_id = $1`,
      [id],
    );
    expect(events.map((event) => event.actor_type)).toContain('user');
  });

  it('answers 404 for a case of another account', async () => {
    const { id } = await submitted();
    const other = await testApp.createAccount('Other clinic');
    const stranger = await signedInPerson(testApp, other.accountId, ['reviewer']);
    const page = await casePage(id, stranger);
    expect(page.status).toBe(404);
    expect(page.text).toContain('No prior authorization with this id exists in your account.');
    const decision = await consolePost(testApp, stranger, `${PAGES}/${id}/review`, { choice: 'approve' });
    expect(decision.status).toBe(404);
  });

  it('refuses a decision sent without the CSRF token, changing nothing', async () => {
    const { id } = await submitted();
    await awaitingReview(id);
    const answer = await testApp
      .http()
      .post(`${PAGES}/${id}/review`)
      .set('Cookie', reviewer.cookie)
      .type('form')
      .send({ choice: 'approve' });
    expect(answer.status).toBe(403);
    expect(timelineOf((await casePage(id)).text)).toEqual(['processing', 'awaiting_review']);
  });

  it('offers the review decision only to people who hold the reviewer role', async () => {
    const { id } = await submitted();
    await awaitingReview(id);
    const provider = await signedInPerson(testApp, account.accountId, ['provider']);
    expect((await casePage(id, provider)).text).not.toContain('Clinical review');
    const answer = await consolePost(testApp, provider, `${PAGES}/${id}/review`, { choice: 'approve' });
    expect(answer.status).toBe(403);
  });
});
