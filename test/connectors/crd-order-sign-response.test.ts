import {
  CrdAnswerWithoutCoverageInformationError,
  InvalidCrdAnswerError,
  readOrderSignResponse,
} from '../../infrastructure/connectors/crd/order-sign-response';
import { infernoFixture } from '../fixtures/crd/crd-fixtures';

type Json = ReturnType<typeof infernoFixture>;

const COVERAGE_INFORMATION =
  'http://hl7.org/fhir/us/davinci-crd/StructureDefinition/ext-coverage-information';
const SUBJECT = { orderId: 'order-1', coverageId: 'coverage-1' };

type Slice = Record<string, unknown>;

/** A CRD answer updating our draft order with one coverage-information extension per list of slices. */
function answer(...assertions: Slice[][]): Json {
  return { cards: [], systemActions: [orderUpdate(...assertions)] };
}

function orderUpdate(...assertions: Slice[][]): Json {
  return {
    type: 'update',
    description: 'Added coverage information',
    resource: {
      resourceType: 'MedicationRequest',
      id: SUBJECT.orderId,
      extension: assertions.map((slices) => ({ url: COVERAGE_INFORMATION, extension: slices })),
    },
  };
}

const coverage = (id: string) => ({ url: 'coverage', valueReference: { reference: `Coverage/${id}` } });
const code = (url: string, valueCode: string) => ({ url, valueCode });
const assertion = (paNeeded: string, ...more: Slice[]) => [
  coverage(SUBJECT.coverageId),
  code('covered', 'covered'),
  code('pa-needed', paNeeded),
  { url: 'date', valueDate: '2026-11-28' },
  { url: 'coverage-assertion-id', valueString: 'assertion-1' },
  ...more,
];

function invalid(body: unknown): InvalidCrdAnswerError {
  try {
    readOrderSignResponse(body, SUBJECT);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidCrdAnswerError);
    return error as InvalidCrdAnswerError;
  }
  throw new Error('The answer was read');
}

describe("Inferno's coverage-information fixtures", () => {
  const withSystemAction = (name: string) => ({ cards: [], systemActions: [infernoFixture(name)] });

  it('reads the covered assertion: covered, no authorization needed', () => {
    expect(readOrderSignResponse(withSystemAction('coverage_info_system_action_covered.json'))).toEqual({
      source: 'crd',
      covered: 'covered',
      pa_needed: 'no-auth',
      doc_needed: null,
      info_needed: [],
      questionnaires: [],
      instructions: [],
      reason: null,
      expires_at: null,
      satisfied_pa_id: null,
      fallback_reason: null,
    });
  });

  it('reads the conditional assertion: clinical documentation and the performer wanted, authorization left open', () => {
    expect(
      readOrderSignResponse(withSystemAction('coverage_info_system_action_conditional.json')),
    ).toMatchObject({
      covered: 'conditional',
      pa_needed: null,
      doc_needed: 'clinical',
      info_needed: ['performer'],
      expires_at: null,
      satisfied_pa_id: null,
    });
  });

  it("reads the complete assertion: satisfied and the authorization on file, the questionnaire, the payer's reason and the expiry", () => {
    expect(
      readOrderSignResponse(withSystemAction('coverage_info_system_action_complete.json')),
    ).toMatchObject({
      covered: 'conditional',
      pa_needed: 'satisfied',
      doc_needed: 'admin',
      info_needed: ['performer'],
      questionnaires: ['http://example.org/some-payer/Questionnaire/123|1.3.0'],
      reason: 'Prior auth waved due to gold-card status',
      expires_at: '2019-08-01',
      satisfied_pa_id: 'XXYYZ',
    });
  });

  it("reads the kit's authorization answer: satisfied by an authorization on file, its reason, and both cards as instructions", () => {
    expect(readOrderSignResponse(infernoFixture('crd_authorization_hook_response.json'))).toMatchObject({
      covered: 'covered',
      pa_needed: 'satisfied',
      reason: 'In-network required unless exigent circumstances',
      expires_at: null,
      satisfied_pa_id: 'Q8U119',
      instructions: [
        {
          summary: 'Appointment Book Instructions Card',
          detail:
            'This is an Instructions card containing textual guidance to display to the user making the decisions.',
        },
        {
          summary: 'Appointment Book External Reference Card',
          detail: expect.stringContaining('External Reference Card') as string,
        },
      ],
    });
  });
});

