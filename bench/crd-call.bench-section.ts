import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { CoverageRequirementsQuery } from '../domain/payers/coverage-requirements';
import { generateSigningKey } from '../infrastructure/connectors/connector-signing-keys';
import type { CdsHooksRequest } from '../infrastructure/connectors/crd/cds-hooks';
import { signCdsHooksJwt } from '../infrastructure/connectors/crd/cds-hooks-jwt';
import { discoverCoverageRequirements } from '../infrastructure/connectors/crd/crd-client';
import { answerOrderSign } from '../infrastructure/connectors/crd/simulated-crd-service';
import { WebhookTargetPolicy } from '../infrastructure/webhooks/target-policy';
import { patient, provider } from './bench-requests';
import { ms, percentile } from './support';

const CALLS = Number(process.env.BENCH_CRD_CALLS ?? 200);

/**
 * What the CRD step adds to a live prior authorization: the activity's call, one at a time, against a
 * payer's CRD service on loopback that answers at once (the sandbox's answer), from writing the
 * `order-sign` request and signing its JWT to the requirements read from the answer. The payer's own
 * time comes on top.
 */
export async function crdCallLatency(): Promise<string[]> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = JSON.parse(Buffer.concat(chunks).toString()) as CdsHooksRequest;
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify(answerOrderSign(request, 'auth-needed')));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cds-services/crd-order-sign`;
    const key = await generateSigningKey();
    const claims = {
      issuer: 'https://bench.example/crd',
      audience: url,
      jwksUrl: 'https://bench.example/jwks/x',
    };
    const policy = new WebhookTargetPolicy(['127.0.0.0/8']);
    const query: CoverageRequirementsQuery = {
      caseId: 'pa_bench',
      accountId: 'acct_bench',
      mode: 'live',
      patient: patient() as CoverageRequirementsQuery['patient'],
      prescription: { drug_name: 'Remicade 100 mg vial', quantity: 4 },
      provider,
      plan: null,
      benefit: 'medical',
      diagnoses: [{ code: 'K50.90' }],
      mock: null,
    };
    const call = () =>
      discoverCoverageRequirements(
        { url, timeoutMs: 3_000 },
        () => signCdsHooksJwt(key, claims),
        query,
        policy,
      );
    for (let warm = 0; warm < 10; warm += 1) await call();
    const calls: number[] = [];
    const signing: number[] = [];
    for (let run = 0; run < CALLS; run += 1) {
      let started = performance.now();
      await signCdsHooksJwt(key, claims);
      signing.push(performance.now() - started);
      started = performance.now();
      const answer = await call();
      calls.push(performance.now() - started);
      if (answer.kind !== 'answered')
        throw new Error(`The loopback CRD service was not read: ${answer.kind}`);
    }
    return [
      `CRD order-sign call against a loopback service (${CALLS} one at a time, request, JWT and answer included)`,
      `  call                p50 ${ms(percentile(calls, 50))}   p99 ${ms(percentile(calls, 99))}`,
      `  of which the JWT    p50 ${ms(percentile(signing, 50))}   p99 ${ms(percentile(signing, 99))}`,
      '',
    ];
  } finally {
    server.close();
  }
}
