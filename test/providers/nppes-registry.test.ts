import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { DAY_MS } from '../../domain/durations';
import { RegistryQueryError, RegistryUnavailableError } from '../../domain/providers/npi-registry';
import { CachedRegistry } from '../../infrastructure/providers/cached-registry';
import { NpiRegistries } from '../../infrastructure/providers/npi-registries';
import { MAX_REGISTRY_ANSWER_BYTES, NppesRegistry } from '../../infrastructure/providers/nppes-registry';
import { SANDBOX_NPIS, SandboxRegistry } from '../../infrastructure/providers/sandbox-registry';
import type { Principal } from '../../infrastructure/accounts/accounts.repository';
import type { ProviderSettings } from '../../infrastructure/config/config';
import { ProviderLookupService } from '../../src/providers/provider-lookup.service';
import { LoopbackNpiRegistry } from '../support/loopback-npi-registry';

const TIME_LIMIT_MS = 300;

describe('the NPPES client against a loopback registry', () => {
  const loopback = new LoopbackNpiRegistry();
  let registry: NppesRegistry;
  let registryUrl: string;

  beforeAll(async () => {
    registryUrl = await loopback.start();
    registry = new NppesRegistry({ url: registryUrl, timeoutMs: TIME_LIMIT_MS });
  });
  afterEach(() => loopback.recover());
  afterAll(() => loopback.stop());

  it('asks version 2.1 of the API for one NPI and reads the active individual in our shape', async () => {
    const record = await registry.byNpi(SANDBOX_NPIS.active);
    expect(loopback.requests.at(-1)).toBe(`/api/?version=2.1&number=${SANDBOX_NPIS.active}`);
    expect(record).toEqual({
      npi: '1234567893',
      type: 'individual',
      name: 'AMADOU REVIEWSWORTH',
      first_name: 'AMADOU',
      last_name: 'REVIEWSWORTH',
      other_names: [
        { first_name: 'DEMO', last_name: 'PRESCRIBER' },
        { first_name: 'BENCH', last_name: 'PROVIDER' },
        { first_name: 'SAM', last_name: 'RAY' },
      ],
      credential: 'MD',
      taxonomy: { code: '207Q00000X', description: 'Family Medicine' },
      practice_address: {
        line1: '100 SANDBOX WAY',
        line2: 'SUITE 200',
        city: 'PORTLAND',
        state: 'OR',
        postal_code: '972010000',
        phone: '503-555-0100',
      },
      active: true,
    });
  });

  it('takes the primary taxonomy and the practice location, whatever their order', async () => {
    const record = await registry.byNpi(SANDBOX_NPIS.activeHyphenated);
    expect(record?.name).toBe("ELODIE M D'ARCY-NGUYEN");
    expect(record?.middle_name).toBe('M');
    expect(record?.taxonomy).toEqual({ code: '207R00000X', description: 'Internal Medicine' });
    expect(record?.practice_address?.city).toBe('SEATTLE');
  });

  it('answers nothing for an NPI the registry does not return', async () => {
    await expect(registry.byNpi(SANDBOX_NPIS.notReturned)).resolves.toBeUndefined();
  });

  it('reads an organization by its name, without a person to match', async () => {
    const record = await registry.byNpi(SANDBOX_NPIS.organization);
    expect(record).toMatchObject({
      type: 'organization',
      name: 'SANDBOX RIVERSIDE FAMILY PRACTICE',
      first_name: null,
      last_name: null,
      credential: null,
      active: true,
    });
  });

  it('reads a deactivated NPI as inactive', async () => {
    expect(await registry.byNpi(SANDBOX_NPIS.deactivated)).toMatchObject({
      name: 'CASSIUS VANTERPOOL',
      active: false,
    });
  });

  it('searches individuals by last name in a state, within the limit it asks for', async () => {
    const found = await registry.byName('Quintero', 'OR', 5);
    expect(loopback.requests.at(-1)).toBe(
      '/api/?version=2.1&last_name=Quintero&state=OR&enumeration_type=NPI-1&limit=5',
    );
    expect(found.map((record) => record.name)).toEqual(['LUCIA QUINTERO', 'MATEO R QUINTERO']);
    expect(await registry.byName('Quintero', 'OR', 1)).toHaveLength(1);
  });

  it("turns the registry's Errors answer into a refused query naming our field, not its words", async () => {
    loopback.refuseQueries('last_name');
    const refusal = await registry.byName('Q', 'OR').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RegistryQueryError);
    expect((refusal as RegistryQueryError).fields).toEqual(['last_name']);
    expect((refusal as Error).message).not.toContain('two characters');
  });

  it.each([
    ['answers 503', () => (loopback.down = 'status')],
    ['resets the connection', () => (loopback.down = 'reset')],
    [
      'answers something other than JSON',
      () => (loopback.reply = { status: 200, body: '<html>down</html>' }),
    ],
    ['answers neither results nor Errors', () => (loopback.reply = { status: 200, body: '{}' })],
    [
      'answers records it cannot read',
      () => (loopback.reply = { status: 200, body: '{"results":[{"number":1}]}' }),
    ],
    [
      'answers more than the service reads',
      () =>
        (loopback.reply = {
          status: 200,
          body: `{"results":[],"pad":"${'x'.repeat(MAX_REGISTRY_ANSWER_BYTES)}"}`,
        }),
    ],
  ])('is unavailable when the registry %s', async (_, play) => {
    play();
    await expect(registry.byNpi(SANDBOX_NPIS.active)).rejects.toBeInstanceOf(RegistryUnavailableError);
  });

  it('is unavailable when the registry redirects, without following it', async () => {
    const redirecting = createServer((req, res) => {
      res.writeHead(302, { Location: `${registryUrl}${req.url?.replace(/^\/api/, '') ?? ''}` }).end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = redirecting.address() as AddressInfo;
      const redirected = new NppesRegistry({ url: `http://127.0.0.1:${port}/api`, timeoutMs: TIME_LIMIT_MS });
      const before = loopback.requestsServed;
      await expect(redirected.byNpi(SANDBOX_NPIS.active)).rejects.toBeInstanceOf(RegistryUnavailableError);
      expect(loopback.requestsServed).toBe(before);
    } finally {
      await new Promise<void>((resolve) => redirecting.close(() => resolve()));
    }
  });

  it('gives up at its time limit', async () => {
    loopback.delayMs = TIME_LIMIT_MS * 4;
    const started = Date.now();
    const failure = await registry.byNpi(SANDBOX_NPIS.active).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RegistryUnavailableError);
    expect((failure as RegistryUnavailableError).reason).toBe(`no answer within ${TIME_LIMIT_MS} ms`);
    expect(Date.now() - started).toBeLessThan(TIME_LIMIT_MS * 3);
  });

  it("is unavailable for the sandbox's outage NPI, as the live registry's 503 would be", async () => {
    await expect(registry.byNpi(SANDBOX_NPIS.registryDown)).rejects.toBeInstanceOf(RegistryUnavailableError);
  });
});

