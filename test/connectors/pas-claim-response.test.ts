import { readFileSync } from 'node:fs';
import path from 'node:path';

import {
  MalformedPasResponseError,
  PasExchangeError,
  UnexpectedPasResponseError,
} from '../../infrastructure/connectors/pas/pas-errors';
import { writeSubmitBundle } from '../../infrastructure/connectors/pas/pas-request';
import { payerAnswerOf, readPasAnswer } from '../../infrastructure/connectors/pas/pas-response';
import {
  readPasRequest,
  writeClaimResponseBundle,
} from '../../infrastructure/connectors/pas/simulated-pas-endpoint';
import { EVERY_KIND_OF_ANSWER, remicadeExchange } from '../support/pas-exchanges';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'pas');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name), 'utf8');
const RESPONSES = [
  'valid_pa_response_bundle.json',
  'valid_pa_response_bundle_denial.json',
  'valid_pa_inquire_response_bundle.json',
];
const SENT = '111099';

/** The unit the IG's certified example authorizes; a request for more is partly approved by it. */
const REQUESTED_QUANTITY = 1;
const answerTo = (body: string) =>
  payerAnswerOf(readPasAnswer(body), { identifier: SENT, quantity: REQUESTED_QUANTITY });

type Json = Record<string, unknown>;
const claimResponseOf = (bundle: Json) => (bundle.entry as Array<{ resource: Json }>)[0]!.resource;
function edited(name: string, edit: (claimResponse: Json) => void): string {
  const bundle = JSON.parse(fixture(name)) as Json;
  edit(claimResponseOf(bundle));
  return JSON.stringify(bundle);
}
function withReviewAction(code: string) {
  return edited('valid_pa_response_bundle.json', (claimResponse) => {
    const item = (claimResponse.item as Json[])[0]!;
    const action = ((item.adjudication as Json[])[0]!.extension as Json[])[0]!;
    const codeExtension = (action.extension as Json[]).find((extension) =>
      String(extension.url).endsWith('reviewActionCode'),
    )!;
    codeExtension.valueCodeableConcept = {
      coding: [{ system: 'https://codesystem.x12.org/005010/306', code }],
    };
  });
}

