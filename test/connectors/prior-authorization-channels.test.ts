import { MockActivityEnvironment } from '@temporalio/testing';

import { livePasEndpoints, priorAuthorizationChannels } from '../../activities/prior-authorization-channels';
import type { ConnectorSettings } from '../../domain/connectors/connector-settings';
import { ConnectorError } from '../../domain/failures';
import { WebhookTargetPolicy } from '../../infrastructure/webhooks/target-policy';
import type { PriorAuthorizationChannel } from '../../domain/payers/prior-authorization-exchange';
import { SimulatedPasEndpoint } from '../../infrastructure/connectors/pas/simulated-pas-endpoint';
import { ClearinghouseServer } from '../support/clearinghouse-server';
import { EVERY_KIND_OF_ANSWER, remicadeExchange } from '../support/pas-exchanges';

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

describe('The channel a prior authorization goes through', () => {
  const { approved, denied } = EVERY_KIND_OF_ANSWER;
  const simulator: PriorAuthorizationChannel = {
    submit: async () => denied!,
    inquire: async () => denied!,
    answerInformationRequest: async () => denied!,
  };
  const channels = (endpoint?: SimulatedPasEndpoint) =>
    priorAuthorizationChannels({
      simulator,
      livePasEndpoint: async () => endpoint,
    });

  it("is the simulator's, answered through PAS, in test mode", async () => {
    const channel = await channels()(remicadeExchange({ livemode: false }));
    await expect(channel.submit(remicadeExchange({ livemode: false }))).resolves.toEqual(denied);
  });

  it("is the account's PAS endpoint for a live medical-benefit drug", async () => {
    const channel = await channels(new SimulatedPasEndpoint(approved!))(remicadeExchange());
    await expect(channel.submit(remicadeExchange())).resolves.toEqual(approved);
  });

  it('fails permanently, saying why, without a connector or for a pharmacy-benefit drug', async () => {
    await expect(channels()(remicadeExchange())).rejects.toMatchObject({
      transient: false,
      message: 'No prior_authorization connector is configured for this account.',
    });
    const pharmacy = remicadeExchange();
    pharmacy.request.prescription = { drug_name: 'Ozempic 1 mg pen', quantity: 1 };
    await expect(channels(new SimulatedPasEndpoint(approved!))(pharmacy)).rejects.toThrow(
      /medical-benefit drugs only/,
    );
  });
});
