import { readFileSync } from 'node:fs';
import path from 'node:path';

import { UnexpectedPasResponseError } from '../../infrastructure/connectors/pas/pas-errors';
import { payerAnswerOf, readPasAnswer } from '../../infrastructure/connectors/pas/pas-response';

/**
 * The Da Vinci PAS IG's own pended and error answers (hl7.fhir.us.davinci-pas 2.2.1, CC0; provenance
 * in test/fixtures/pas/README.md), read as docs/pas.md ("What is read") says.
 */
const FIXTURES = path.join(__dirname, '..', 'fixtures', 'pas');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');
const PENDED = 'Bundle-ReferralPendingAuthorizationResponseBundleExample.json';
const ERROR = 'Bundle-ErrorResponseBundleExample.json';
const OPERATION_OUTCOME = 'OperationOutcome-InvalidRequestResponse.json';

type Json = Record<string, unknown>;
const entriesOf = (body: string) => (JSON.parse(body) as { entry: Array<{ resource: Json }> }).entry;
const claimResponseOf = (body: string) => entriesOf(body)[0]!.resource;

/**
 * Both answers name the request by reference only (`Claim/ReferralAuthorizationExample`); the error
 * answer bundles that Claim, whose identifier is the claim identifier the requester sent.
 */
const REQUEST = entriesOf(fixture(ERROR)).find((entry) => entry.resource.resourceType === 'Claim')!.resource;
const SENT = (REQUEST.identifier as Array<{ value: string }>)[0]!.value;
const REQUESTED_QUANTITY = 1;
const answerTo = (body: string, identifier = SENT) =>
  payerAnswerOf(readPasAnswer(body), { identifier, quantity: REQUESTED_QUANTITY });

function naming(name: string, requestIdentifier: string): string {
  const bundle = JSON.parse(fixture(name)) as { entry: Array<{ resource: Json }> };
  bundle.entry[0]!.resource.request = { identifier: { value: requestIdentifier } };
  return JSON.stringify(bundle);
}

describe("Reading the PAS IG's pended and error examples", () => {
  it('answers the request the IG example Claim is', () => {
    expect(SENT).toBe('111099');
    for (const name of [PENDED, ERROR])
      expect(claimResponseOf(fixture(name)).request).toEqual({
        reference: `Claim/${String(REQUEST.id)}`,
      });
  });

  it('reads the pended example (review action A4, outcome complete) as pended, without an information request', () => {
    const claimResponse = claimResponseOf(fixture(PENDED));
    expect(claimResponse.outcome).toBe('complete');
    expect(claimResponse.communicationRequest).toBeUndefined();
    // The example states no authorization number, review action number or payer identifier: its
    // item's administrationReferenceNumber is the payer's reference, which later inquiries send back.
    expect(answerTo(fixture(PENDED))).toEqual({
      kind: 'pended',
      payer_reference: 'PEND0001',
      information_request: null,
    });
  });

  it("reads the error example as not submitted with its first X12 reject reason, not the payer's words", () => {
    const errors = claimResponseOf(fixture(ERROR)).error as Array<{ code: { coding: Json[] } }>;
    expect(errors.map((error) => error.code.coding[0]!.code)).toEqual(['04', 'T4']);
    expect(answerTo(fixture(ERROR))).toEqual({
      kind: 'not_submitted',
      payer_reference: null,
      reason_code: 'x12_reject_04',
      reason: 'The payer did not accept the request for review (X12 reject reason 04).',
    });
  });

  it('reads the OperationOutcome example as not submitted with its issue type, never its details text', () => {
    const body = fixture(OPERATION_OUTCOME);
    const details = (JSON.parse(body) as { issue: Array<{ details: { text: string } }> }).issue[0]!.details
      .text;
    const answer = answerTo(body);
    expect(answer).toEqual({
      kind: 'not_submitted',
      payer_reference: null,
      reason_code: 'fhir_invalid',
      reason: "The payer's PAS endpoint refused to process the request (FHIR issue type invalid).",
    });
    expect(JSON.stringify(answer)).not.toContain(details);
  });

  it('reads the examples whatever claim identifier was sent, since they name the request by reference only', () => {
    expect(answerTo(fixture(PENDED), 'pa_ours')).toMatchObject({
      kind: 'pended',
      payer_reference: 'PEND0001',
    });
    expect(answerTo(fixture(ERROR), 'pa_ours')).toMatchObject({ reason_code: 'x12_reject_04' });
  });

  it('refuses either example when it names another request by identifier', () => {
    for (const name of [PENDED, ERROR]) {
      expect(answerTo(naming(name, SENT))).toMatchObject({
        payer_reference: name === PENDED ? 'PEND0001' : null,
      });
      expect(() => answerTo(naming(name, 'someone-else'))).toThrow(
        new UnexpectedPasResponseError(
          'The ClaimResponse answers another request than the one sent',
          '$.entry[0].resource.request.identifier.value',
        ),
      );
    }
  });
});