describe("Reading a PAS payer's ClaimResponse", () => {
  it("reads the IG's certified example as an approval with its number, quantity and period", () => {
    expect(answerTo(fixture('valid_pa_response_bundle.json'))).toEqual({
      kind: 'determined',
      payer_reference: 'AUTH0001',
      determination: {
        result: 'approved',
        detail_code: 'approval',
        detail: 'The payer certified the request in total.',
        decided_at: '2005-05-02T11:02:00+05:00',
        authorization_number: 'AUTH0001',
        approved_quantity: 1,
        authorization_start_date: '2005-05-02',
        authorization_expiration: '2005-06-02',
      },
    });
  });

  it("reads the IG's not-certified example as a denial without an authorization number", () => {
    const answer = answerTo(fixture('valid_pa_response_bundle_denial.json'));
    expect(answer).toMatchObject({
      kind: 'determined',
      determination: { result: 'denied', detail_code: 'not_certified', authorization_number: null },
    });
  });

  it('reads an inquiry answer, bare or inside the Parameters $inquire returns', () => {
    const bundle = fixture('valid_pa_inquire_response_bundle.json');
    const parameters = JSON.stringify({
      resourceType: 'Parameters',
      parameter: [{ name: 'responseBundle', resource: JSON.parse(bundle) as Json }],
    });
    expect(answerTo(bundle)).toMatchObject({ kind: 'determined', determination: { result: 'approved' } });
    expect(answerTo(parameters)).toEqual(answerTo(bundle));
  });

  it.each([
    ['A2', 'partially_approved', 'certified_partial'],
    ['A6', 'partially_approved', 'modified'],
    ['C', 'other', 'cancelled'],
    ['CT', 'other', 'contact_payer'],
  ])('reads review action %s as %s (%s)', (code, result, detailCode) => {
    expect(answerTo(withReviewAction(code))).toMatchObject({
      kind: 'determined',
      determination: { result, detail_code: detailCode },
    });
  });

  it.each(['A4', 'D'])('reads review action %s as pended, with no information asked', (code) => {
    expect(answerTo(withReviewAction(code))).toEqual({
      kind: 'pended',
      payer_reference: 'AUTH0001',
      information_request: null,
    });
  });

  it('reads an outcome queued without items as pended', () => {
    const queued = edited('valid_pa_response_bundle.json', (claimResponse) => {
      claimResponse.outcome = 'queued';
      delete claimResponse.item;
    });
    expect(answerTo(queued)).toMatchObject({ kind: 'pended', information_request: null });
  });

  it('reads a communication request as an information request with its question and due date', () => {
    const asking = edited('valid_pa_response_bundle.json', (claimResponse) => {
      claimResponse.contained = [
        {
          resourceType: 'CommunicationRequest',
          id: 'ask1',
          identifier: [{ value: 'Q-1' }],
          status: 'active',
          payload: [{ contentString: '18776-5' }],
          occurrenceDateTime: '2005-05-09T17:00:00Z',
        },
      ];
      claimResponse.communicationRequest = [{ reference: '#ask1' }];
    });
    expect(answerTo(asking)).toEqual({
      kind: 'pended',
      payer_reference: 'AUTH0001',
      information_request: {
        kind: 'information_requested',
        questions: [{ id: 'Q-1', text: '18776-5' }],
        due_at: '2005-05-09T17:00:00Z',
      },
    });
  });

  it("reads an error outcome as not submitted with the X12 reject reason, never the payer's text", () => {
    const rejected = edited('valid_pa_response_bundle.json', (claimResponse) => {
      claimResponse.outcome = 'error';
      claimResponse.disposition = 'Member JANE DOE born 1970-01-01 not found';
      claimResponse.error = [
        { code: { coding: [{ system: 'https://codesystem.x12.org/005010/901', code: '75' }] } },
      ];
    });
    const answer = answerTo(rejected);
    expect(answer).toEqual({
      kind: 'not_submitted',
      payer_reference: 'AUTH0001',
      reason_code: 'x12_reject_75',
      reason: 'The payer did not accept the request for review (X12 reject reason 75).',
    });
  });

  it('reads an OperationOutcome as not submitted with its issue type', () => {
    const outcome = JSON.stringify({
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'processing', diagnostics: 'Patient JANE DOE unknown' }],
    });
    expect(answerTo(outcome)).toEqual({
      kind: 'not_submitted',
      payer_reference: null,
      reason_code: 'fhir_processing',
      reason: "The payer's PAS endpoint refused to process the request (FHIR issue type processing).",
    });
  });

  it('reads review action NA (no action required) as approved without prior authorization', () => {
    expect(answerTo(withReviewAction('NA'))).toMatchObject({
      kind: 'determined',
      determination: { result: 'approved', detail_code: 'prior_auth_not_required' },
    });
  });

  it("takes the payer's reference from its authorization, never from the requester's trace number", () => {
    const pended = edited('valid_pa_response_bundle.json', (claimResponse) => {
      delete claimResponse.preAuthRef;
      claimResponse.item = [];
      claimResponse.outcome = 'queued';
    });
    const ours = { identifier: 'pa_ours', quantity: REQUESTED_QUANTITY };
    expect(payerAnswerOf(readPasAnswer(pended), ours)).toMatchObject({
      kind: 'pended',
      payer_reference: 'pa_ours',
    });
    expect(answerTo(fixture('valid_pa_response_bundle.json'))).toMatchObject({ payer_reference: 'AUTH0001' });
  });

  it('approves the quantity requested when a partial certification states none', () => {
    const partial = JSON.parse(withReviewAction('A2')) as Json;
    const item = (claimResponseOf(partial).item as Json[])[0]!;
    item.extension = (item.extension as Json[]).filter(
      (extension) => !String(extension.url).endsWith('extension-itemAuthorizedDetail'),
    );
    expect(answerTo(JSON.stringify(partial))).toMatchObject({
      determination: { result: 'partially_approved', approved_quantity: REQUESTED_QUANTITY },
    });
  });

  it('reads an approval in total of fewer units than requested as a partial approval', () => {
    const certifiedOne = readPasAnswer(fixture('valid_pa_response_bundle.json'));
    expect(payerAnswerOf(certifiedOne, { identifier: SENT, quantity: 4 })).toMatchObject({
      determination: {
        result: 'partially_approved',
        detail_code: 'quantity_reduced',
        approved_quantity: 1,
        authorization_number: 'AUTH0001',
      },
    });
  });

  it('gives a denial no authorization period or number, whatever the payer states on the item', () => {
    expect(answerTo(withReviewAction('A3'))).toMatchObject({
      determination: {
        result: 'denied',
        authorization_number: null,
        authorization_start_date: null,
        authorization_expiration: null,
      },
    });
  });

  it('gives no approved quantity with a denial, whatever quantity the payer states', () => {
    expect(answerTo(withReviewAction('A3'))).toMatchObject({
      determination: { result: 'denied', approved_quantity: null },
    });
  });

  it.each([0, -2, 1.5])('refuses an authorized quantity of %s, naming where', (quantity) => {
    const odd = JSON.stringify(
      JSON.parse(fixture('valid_pa_response_bundle.json'), (key, value: unknown) =>
        key === 'valueQuantity' ? { ...(value as Json), value: quantity } : value,
      ),
    );
    expect(() => answerTo(odd)).toThrow(MalformedPasResponseError);
    expect(() => answerTo(odd)).toThrow(
      /An authorized quantity is a whole number above zero \(at \$\..*valueQuantity\.value\)/,
    );
  });

  it("keeps the payer's free-text disposition out of the determination's detail", () => {
    const told = edited('valid_pa_response_bundle.json', (claimResponse) => {
      claimResponse.disposition = 'Approved for JANE DOE, born 1970-01-01';
    });
    expect(answerTo(told)).toMatchObject({
      determination: { detail: 'The payer certified the request in total.' },
    });
  });

  it('replaces a reject reason or issue type that is not a code by a generic one', () => {
    const rejected = edited('valid_pa_response_bundle.json', (claimResponse) => {
      claimResponse.outcome = 'error';
      claimResponse.error = [
        { code: { coding: [{ system: 'https://codesystem.x12.org/005010/901', code: 'JANE DOE unknown' }] } },
      ];
    });
    expect(answerTo(rejected)).toMatchObject({ kind: 'not_submitted', reason_code: 'x12_reject_unknown' });
    const outcome = JSON.stringify({
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'Patient JANE DOE' }],
    });
    expect(answerTo(outcome)).toMatchObject({ kind: 'not_submitted', reason_code: 'fhir_unknown' });
  });

  it('refuses a review action it does not know, naming where', () => {
    expect(() => answerTo(withReviewAction('ZZ'))).toThrow(UnexpectedPasResponseError);
    expect(() => answerTo(withReviewAction('ZZ'))).toThrow(
      'The review action is not one this connector acts on (A1, A2, A3, A4, A6, C, CT, D, NA) (at $.entry[0].resource.item[0].adjudication).',
    );
  });

  it('refuses an answer to another request', () => {
    const elsewhere = edited('valid_pa_response_bundle.json', (claimResponse) => {
      claimResponse.request = { identifier: { value: 'someone-else' } };
    });
    expect(() => answerTo(elsewhere)).toThrow(UnexpectedPasResponseError);
  });

  it('refuses a Bundle whose first entry is not a ClaimResponse, naming the rule and path', () => {
    const bundle = JSON.parse(fixture('valid_pa_response_bundle.json')) as { entry: unknown[] };
    bundle.entry.reverse();
    expect(() => answerTo(JSON.stringify(bundle))).toThrow(
      new MalformedPasResponseError(
        'The first entry of a PAS response Bundle is its ClaimResponse',
        '$.entry[0].resource.resourceType',
      ),
    );
  });
});

