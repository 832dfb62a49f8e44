import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { newId } from '../domain/ids';
import type { ProviderAuthorization } from '../domain/providers/provider-authorization';
import { ProviderAuthorizationsRepository } from '../infrastructure/provider-authorizations/provider-authorizations.repository';
import { loadConfig } from '../infrastructure/config/config';
import { type Database, openDatabase } from '../infrastructure/storage/database';
import type { CaseType } from '../src/cases/case-type';
import { providerAuthorizationAdmission } from '../src/provider-authorizations/provider-authorization-admission';
import type { Api } from './stack';
import { bvRequest, paRequest, provider } from './bench-requests';
import { ms, percentile } from './support';

const POSTS = Number(process.env.BENCH_PROVIDER_POSTS ?? 100);
const LOOKUPS = Number(process.env.BENCH_REGISTRY_LOOKUPS ?? 200);

/**
 * What a BV or PA POST costs at the API, one at a time on an idle stack: the answer's latency, 201
 * included, without waiting for the case. Run with the account's enforcement as it is set, so a
 * build with and one without the provider-authorization check compare directly.
 */
export async function casePostLatency(api: Api, label: string): Promise<string[]> {
  const lines = [`Case creation at the API, one at a time (${POSTS} each; ${label})`];
  for (const [route, body] of [
    ['/benefit-verification', bvRequest],
    ['/prior-authorization', paRequest],
  ] as const) {
    await post(api, route, body()); // warm-up
    const latencies: number[] = [];
    for (let run = 0; run < POSTS; run += 1) {
      const startedAt = performance.now();
      await post(api, route, body());
      latencies.push(performance.now() - startedAt);
    }
    lines.push(
      `  POST ${route.padEnd(22)} → 201   p50 ${ms(percentile(latencies, 50))}   p99 ${ms(percentile(latencies, 99))}`,
    );
  }
  return lines;
}

/**
 * The same POSTs with the account requiring its prescribers' authorization in test mode, the bench's
 * prescriber authorized: what enforcement adds is the difference from the run without it. The signed
 * authorization is written into the stack's database as its workflow would write it; signing through
 * the page is the tests' to prove.
 */
export async function enforcedCasePostLatency(api: Api, databaseUrl: string): Promise<string[]> {
  const enforce = await api('/account-settings', {
    method: 'PATCH',
    body: JSON.stringify({ require_provider_authorization: { test: true } }),
  });
  if (enforce.status !== 200) throw new Error(`PATCH /account-settings answered ${enforce.status}`);
  const db = await openDatabase({ databaseUrl });
  let admitted: number[];
  try {
    const [key] = await db.query<{ account_id: string }>(
      'SELECT account_id FROM api_keys WHERE revoked_at IS NULL ORDER BY created_at LIMIT 1',
    );
    await authorizeSigned(new ProviderAuthorizationsRepository(db), key!.account_id, provider.npi);
    admitted = await admissionCheckLatencies(db, key!.account_id);
  } finally {
    await db.close();
  }
  // The setting is reused a few seconds per API process: wait until an unauthorized NPI is refused.
  const unauthorized = { ...bvRequest(), provider: { ...provider, npi: '1000000012' } };
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answer = await api('/benefit-verification', { method: 'POST', body: JSON.stringify(unauthorized) });
    if (answer.status === 409) break;
    if (Date.now() > deadline) throw new Error('enforcement never took effect');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return [
    ...(await casePostLatency(api, 'enforcement on, the prescriber authorized')),
    `  the check alone (admission of a BV, authorized NPI, over the stack's database socket)   p50 ${ms(percentile(admitted, 50))}   p99 ${ms(percentile(admitted, 99))}`,
  ];
}

/**
 * What enforcement adds to a POST, apart from the noise of the whole request: the API's admission
 * of a BV whose prescriber is authorized, as the API process runs it (settings reused, one indexed
 * lookup), against the stack's own database.
 */
async function admissionCheckLatencies(db: Database, accountId: string): Promise<number[]> {
  const admission = providerAuthorizationAdmission({ config: loadConfig('local', {}), db });
  const principal = {
    accountId,
    roles: ['provider' as const],
    credential: { type: 'api_key' as const, id: 'key_bench' },
    livemode: false,
  };
  const type = { object: 'benefit_verification' } as CaseType;
  const latencies: number[] = [];
  for (let run = 0; run < POSTS * 5; run += 1) {
    const startedAt = performance.now();
    await admission.admit(principal, type, bvRequest());
    latencies.push(performance.now() - startedAt);
  }
  return latencies;
}

