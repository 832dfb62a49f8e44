import { ConfigError, loadConfig } from '../../infrastructure/config/config';

describe('configuration', () => {
  it('lists every bad key at once', () => {
    let caught: unknown;
    try {
      loadConfig('api', {
        NODE_ENV: 'production',
        PORT: 'eighty',
        DATABASE_URL: 'mysql://db',
        PAYLOAD_ENCRYPTION_KEYS: 'k1:dG9vLXNob3J0',
        TEMPORAL_TLS_CERT_PATH: '/certs/client.pem',
        LOG_LEVEL: 'chatty',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems.join('\n');
    for (const key of [
      'PORT',
      'DATABASE_URL',
      'TEMPORAL_ADDRESS',
      'PAYLOAD_ENCRYPTION_KEYS',
      'TEMPORAL_TLS_KEY_PATH',
      'LOG_LEVEL',
    ]) {
      expect(problems).toContain(key);
    }
  });

  it('refuses a clinical evaluation time limit not well under the 30-second activity timeout, saying why', () => {
    expect(() => loadConfig('local', { CLINICAL_EVALUATION_TIMEOUT_MS: '60000' })).toThrow(
      /CLINICAL_EVALUATION_TIMEOUT_MS must be at most 20000 \(got "60000"\): the clinical activities time out after 30 seconds/,
    );
    expect(
      loadConfig('local', { CLINICAL_EVALUATION_TIMEOUT_MS: '20000' }).clinicalEvaluation.taskTimeoutMs,
    ).toBe(20_000);
  });

  it('replaces a reading thread after 200 pages unless DOCUMENT_READING_RECYCLE_AFTER_PAGES says otherwise', () => {
    expect(loadConfig('local', {}).documentReading.recycleThreadAfterPages).toBe(200);
    expect(
      loadConfig('local', { DOCUMENT_READING_RECYCLE_AFTER_PAGES: '5000' }).documentReading
        .recycleThreadAfterPages,
    ).toBe(5_000);
    expect(() => loadConfig('local', { DOCUMENT_READING_RECYCLE_AFTER_PAGES: '0' })).toThrow(
      /DOCUMENT_READING_RECYCLE_AFTER_PAGES/,
    );
  });

  describe('the NPI registry URLs', () => {
    const production = {
      NODE_ENV: 'production',
      TEMPORAL_ADDRESS: 'temporal:7233',
      DATABASE_URL: 'postgres://app@db/app',
      PAYLOAD_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}`,
      PAYLOAD_ENCRYPTION_KEY_ID: 'k1',
    };
    const problemsOf = (mode: 'local' | 'worker', env: Record<string, string>): string[] => {
      try {
        loadConfig(mode, env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };

    it('asks NPPES over https by default, in production too', () => {
      expect(loadConfig('worker', production).providers.registryUrl).toBe(
        'https://npiregistry.cms.hhs.gov/api',
      );
      expect(problemsOf('worker', production)).toEqual([]);
    });

    it('refuses a live registry asked in clear in production, saying it must be https', () => {
      const problems = problemsOf('worker', {
        ...production,
        NPI_REGISTRY_URL: 'http://npiregistry.cms.hhs.gov/api',
      });
      expect(problems).toEqual([expect.stringMatching(/^NPI_REGISTRY_URL must be an https:\/\/ URL/)]);
    });

    it('takes an http registry on the local stack and outside production', () => {
      const loopback = 'http://127.0.0.1:8089/api/';
      expect(loadConfig('local', { NPI_REGISTRY_URL: loopback }).providers.registryUrl).toBe(
        'http://127.0.0.1:8089/api',
      );
      expect(problemsOf('local', { NODE_ENV: 'production', NPI_REGISTRY_URL: loopback })).toEqual([]);
      expect(problemsOf('worker', { ...production, NODE_ENV: 'test', NPI_REGISTRY_URL: loopback })).toEqual(
        [],
      );
    });

    it.each([
      ['a relative path', '/api'],
      ['no scheme', 'npiregistry.cms.hhs.gov/api'],
      ['another scheme', 'ftp://npiregistry.cms.hhs.gov/api'],
      ['a query', 'https://npiregistry.cms.hhs.gov/api?version=2.1'],
      ['a fragment', 'https://npiregistry.cms.hhs.gov/api#results'],
      ['credentials', 'https://user:secret@npiregistry.cms.hhs.gov/api'],
    ])('refuses a registry URL with %s, for live mode and the sandbox alike', (_, url) => {
      const problems = problemsOf('local', { NPI_REGISTRY_URL: url, SANDBOX_NPI_REGISTRY_URL: url });
      expect(problems).toEqual([
        expect.stringMatching(/^NPI_REGISTRY_URL must be an http:\/\/ or https:\/\/ URL/),
        expect.stringMatching(/^SANDBOX_NPI_REGISTRY_URL must be an http:\/\/ or https:\/\/ URL/),
      ]);
      expect(problems.join('\n')).not.toContain('secret');
    });

    it('takes an http sandbox registry in production, since it answers only test mode', () => {
      const sandbox = 'http://sandbox-registry.internal:8080/api';
      expect(
        loadConfig('worker', { ...production, SANDBOX_NPI_REGISTRY_URL: sandbox }).providers,
      ).toMatchObject({
        sandboxRegistryUrl: sandbox,
      });
    });
  });

  it('needs no settings in local mode', () => {
    const config = loadConfig('local', {});
    expect(config).toMatchObject({
      production: false,
      http: { port: 3000 },
      temporal: { address: '127.0.0.1:7233', namespace: 'default' },
      codec: { corsOrigins: ['http://localhost:8233'], trustLoopback: true },
    });
  });

  it('reads a hosted cluster with an API key and TLS in scale mode', () => {
    const config = loadConfig('worker', {
      NODE_ENV: 'production',
      TEMPORAL_ADDRESS: 'acme.tmprl.cloud:7233',
      TEMPORAL_NAMESPACE: 'acme.prod',
      TEMPORAL_API_KEY: 'cloud-key',
      DATABASE_URL: 'postgres://app@db/app',
      PAYLOAD_ENCRYPTION_KEYS: `old:${Buffer.alloc(32, 1).toString('base64')},new:${Buffer.alloc(32, 2).toString('base64')}`,
      PAYLOAD_ENCRYPTION_KEY_ID: 'new',
    });
    expect(config.temporal).toMatchObject({
      address: 'acme.tmprl.cloud:7233',
      namespace: 'acme.prod',
      apiKey: 'cloud-key',
    });
    expect(config.temporal.tls).toBeDefined();
    expect(config.encryption?.currentKeyId).toBe('new');
    expect(config.encryption?.keys.size).toBe(2);
    expect(config.codec.trustLoopback).toBe(false);
  });

  it('bounds every wait on the database, with the client waiting longer than the server', () => {
    expect(loadConfig('local', {}).databaseTimeouts).toEqual({
      connectMs: 5_000,
      statementMs: 10_000,
      queryMs: 15_000,
    });
    expect(loadConfig('local', { DATABASE_STATEMENT_TIMEOUT_MS: '30000' }).databaseTimeouts.queryMs).toBe(
      35_000,
    );
    expect(() =>
      loadConfig('local', { DATABASE_STATEMENT_TIMEOUT_MS: '30000', DATABASE_QUERY_TIMEOUT_MS: '20000' }),
    ).toThrow(/DATABASE_QUERY_TIMEOUT_MS must be longer than DATABASE_STATEMENT_TIMEOUT_MS/);
  });

  it('refuses a connector retry whose longest wait is shorter than its first, which Temporal would refuse', () => {
    expect(() =>
      loadConfig('local', {
        CONNECTOR_RETRY_INITIAL_INTERVAL_MS: '5000',
        CONNECTOR_RETRY_MAX_INTERVAL_MS: '1000',
      }),
    ).toThrow(/CONNECTOR_RETRY_MAX_INTERVAL_MS must be at least CONNECTOR_RETRY_INITIAL_INTERVAL_MS/);
  });

  it('serves no metrics unless METRICS_PORT is set, and binds them where METRICS_HOST says', () => {
    expect(loadConfig('local', {}).metrics).toEqual({ host: '0.0.0.0' });
    expect(loadConfig('local', { METRICS_PORT: '9464', METRICS_HOST: '127.0.0.1' }).metrics).toEqual({
      host: '127.0.0.1',
      port: 9464,
    });
  });

  it('refuses a METRICS_PORT that is not a port, or is the API port, saying why', () => {
    expect(() => loadConfig('local', { METRICS_PORT: '70000' })).toThrow(
      /METRICS_PORT must be an integer from 1 to 65535 \(got "70000"\)/,
    );
    expect(() => loadConfig('local', { METRICS_PORT: 'metrics' })).toThrow(/METRICS_PORT must be an integer/);
    expect(() => loadConfig('local', { PORT: '8080', METRICS_PORT: '8080' })).toThrow(
      /METRICS_PORT must differ from PORT/,
    );
  });

  it('refuses a METRICS_HOST that is a name rather than an address, which the worker cannot bind', () => {
    expect(() => loadConfig('local', { METRICS_PORT: '9464', METRICS_HOST: 'localhost' })).toThrow(
      /METRICS_HOST must be an IP address/,
    );
  });
});