/** Every value at every path of a JSON document, with where it is. */
function* paths(value: unknown, at: Array<string | number> = []): Generator<Array<string | number>> {
  yield at;
  if (Array.isArray(value)) for (const [index, item] of value.entries()) yield* paths(item, [...at, index]);
  else if (value && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) yield* paths(item, [...at, key]);
}

function mutate(document: unknown, at: Array<string | number>, replacement: unknown): string {
  const copy = JSON.parse(JSON.stringify(document)) as Record<string | number, unknown>;
  if (at.length === 0) return JSON.stringify(replacement);
  let parent = copy;
  for (const step of at.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = at[at.length - 1]!;
  if (replacement === undefined) {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else parent[last] = replacement;
  return JSON.stringify(copy);
}

function outcomeOf(body: string): 'answer' | 'named error' {
  try {
    answerTo(body);
    return 'answer';
  } catch (error) {
    if (error instanceof PasExchangeError) return 'named error';
    throw error;
  }
}

/** The sandbox payer's answers that no public example shows: an information request and a refusal. */
const SANDBOX_ANSWERS: Record<string, string> = Object.fromEntries(
  (['information_requested', 'not_submitted_with_reference', 'partially_approved'] as const).map((kind) => [
    `sandbox ${kind}`,
    writeClaimResponseBundle(
      EVERY_KIND_OF_ANSWER[kind]!,
      {
        ...readPasRequest(writeSubmitBundle(remicadeExchange(), { sentAt: new Date(0) })),
        claimIdentifier: SENT,
      },
      new Date(0),
    ),
  ]),
);
const bodyOf = (name: string) => SANDBOX_ANSWERS[name] ?? fixture(name);

describe('Mutated and truncated PAS answers', () => {
  const REPLACEMENTS: unknown[] = [undefined, null, 0, -1.5, '', 'A4', true, [], {}, [null], { url: 7 }];

  const ANSWERS = [...RESPONSES, ...Object.keys(SANDBOX_ANSWERS)];

  it.each(ANSWERS)('%s: every truncation gives an answer or a named error, never anything else', (name) => {
    const text = bodyOf(name);
    for (let length = 0; length < text.length; length += 7)
      expect(outcomeOf(text.slice(0, length))).toBeDefined();
  });

  it.each(ANSWERS)('%s: every value replaced or removed gives an answer or a named error', (name) => {
    const document = JSON.parse(bodyOf(name)) as unknown;
    let mutations = 0;
    for (const at of paths(document)) {
      for (const replacement of REPLACEMENTS) {
        expect(outcomeOf(mutate(document, at, replacement))).toBeDefined();
        mutations += 1;
      }
    }
    expect(mutations).toBeGreaterThan(500);
  });

  it("names an error's rule and path but never quotes a value of the answer", () => {
    const document = JSON.parse(fixture('valid_pa_response_bundle.json')) as unknown;
    for (const at of paths(document)) {
      try {
        answerTo(mutate(document, at, { family: 'ZZSECRETNAME' }));
      } catch (error) {
        expect((error as Error).message).not.toContain('ZZSECRETNAME');
        expect((error as Error).message).toMatch(/ \(at \$[^ ]*\)\.$/);
      }
    }
  });
});
