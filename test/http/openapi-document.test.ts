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

  it('lists 400, 401, 429 and 503 in the error envelope on every operation, 429 with Retry-After', () => {
    for (const { label, operation } of operations()) {
      for (const status of ['400', '401', '429', '503']) {
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

  it('lists 403 where a role is needed, 404 where the path names an object and 409 on decisions', () => {
    const responses = (method: string, path: string) => Object.keys(document.paths[path][method].responses);
    expect(responses('post', '/prior-authorization/{id}/review')).toEqual(
      expect.arrayContaining(['403', '404', '409', '413', '415']),
    );
    expect(responses('get', '/prior-authorization')).not.toContain('404');
    expect(responses('post', '/prior-authorization')).toContain('409');
  });

  it('requires the bearer key on every operation, the codec included', () => {
    for (const { label, operation } of operations()) {
      expect({ label, security: operation.security }).toEqual({ label, security: [{ bearer: [] }] });
    }
  });

  it("states the validators' rules: lengths, formats, unknown fields and required combinations", () => {
    const schemas = document.components.schemas as Json;
    expect(schemas.CreatePriorAuthorizationDto.additionalProperties).toBe(false);
    expect(schemas.ProviderDto.properties.npi).toMatchObject({ format: 'npi', pattern: '^[0-9]{10}$' });
    expect(schemas.CasePatientDto.properties.first_name).toMatchObject({ minLength: 1, maxLength: 100 });
    expect(schemas.DrugDto.anyOf).toEqual([
      { required: ['name'], properties: { name: { not: { enum: [null, '', []] } } } },
      { required: ['ndc'], properties: { ndc: { not: { enum: [null, '', []] } } } },
    ]);
    expect(schemas.BenefitVerificationOutcomeDto).toMatchObject({
      if: { required: ['status'], properties: { status: { enum: ['completed'] } } },
      then: { required: ['coverage_status'] },
    });
  });

  it('states the rules of query parameters too', () => {
    const limit = (document.paths['/prior-authorization'].get.parameters as Json[]).find(
      (parameter) => parameter.name === 'limit',
    );
    expect(limit?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
  });
});
