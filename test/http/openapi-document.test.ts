import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { projectRoot } from '../../infrastructure/project-root';
import { SUBSCRIBABLE_EVENT_TYPES } from '../../domain/webhooks/event-types';
import publishedSchemas from '../../src/contract/published-schemas.json';
import { startTestApp, TestApp } from '../support/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('the OpenAPI document', () => {
  let testApp: TestApp;
  let document: Json;

  beforeAll(async () => {
    testApp = await startTestApp();
    document = (await testApp.http().get('/openapi.json')).body;
  });
  afterAll(() => testApp.close());

  const operations = () =>
    Object.entries(document.paths as Json).flatMap(([path, item]) =>
      Object.entries(item as Json).map(([method, operation]) => ({ label: `${method} ${path}`, operation })),
    );

  /** A connector's JWKS URL, which a payer fetches without a key of ours. */
  const isJwks = (label: string) => label === 'get /jwks/{jwksId}';

  it('lists 400, 401, 429 and 503 in the error envelope on every operation, 429 with Retry-After', () => {
    for (const { label, operation } of operations()) {
      for (const status of isJwks(label) ? ['400', '429', '503'] : ['400', '401', '429', '503']) {
        expect({ label, status, response: operation.responses[status] }).toEqual({
          label,
          status,
          response: { $ref: `#/components/responses/Error${status}` },
        });
      }
    }
    expect(document.components.responses.Error429.headers['Retry-After'].required).toBe(true);
    expect(document.components.responses.Error400.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ErrorEnvelope',
    });
  });

  it('names every operation as an SDK user would call it: a verb, then the resource, each once', () => {
    const ids = operations().map(({ operation }) => operation.operationId as string);
    expect(ids.filter((id) => !/^[a-z]+[A-Z][A-Za-z]+$/.test(id) || id.includes('Controller'))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(document.paths['/benefit-verification'].post.operationId).toBe('createBenefitVerification');
    expect(document.paths['/prior-authorization'].get.operationId).toBe('listPriorAuthorizations');
    expect(document.paths['/prior-authorization/{id}/outcome'].post.operationId).toBe(
      'recordPriorAuthorizationOutcome',
    );
    expect(document.paths['/webhooks/{id}/deliveries/{deliveryId}/retry'].post.operationId).toBe(
      'retryWebhookDelivery',
    );
    expect(document.paths['/formularies/{payer_id}'].delete.operationId).toBe('deleteFormulary');
    expect(document.paths['/status'].get.operationId).toBe('getStatus');
    expect(document.paths['/api-keys'].get.operationId).toBe('listApiKeys');
    expect(document.paths['/clinical-eligibility'].get.operationId).toBe('listClinicalEligibilities');
  });

  it("names its schemas without the server classes' Dto, and says where the service is", () => {
    const names = Object.keys(document.components.schemas);
    expect(names.filter((name) => name.endsWith('Dto'))).toEqual([]);
    expect(names).toContain('CreateBenefitVerification');
    expect(JSON.stringify(document)).not.toMatch(/#\/components\/schemas\/[A-Za-z]+Dto"/);
    expect(document.servers).toEqual([{ url: '/', description: expect.any(String) }]);
  });

  it('describes the body of every successful answer, so no client sees it as unknown', () => {
    const undescribed = operations().filter(({ operation }) => {
      const successes = Object.entries(operation.responses as Json).filter(([status]) => status < '3');
      return successes.length === 0 || successes.some(([, response]) => !response.content);
    });
    expect(undescribed.map(({ label }) => label)).toEqual([]);
  });

  it('answers a case in the success envelope with its published object, open to fields added later', () => {
    const answer =
      document.paths['/benefit-verification/{id}'].get.responses['200'].content['application/json'];
    expect(answer.schema).toEqual({
      type: 'object',
      required: ['status', 'error', 'data'],
      properties: {
        status: { const: 'success' },
        error: { type: 'null' },
        data: { $ref: '#/components/schemas/BenefitVerification' },
      },
    });
    const verification = document.components.schemas.BenefitVerification;
    expect(verification.required).toEqual(expect.arrayContaining(['id', 'status', 'outcome', 'request']));
    const closed = Object.keys(publishedSchemas.schemas).filter((name) =>
      JSON.stringify(document.components.schemas[name]).includes('"additionalProperties":false'),
    );
    expect(closed).toEqual([]);
  });

  it('answers a list with a list object whose next_cursor pages on', () => {
    const list =
      document.paths['/events'].get.responses['200'].content['application/json'].schema.properties.data;
    expect(list.required).toEqual(['object', 'data', 'has_more', 'next_cursor']);
    expect(list.properties.data.items).toEqual({ $ref: '#/components/schemas/Event' });
  });

  it('describes each webhook event, thin and full, with the headers that sign it', () => {
    expect(Object.keys(document.webhooks).sort()).toEqual(
      [...Object.keys(SUBSCRIBABLE_EVENT_TYPES), 'webhook.test'].sort(),
    );
    const overdue = document.webhooks['prior_authorization.overdue'].post;
    expect(overdue.requestBody.content['application/json'].schema.anyOf).toEqual([
      { $ref: '#/components/schemas/Notification' },
      { $ref: '#/components/schemas/ThinNotification' },
    ]);
    expect(overdue.parameters.map((header: Json) => [header.name, header.in, header.required])).toEqual([
      ['X-Webhook-Secret', 'header', true],
      ['X-Webhook-Id', 'header', true],
    ]);
    const [thinCase, thinAuthorization] = document.components.schemas.ThinNotifiedObject.anyOf as Json[];
    expect(thinCase!.properties).toHaveProperty('livemode');
    expect(thinAuthorization!.properties.object).toMatchObject({ const: 'provider_authorization' });
  });

  it("lists the same event types and titles as docs/webhooks.md's table", () => {
    const webhooksPage = readFileSync(path.join(projectRoot(), 'docs/webhooks.md'), 'utf8');
    const table = webhooksPage.split('\n## Event types\n')[1]!.split('\n## ')[0]!;
    const rows = [...table.matchAll(/^\| `([a-z_.]+)` +\| ([^|]+?) +\|/gm)].map(([, type, title]) => [
      type,
      title,
    ]);
    const described = Object.entries(document.webhooks as Json).map(([type, item]) => [
      type,
      item.post.summary,
    ]);
    expect(rows.sort()).toEqual(described.sort());
  });

  it('lists only the roles an account may grant among the roles of a new API key', () => {
    expect(document.components.schemas.CreateApiKey.properties.roles.items.enum).toEqual([
      'provider',
      'reviewer',
      'admin',
    ]);
  });

  it('lists 403 where a role is needed, 404 where the path names an object and 409 on decisions', () => {
    const responses = (method: string, path: string) => Object.keys(document.paths[path][method].responses);
    expect(responses('post', '/prior-authorization/{id}/review')).toEqual(
      expect.arrayContaining(['403', '404', '409', '413', '415']),
    );
    expect(responses('get', '/prior-authorization')).not.toContain('404');
    expect(responses('post', '/prior-authorization')).toContain('409');
  });

  it("describes the download of a case's document on every case type that takes documents, with its 404", () => {
    for (const type of ['benefit-verification', 'prior-authorization', 'clinical-eligibility']) {
      const download = document.paths[`/${type}/{id}/documents/{document_id}`].get;
      expect(download.summary).toMatch(/^Download a document/);
      expect(Object.keys(download.responses)).toContain('404');
      expect(Object.keys(download.responses['200'].content)).toEqual(
        expect.arrayContaining(['image/png', 'image/jpeg', 'application/pdf', 'application/octet-stream']),
      );
    }
    expect(document.paths['/patient-enrollment/{id}/documents/{document_id}']).toBeUndefined();
  });

  it("describes the documents a case read on its GET, and the insurance card on a benefit verification's", () => {
    const described = (path: string) => document.paths[path].get.description as string;
    expect(described('/clinical-eligibility/{id}')).toContain('`documents[]`');
    expect(described('/benefit-verification/{id}')).toMatch(
      /`insurance_card`.*conflicts.*insurance_document_not_a_card/,
    );
  });

  it('declares the Idempotency-Key header and its 409 on every POST but the codec, which only computes', () => {
    const posts = operations().filter(({ label }) => label.startsWith('post ') && !label.includes('/codec/'));
    expect(posts.length).toBeGreaterThan(10);
    for (const { label, operation } of posts) {
      const header = operation.parameters.find((parameter: Json) => parameter.name === 'Idempotency-Key');
      expect({ label, in: header?.in, pattern: header?.schema.pattern }).toEqual({
        label,
        in: 'header',
        pattern: expect.any(String),
      });
      expect({ label, statuses: Object.keys(operation.responses) }).toEqual({
        label,
        statuses: expect.arrayContaining(['409']),
      });
    }
  });

  it('requires the bearer key on every operation, the codec included, but the JWKS URLs payers fetch', () => {
    for (const { label, operation } of operations()) {
      const security = isJwks(label) ? [] : [{ bearer: [] }];
      expect({ label, security: operation.security }).toEqual({ label, security });
    }
    expect(document.paths['/jwks/{jwksId}'].get.responses['401']).toBeUndefined();
  });

  it("states the validators' rules: lengths, formats, unknown fields and required combinations", () => {
    const schemas = document.components.schemas as Json;
    expect(schemas.CreatePriorAuthorization.additionalProperties).toBe(false);
    expect(schemas.ProviderInput.properties.npi).toMatchObject({ format: 'npi', pattern: '^[0-9]{10}$' });
    expect(schemas.CasePatientInput.properties.first_name).toMatchObject({ minLength: 1, maxLength: 100 });
    expect(schemas.Drug.allOf).toEqual([
      {
        anyOf: [
          { required: ['name'], properties: { name: { not: { enum: [null, '', []] } } } },
          { required: ['ndc'], properties: { ndc: { not: { enum: [null, '', []] } } } },
        ],
      },
    ]);
    expect(schemas.BenefitVerificationOutcomeInput.allOf).toContainEqual({
      if: { required: ['status'], properties: { status: { enum: ['completed'] } } },
      then: { required: ['coverage_status'] },
    });
  });

  it("lists a benefit verification's result fields, those read from a 271 included, on its GET", () => {
    const description = document.paths['/benefit-verification/{id}'].get.description as string;
    for (const field of [
      'coverage_dates',
      'pharmacy_benefits',
      'accumulators',
      'rejection',
      'unknown_reason',
      'benefit_type',
    ]) {
      expect(description).toMatch(new RegExp(`\`${field}(\\[\\])?\``));
    }
  });

  it('requires payer and member_id in insurance_content only when no card comes with it', () => {
    const schemas = document.components.schemas as Json;
    const given = (key: string, inner: Json = { not: { enum: [null, '', []] } }) => ({
      required: [key],
      properties: { [key]: inner },
    });
    const payerAndMember = {
      properties: { insurance_content: { allOf: [given('payer'), given('member_id')] } },
    };
    expect(schemas.CreateBenefitVerification.allOf).toContainEqual({
      if: {
        required: ['insurance_content'],
        not: { anyOf: [given('patient', given('insurance')), given('insurance')] },
      },
      then: payerAndMember,
    });
    expect(schemas.InsuranceContentInput.required ?? []).not.toContain('member_id');
    expect(schemas.CreateClinicalEligibility.allOf).toContainEqual(
      expect.objectContaining({ if: { required: ['insurance_content'] }, then: payerAndMember }),
    );
  });

  it('describes the clearinghouse payer id and the subscriber of a dependent in the request', () => {
    const content = document.components.schemas.InsuranceContentInput.properties;
    expect(JSON.stringify(content.payer_id)).toContain('"pattern":"^[A-Za-z0-9]{2,20}$"');
    expect(document.components.schemas.PolicySubscriberInput.properties.relationship).toMatchObject({
      enum: ['spouse', 'child', 'other'],
    });
  });

  it("describes an enrollment's patient authorization: its types, who signed, and a signing time not in the future", () => {
    const { schemas } = document.components;
    expect(JSON.stringify(schemas.CreatePatientEnrollment.properties.patient_authorization)).toContain(
      'patient_authorization_required',
    );
    expect(schemas.PatientAuthorizationInput.required).toEqual(
      expect.arrayContaining(['type', 'attested_by', 'attested_at', 'form_version']),
    );
    expect(schemas.PatientAuthorizationInput.properties.type).toMatchObject({
      enum: ['hipaa_authorization', 'program_consent'],
    });
    expect(schemas.PatientAuthorizationInput.properties.attested_at).toMatchObject({
      format: 'past-date-time',
    });
    expect(schemas.Attester.properties.relationship).toMatchObject({
      enum: ['patient', 'legal_representative'],
    });
  });

  it('states the rules of query parameters too', () => {
    const limit = (document.paths['/prior-authorization'].get.parameters as Json[]).find(
      (parameter) => parameter.name === 'limit',
    );
    expect(limit?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
  });
});