async function authorizeSigned(
  authorizations: ProviderAuthorizationsRepository,
  accountId: string,
  npi: string,
): Promise<void> {
  const now = new Date();
  const pending: ProviderAuthorization = {
    id: newId('providerAuthorization'),
    object: 'provider_authorization',
    npi,
    first_name: provider.first_name,
    last_name: provider.last_name,
    email: 'bench.provider@example.test',
    phone: null,
    practice: null,
    status: 'pending',
    link_expires_at: new Date(now.getTime() + 86_400_000).toISOString(),
    signed_at: null,
    expires_at: null,
    revoked_at: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  const scope = { accountId, livemode: false };
  await authorizations.insertPending(scope, pending, { periodDays: 365, renewableFrom: now }, null);
  await authorizations.write(
    {
      ...pending,
      status: 'signed',
      link_expires_at: null,
      signed_at: now.toISOString(),
      expires_at: new Date(now.getTime() + 365 * 86_400_000).toISOString(),
    },
    1,
  );
}

async function post(api: Api, route: string, body: unknown): Promise<void> {
  const response = await api(route, { method: 'POST', body: JSON.stringify(body) });
  if (response.status !== 201)
    throw new Error(`POST ${route} answered ${response.status}: ${await response.text()}`);
}

/**
 * `GET /providers/lookup?npi=` one at a time: a registry miss asks the loopback registry (a distinct
 * NPI each time), a hit repeats one NPI the cache holds. The registry answers at once, so a miss shows
 * the service's own cost of asking.
 */
export async function registryLookupLatency(api: Api, npis: string[]): Promise<string[]> {
  const misses: number[] = [];
  for (const npi of npis.slice(0, LOOKUPS)) misses.push(await lookup(api, npi));
  const hits: number[] = [];
  for (let run = 0; run < LOOKUPS; run += 1) hits.push(await lookup(api, npis[0]!));
  return [
    `NPI registry lookups, one at a time (${Math.min(LOOKUPS, npis.length)} misses, ${LOOKUPS} hits)`,
    `  GET /providers/lookup, from the cache       p50 ${ms(percentile(hits, 50))}   p99 ${ms(percentile(hits, 99))}`,
    `  GET /providers/lookup, loopback registry    p50 ${ms(percentile(misses, 50))}   p99 ${ms(percentile(misses, 99))}`,
  ];
}

async function lookup(api: Api, npi: string): Promise<number> {
  const startedAt = performance.now();
  const response = await api(`/providers/lookup?npi=${npi}`);
  if (response.status !== 200)
    throw new Error(`lookup answered ${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
  return performance.now() - startedAt;
}

/** NPIs that pass the check digit (the 80840 prefix rule), distinct, in order. */
export function validNpis(count: number): string[] {
  const npis: string[] = [];
  for (let base = 100_000_000; npis.length < count; base += 1) {
    const body = String(base).padStart(9, '1');
    npis.push(body + checkDigit(body));
  }
  return npis;
}

function checkDigit(body: string): number {
  let sum = 24; // the 80840 prefix's contribution to the Luhn sum
  [...body].reverse().forEach((digit, index) => {
    let value = Number(digit);
    if (index % 2 === 0) value *= 2;
    sum += value > 9 ? value - 9 : value;
  });
  return (10 - (sum % 10)) % 10;
}

/**
 * A registry on loopback answering NPPES's shape at once: every NPI is an active family physician,
 * so the bench measures the service, not a registry.
 */
export async function startLoopbackRegistry(): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    const npi = new URL(req.url ?? '/', 'http://registry').searchParams.get('number') ?? '';
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(
      JSON.stringify({
        result_count: 1,
        results: [
          {
            number: npi,
            enumeration_type: 'NPI-1',
            basic: { first_name: 'BENCH', last_name: 'PROVIDER', credential: 'MD', status: 'A' },
            addresses: [
              {
                address_purpose: 'LOCATION',
                address_1: '1 BENCH WAY',
                city: 'SPRINGFIELD',
                state: 'IL',
                postal_code: '627010000',
                telephone_number: '555-010-0200',
              },
            ],
            taxonomies: [{ code: '207Q00000X', desc: 'Family Medicine', primary: true }],
          },
        ],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => server.close(),
  };
}
