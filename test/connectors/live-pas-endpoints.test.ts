import { MockActivityEnvironment } from '@temporalio/testing';

import { livePasEndpoints } from '../../activities/live-pas-endpoints';
import type { ConnectorSettings } from '../../domain/connectors/connector-settings';
import { ConnectorError } from '../../domain/failures';
import { caseDocumentAttachments } from '../../infrastructure/connectors/pas/pas-attachments';
import { WebhookTargetPolicy } from '../../infrastructure/webhooks/target-policy';
import { ClearinghouseServer } from '../support/clearinghouse-server';

const loopbackAllowed = new WebhookTargetPolicy(['127.0.0.0/8']);

describe("An account's live PAS endpoint", () => {
  let server: ClearinghouseServer;
  let url: string;

  beforeEach(async () => {
    server = new ClearinghouseServer(() => 'hang');
    url = await server.start();
  });
  afterEach(() => server.stop());

  const settingsWith = (connector: ConnectorSettings | undefined) => ({
    readForUse: async (_accountId: string, kind: string) =>
      connector?.kind === kind ? connector : undefined,
  });

  it('is absent when the account has no prior_authorization connector', async () => {
    const endpoints = livePasEndpoints(settingsWith(undefined), loopbackAllowed);
    await expect(new MockActivityEnvironment().run(() => endpoints('acct_1'))).resolves.toBeUndefined();
  });

  it("ends its call before the activity attempt's deadline, however long the connector would wait", async () => {
    const endpoints = livePasEndpoints(
      settingsWith({ kind: 'prior_authorization', url, auth: { type: 'none' }, timeoutMs: 30_000 }),
      loopbackAllowed,
    );
    // A 3 s attempt leaves 1 s once the reporting margin (2 s) is kept.
    const environment = new MockActivityEnvironment({ startToCloseTimeoutMs: 3_000 });
    const started = Date.now();
    const error = await environment
      .run(async () => (await endpoints('acct_1'))!.submit('{}'))
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ConnectorError);
    expect((error as ConnectorError).transient).toBe(true);
    expect(Date.now() - started).toBeLessThan(3_000);
    const [, waitedMs] = /within (\d+) ms/.exec((error as ConnectorError).message) ?? [];
    expect(Number(waitedMs)).toBeLessThanOrEqual(1_000);
    expect(server.requests[0]!.url).toBe('/eligibility/Claim/$submit');
  });
});

describe('Documents attached to an information answer', () => {
  it('are read from the case documents and typed by their first bytes', async () => {
    const read = caseDocumentAttachments({
      read: async (ids: string[]) => ids.map((id) => Buffer.from(id === 'doc_pdf' ? '%PDF-1.7 …' : 'plain')),
    });
    await expect(read(['doc_pdf', 'doc_other'])).resolves.toEqual([
      { title: 'Attached document 1', contentType: 'application/pdf', data: Buffer.from('%PDF-1.7 …') },
      { title: 'Attached document 2', contentType: 'application/octet-stream', data: Buffer.from('plain') },
    ]);
  });
});
