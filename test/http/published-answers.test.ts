import { benefitVerificationRequest } from '../support/case-requests';
import { PublishedAnswers } from '../support/published-answers';
import { bearer, startTestApp, TestAccount, TestApp } from '../support/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('the strict check of answers against their published schemas', () => {
  let testApp: TestApp;
  let account: TestAccount;
  let answers: PublishedAnswers;
  let verification: Json;
  const GET_VERIFICATION = 'GET /benefit-verification/{id}';

  beforeAll(async () => {
    testApp = await startTestApp();
    account = await testApp.createAccount();
    answers = new PublishedAnswers((await testApp.http().get('/openapi.json')).body);
    const created = await testApp
      .http()
      .post('/benefit-verification')
      .set(bearer(account.keys.provider))
      .send(benefitVerificationRequest());
    verification = (
      await testApp
        .http()
        .get(`/benefit-verification/${created.body.data.id}`)
        .set(bearer(account.keys.provider))
    ).body;
  });
  afterAll(() => testApp.close());

  it('passes a case as the service answers it', () => {
    expect(answers.violationOf(GET_VERIFICATION, 200, verification)).toBeUndefined();
  });

  it('fails an answer carrying a field its schema lacks, naming the field', () => {
    const widened = { ...verification, data: { ...verification.data, favourite_colour: 'teal' } };
    expect(answers.violationOf(GET_VERIFICATION, 200, widened)).toMatch(/\/data .*\(favourite_colour\)/);
  });

  it('fails an answer missing a field its schema requires', () => {
    const { status_history: _dropped, ...narrowed } = verification.data;
    expect(answers.violationOf(GET_VERIFICATION, 200, { ...verification, data: narrowed })).toMatch(
      /status_history/,
    );
  });

  it('fails a successful answer of a documented operation that no schema describes', () => {
    expect(answers.violationOf(GET_VERIFICATION, 203, verification)).toMatch(/no schema describes/);
  });
});
