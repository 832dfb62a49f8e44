import { createServer } from 'node:http';

import express from 'express';
import request from 'supertest';

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

  // `npm run api:examples` records new examples with the suite, so the old ones are not held to it then.
  const unlessRecording = process.env.RECORD_ANSWER_EXAMPLES ? it.skip : it;

  unlessRecording(
    'holds, in the document, an example of every successful answer, each valid against its strict schema',
    async () => {
      const document = (await testApp.http().get('/openapi.json')).body as Json;
      const problems = Object.entries(document.paths as Json).flatMap(([path, item]) =>
        Object.entries(item as Json).flatMap(([method, operation]) =>
          Object.entries(operation.responses as Json)
            .filter(([status, response]) => status < '3' && response.content?.['application/json'])
            .map(([status, response]) => {
              const label = `${method.toUpperCase()} ${path}`;
              const { example } = response.content['application/json'];
              if (example === undefined) return `${label} ${status}: no example`;
              return answers.violationOf(label, Number(status), example);
            }),
        ),
      );
      expect(problems.filter(Boolean)).toEqual([]);
    },
  );

  it('catches, on a watched server, an answer carrying a field its schema lacks', async () => {
    const endpoint = (
      await testApp
        .http()
        .post('/webhooks')
        .set(bearer(account.keys.provider))
        .send({
          name: 'watched',
          url: 'https://receiver.example/hooks',
          secret: 'whsec_watched_answers_01',
          events: ['benefit_verification.updated'],
        })
    ).body.data as Json;
    const watched = new PublishedAnswers((await testApp.http().get('/openapi.json')).body);
    const app = express();
    app.get('/webhooks/:id', (_req, res) => {
      res.json({ status: 'success', error: null, data: { ...endpoint, extra: 1 } });
    });
    const server = createServer(app);
    watched.watch(server);
    await request(server).get(`/webhooks/${endpoint.id}`);

    expect(watched.violations).toEqual([
      'GET /webhooks/{id} 200: /data must NOT have additional properties (extra)',
    ]);
  });

  it('fails a successful answer of a documented operation that no schema describes', () => {
    expect(answers.violationOf(GET_VERIFICATION, 203, verification)).toMatch(/no schema describes/);
  });
});