describe('the cached registry in front of the loopback registry', () => {
  const loopback = new LoopbackNpiRegistry();
  let url: string;
  let clock: number;
  const settings = (): ProviderSettings => ({
    registryUrl: url,
    registryTimeoutMs: TIME_LIMIT_MS,
    registryCacheMs: DAY_MS,
    signingLinkTtlMs: 14 * DAY_MS,
    signingReminderAfterMs: 7 * DAY_MS,
    renewalReminderBeforeMs: 30 * DAY_MS,
    requestOriginRetentionDays: 90,
  });

  beforeAll(async () => {
    url = await loopback.start();
  });
  beforeEach(() => {
    clock = 1_000_000;
    loopback.recover();
  });
  afterAll(() => loopback.stop());

  const liveRegistry = () => new NpiRegistries(settings(), { now: () => clock }).forMode(true);

  it('answers a second lookup of an NPI without asking the registry, for a day', async () => {
    const registry = liveRegistry();
    const before = loopback.requestsServed;
    const first = await registry.byNpi(SANDBOX_NPIS.active);
    clock += DAY_MS - 1;
    expect(await registry.byNpi(SANDBOX_NPIS.active)).toEqual(first);
    expect(loopback.requestsServed - before).toBe(1);
    clock += 1;
    await registry.byNpi(SANDBOX_NPIS.active);
    expect(loopback.requestsServed - before).toBe(2);
  });

  it('keeps "not returned" as an answer too', async () => {
    const registry = liveRegistry();
    const before = loopback.requestsServed;
    expect(await registry.byNpi(SANDBOX_NPIS.notReturned)).toBeUndefined();
    expect(await registry.byNpi(SANDBOX_NPIS.notReturned)).toBeUndefined();
    expect(loopback.requestsServed - before).toBe(1);
  });

  it('asks once for lookups of one NPI made while the first is on its way', async () => {
    const registry = liveRegistry();
    const before = loopback.requestsServed;
    loopback.delayMs = 50;
    const answers = await Promise.all([1, 2, 3].map(() => registry.byNpi(SANDBOX_NPIS.organization)));
    expect(answers.map((record) => record?.type)).toEqual(['organization', 'organization', 'organization']);
    expect(loopback.requestsServed - before).toBe(1);
  });

  it('never keeps a failure: once the registry is back, the next lookup asks again', async () => {
    const registry = liveRegistry();
    loopback.down = 'status';
    await expect(registry.byNpi(SANDBOX_NPIS.deactivated)).rejects.toBeInstanceOf(RegistryUnavailableError);
    loopback.recover();
    expect(await registry.byNpi(SANDBOX_NPIS.deactivated)).toMatchObject({ active: false });
  });

  it('never keeps an answer without results as "not returned"', async () => {
    const registry = liveRegistry();
    loopback.reply = { status: 200, body: '{}' };
    await expect(registry.byNpi(SANDBOX_NPIS.active)).rejects.toBeInstanceOf(RegistryUnavailableError);
    loopback.recover();
    expect(await registry.byNpi(SANDBOX_NPIS.active)).toMatchObject({ npi: SANDBOX_NPIS.active });
  });

  it('keeps at most its bound of answers, dropping the oldest', async () => {
    const sandbox = new SandboxRegistry();
    const asked: string[] = [];
    const counting = new CachedRegistry(
      {
        byNpi: (npi) => {
          asked.push(npi);
          return sandbox.byNpi(npi);
        },
        byName: (lastName, state, limit) => sandbox.byName(lastName, state, limit),
      },
      { ttlMs: DAY_MS, maxEntries: 2 },
    );
    for (const npi of [SANDBOX_NPIS.active, SANDBOX_NPIS.organization, SANDBOX_NPIS.deactivated]) {
      await counting.byNpi(npi);
    }
    await counting.byNpi(SANDBOX_NPIS.deactivated);
    await counting.byNpi(SANDBOX_NPIS.active);
    expect(asked).toEqual([
      SANDBOX_NPIS.active,
      SANDBOX_NPIS.organization,
      SANDBOX_NPIS.deactivated,
      SANDBOX_NPIS.active,
    ]);
  });
});