describe('A CRD answer', () => {
  it('that needs authorization names the questionnaires to answer', () => {
    const requirements = readOrderSignResponse(
      answer(
        assertion('auth-needed', code('doc-needed', 'clinical'), {
          url: 'questionnaire',
          valueCanonical: 'http://payer.example/Questionnaire/remicade',
        }),
      ),
      SUBJECT,
    );
    expect(requirements).toMatchObject({
      source: 'crd',
      covered: 'covered',
      pa_needed: 'auth-needed',
      doc_needed: 'clinical',
      questionnaires: ['http://payer.example/Questionnaire/remicade'],
    });
  });

  it('that says authorization may be performed (performpa) reads as such', () => {
    expect(readOrderSignResponse(answer(assertion('performpa')), SUBJECT).pa_needed).toBe('performpa');
  });

  it('that is conditional keeps the reason as the payer coded it', () => {
    const reason = {
      url: 'reason',
      valueCodeableConcept: {
        coding: [{ system: 'http://payer.example/reasons', code: 'r1', display: 'Site of care review' }],
      },
    };
    expect(readOrderSignResponse(answer(assertion('conditional', reason)), SUBJECT)).toMatchObject({
      pa_needed: 'conditional',
      reason: 'Site of care review',
    });
  });

  it("about several coverages takes the one about the case's coverage", () => {
    const otherCoverage = [
      coverage('secondary'),
      code('covered', 'covered'),
      code('pa-needed', 'auth-needed'),
    ];
    expect(readOrderSignResponse(answer(otherCoverage, assertion('no-auth')), SUBJECT).pa_needed).toBe(
      'no-auth',
    );
  });

  it("about coverages none of which is the case's takes the most restrictive", () => {
    const about = (id: string, paNeeded: string) => [
      coverage(id),
      code('covered', 'covered'),
      code('pa-needed', paNeeded),
    ];
    const body = answer(about('a', 'no-auth'), about('b', 'auth-needed'), about('c', 'conditional'));
    expect(readOrderSignResponse(body, SUBJECT).pa_needed).toBe('auth-needed');
  });

  it('read from a card suggestion updating the order counts; one creating another order does not', () => {
    const create = { ...orderUpdate(assertion('no-auth')), type: 'create' };
    const body = {
      cards: [
        {
          summary: 'Coverage information',
          indicator: 'info',
          source: { label: 'Payer' },
          suggestions: [
            { label: 'Alternative', actions: [create] },
            { label: 'Annotate', actions: [orderUpdate(assertion('auth-needed'))] },
          ],
        },
      ],
    };
    expect(readOrderSignResponse(body, SUBJECT).pa_needed).toBe('auth-needed');
  });

  it("about another order than the case's says nothing about the case", () => {
    const body = answer(assertion('no-auth'));
    body.systemActions[0].resource.id = 'someone-elses-order';
    expect(() => readOrderSignResponse(body, SUBJECT)).toThrow(CrdAnswerWithoutCoverageInformationError);
  });

  it('without coverage information is told apart from an invalid one, and keeps its cards', () => {
    const body = {
      cards: [
        { summary: 'Call the payer', detail: 'Use **fax**.', indicator: 'info', source: { label: 'Payer' } },
      ],
    };
    try {
      readOrderSignResponse(body, SUBJECT);
      throw new Error('The answer was read');
    } catch (error) {
      expect(error).toBeInstanceOf(CrdAnswerWithoutCoverageInformationError);
      expect((error as CrdAnswerWithoutCoverageInformationError).instructions).toEqual([
        { summary: 'Call the payer', detail: 'Use **fax**.' },
      ]);
    }
  });

  it('keeps a card summary to 140 characters and its Markdown detail to a readable length', () => {
    const body = answer(assertion('no-auth'));
    body.cards = [
      {
        summary: 'S'.repeat(200),
        detail: `  ${'D'.repeat(10_000)}  `,
        indicator: 'info',
        source: { label: 'Payer' },
      },
    ];
    const [instruction] = readOrderSignResponse(body, SUBJECT).instructions;
    expect(instruction!.summary).toHaveLength(140);
    expect(instruction!.summary.endsWith('…')).toBe(true);
    expect(instruction!.detail!.length).toBeLessThanOrEqual(4000);
    expect(instruction!.detail!.startsWith('D')).toBe(true);
  });
});

describe('A malformed CRD answer', () => {
  it('that is not an object is refused at its root', () => {
    expect(invalid('{"cards": []}')).toMatchObject({ path: 'response', rule: 'Expected an object' });
  });

  it('whose cards are not a list is refused at the cards', () => {
    expect(invalid({ cards: {} })).toMatchObject({ path: 'response.cards', rule: 'Expected an array' });
  });

  it('with a card without a summary is refused at that card', () => {
    expect(invalid({ cards: [{ indicator: 'info' }] }).path).toBe('response.cards[0].summary');
  });

  it('with an unknown pa-needed code is refused at the code, without quoting it', () => {
    const error = invalid(answer(assertion('ask-your-doctor')));
    expect(error.path).toBe('response.systemActions[0].resource.extension[0].extension[2].valueCode');
    expect(error.rule).toBe('Expected a pa-needed code of CRD 2.0.1');
    expect(error.message).not.toContain('ask-your-doctor');
  });

  it('with an assertion that does not say whether the order is covered is refused', () => {
    const error = invalid(answer([coverage(SUBJECT.coverageId), code('pa-needed', 'no-auth')]));
    expect(error).toMatchObject({
      rule: 'Expected a covered slice',
      path: 'response.systemActions[0].resource.extension[0]',
    });
  });

  it('with two pa-needed answers in one assertion is refused as ambiguous', () => {
    expect(invalid(answer(assertion('no-auth', code('pa-needed', 'auth-needed')))).rule).toBe(
      'Expected at most one pa-needed',
    );
  });

  it('with an expiry that is not a FHIR date is refused', () => {
    const error = invalid(answer(assertion('no-auth', { url: 'expiry-date', valueDate: 'next Tuesday' })));
    expect(error.rule).toBe('Expected a FHIR date');
  });

  it('with an action of an unknown type is refused', () => {
    expect(invalid({ cards: [], systemActions: [{ type: 'replace', description: '' }] }).path).toBe(
      'response.systemActions[0].type',
    );
  });

  it("whose questionnaire is not a canonical's string is refused", () => {
    const error = invalid(answer(assertion('auth-needed', { url: 'questionnaire', valueCanonical: 42 })));
    expect(error.path).toMatch(/valueCanonical$/);
  });
});
