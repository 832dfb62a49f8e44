import { readFileSync } from 'node:fs';
import path from 'node:path';

import type {
  PayerPriorAuthAnswer,
  PriorAuthorizationChannel,
} from '../../domain/payers/prior-authorization-exchange';
import { MalformedPasRequestError } from '../../infrastructure/connectors/pas/pas-errors';
import {
  readPasRequest,
  SimulatedPasEndpoint,
  simulatedPasChannel,
} from '../../infrastructure/connectors/pas/simulated-pas-endpoint';
import {
  EVERY_KIND_OF_ANSWER,
  remicadeExchange,
  remicadeInformation,
  remicadeInquiry,
} from '../support/pas-exchanges';

/** A payer that has already decided, as the payer simulator would, and records what it was asked. */
function deciding(answer: PayerPriorAuthAnswer) {
  const asked: string[] = [];
  const decider: PriorAuthorizationChannel = {
    submit: async () => (asked.push('submit'), answer),
    inquire: async () => (asked.push('inquire'), answer),
    answerInformationRequest: async () => (asked.push('answerInformationRequest'), answer),
  };
  return { decider, asked };
}

describe('The sandbox answers prior authorizations through the PAS path', () => {
  it.each(Object.entries(EVERY_KIND_OF_ANSWER))(
    'gives back exactly the decided %s answer on submission, inquiry and information answer',
    async (_kind, answer) => {
      const { decider, asked } = deciding(answer);
      const channel = simulatedPasChannel(decider);
      await expect(channel.submit(remicadeExchange())).resolves.toEqual(answer);
      await expect(channel.inquire(remicadeInquiry())).resolves.toEqual(answer);
      await expect(channel.answerInformationRequest(remicadeInformation())).resolves.toEqual(answer);
      expect(asked).toEqual(['submit', 'inquire', 'answerInformationRequest']);
    },
  );

  it('gives back the decided answer for an expedited pharmacy-benefit request too', async () => {
    const { decider } = deciding(EVERY_KIND_OF_ANSWER.approved!);
    const exchange = remicadeExchange({ urgency: 'expedited' });
    exchange.request.prescription = { drug_name: 'Ozempic 1 mg pen', quantity: 1 };
    await expect(simulatedPasChannel(decider).submit(exchange)).resolves.toEqual(
      EVERY_KIND_OF_ANSWER.approved,
    );
  });

  it("accepts the IG's example request Bundle as a PAS request and echoes its identifiers", async () => {
    const example = readFileSync(
      path.join(__dirname, '..', 'fixtures', 'pas', 'conformant_pas_bundle_v110.json'),
      'utf8',
    );
    const base = 'https://prior-auth.davinci.hl7.org/fhir';
    const submitter = { system: `${base}/SUBMITTER_TRANSACTION_IDENTIFIER`, value: 'A12345' };
    expect(readPasRequest(example)).toEqual({
      bundleIdentifier: submitter,
      claimIdentifier: '111099',
      claimUrl: `${base}/Claim/ReferralAuthorizationExample`,
      patient: `${base}/Patient/SubscriberExample`,
      insurer: `${base}/Organization/InsurerExample`,
      provider: `${base}/Organization/UMOExample`,
    });
    const answer = await new SimulatedPasEndpoint(EVERY_KIND_OF_ANSWER.approved!).submit(example);
    expect((JSON.parse(answer) as { identifier: unknown }).identifier).toEqual(submitter);
  });

  it('refuses, as a PAS payer would, a Bundle that is not a PAS request', async () => {
    const endpoint = new SimulatedPasEndpoint(EVERY_KIND_OF_ANSWER.approved!);
    const notAClaim = JSON.stringify({
      resourceType: 'Bundle',
      type: 'collection',
      identifier: { value: 'x' },
      entry: [{ fullUrl: 'urn:uuid:1', resource: { resourceType: 'Patient' } }],
    });
    await expect(endpoint.submit(notAClaim)).rejects.toThrow(MalformedPasRequestError);
    await expect(endpoint.submit(notAClaim)).rejects.toThrow(
      'The first entry of a PAS request Bundle is its Claim (at $.entry[0].resource.resourceType).',
    );
  });
});