describe('the registries of each mode', () => {
  const base: ProviderSettings = {
    registryUrl: 'http://127.0.0.1:9/api',
    registryTimeoutMs: TIME_LIMIT_MS,
    registryCacheMs: DAY_MS,
    signingLinkTtlMs: 14 * DAY_MS,
    signingReminderAfterMs: 7 * DAY_MS,
    renewalReminderBeforeMs: 30 * DAY_MS,
    requestOriginRetentionDays: 90,
  };

  it('answers test mode from the sandbox fixture in-process when no sandbox registry URL is set', async () => {
    const asked: string[] = [];
    const spy: typeof fetch = (input) => {
      asked.push(String(input));
      return Promise.reject(new Error('no network in this test'));
    };
    const registries = new NpiRegistries(base, { fetch: spy });
    expect(await registries.forMode(false).byNpi(SANDBOX_NPIS.active)).toMatchObject({ active: true });
    await expect(registries.forMode(false).byName('unavailable', 'OR')).rejects.toBeInstanceOf(
      RegistryUnavailableError,
    );
    expect(asked).toEqual([]);
    await expect(registries.forMode(true).byNpi(SANDBOX_NPIS.active)).rejects.toBeInstanceOf(
      RegistryUnavailableError,
    );
    expect(asked).toEqual([`http://127.0.0.1:9/api/?version=2.1&number=${SANDBOX_NPIS.active}`]);
  });

  it('asks the sandbox registry URL in test mode when one is set', async () => {
    const asked: string[] = [];
    const spy: typeof fetch = (input) => {
      asked.push(String(input));
      return Promise.resolve(new Response('{"result_count":0,"results":[]}', { status: 200 }));
    };
    const registries = new NpiRegistries(
      { ...base, sandboxRegistryUrl: 'http://127.0.0.1:8/api' },
      { fetch: spy },
    );
    expect(await registries.forMode(false).byNpi(SANDBOX_NPIS.active)).toBeUndefined();
    expect(asked).toEqual([`http://127.0.0.1:8/api/?version=2.1&number=${SANDBOX_NPIS.active}`]);
  });
});

describe('a lookup by name, asked of the loopback registry', () => {
  const loopback = new LoopbackNpiRegistry();
  const livePrincipal: Principal = {
    accountId: 'acct_lookup',
    roles: ['provider'],
    credential: { type: 'api_key', id: 'key_lookup' },
    livemode: true,
  };
  let registryUrl: string;

  beforeAll(async () => {
    registryUrl = await loopback.start();
  });
  afterAll(() => loopback.stop());

  /** A lookup service of its own, whose registry cache has not seen the name yet. */
  const lookups = () =>
    new ProviderLookupService(
      new NpiRegistries({
        registryUrl,
        registryTimeoutMs: TIME_LIMIT_MS,
        registryCacheMs: DAY_MS,
        signingLinkTtlMs: 14 * DAY_MS,
        signingReminderAfterMs: 7 * DAY_MS,
        renewalReminderBeforeMs: 30 * DAY_MS,
        requestOriginRetentionDays: 90,
      }),
    );

  it.each(['Quintero Jr.', 'quintero, III', 'Quintero M.D.', 'Quintero Sr., MD'])(
    'asks NPPES for the last name alone when it is written %p, and finds the prescribers of that name',
    async (written) => {
      const found = await lookups().byName(livePrincipal, written, 'or');
      expect(loopback.requests.at(-1)).toBe(
        '/api/?version=2.1&last_name=QUINTERO&state=OR&enumeration_type=NPI-1&limit=21',
      );
      expect(found.data.map((record) => record.name)).toEqual(['LUCIA QUINTERO', 'MATEO R QUINTERO']);
    },
  );
});
