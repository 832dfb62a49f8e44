import type { QuestionnaireItemState } from '../../domain/dtr/questionnaire';
import { answerIssues, withAnswers } from '../../domain/dtr/questionnaire-answers';
import { FhirQuestionnaire } from '../../domain/dtr/fhir-questionnaire';
import {
  INFORMATION_ORIGIN_EXTENSION,
  questionnaireResponseOf,
} from '../../domain/dtr/questionnaire-response';
import { itemsOfQuestionnaire } from '../../domain/dtr/questionnaire-reading';
import { NEVER_ENABLED, pendingLinkIds, withEnablement } from '../../domain/dtr/enablement';

/** One item of every answerable type, a group whose questions show on a choice, and a display. */
const questionnaire: FhirQuestionnaire = {
  resourceType: 'Questionnaire',
  url: 'urn:test:every-type',
  contained: [
    {
      resourceType: 'ValueSet',
      id: 'sides',
      compose: {
        include: [{ system: 'urn:sides', concept: [{ code: 'fries', display: 'Fries' }, { code: 'salad' }] }],
      },
    },
  ],
  item: [
    { linkId: 'flag', type: 'boolean', required: true },
    { linkId: 'count', type: 'integer' },
    { linkId: 'weight', type: 'decimal' },
    { linkId: 'born', type: 'date', required: true },
    { linkId: 'seen', type: 'dateTime' },
    { linkId: 'at', type: 'time' },
    { linkId: 'name', type: 'string' },
    { linkId: 'notes', type: 'text' },
    { linkId: 'site', type: 'url' },
    { linkId: 'dose', type: 'quantity' },
    { linkId: 'scan', type: 'attachment' },
    {
      linkId: 'meal',
      type: 'choice',
      required: true,
      answerOption: [
        { valueCoding: { system: 'urn:meals', code: 'burger', display: 'Hamburger' } },
        { valueCoding: { system: 'urn:meals', code: 'burrito', display: 'Burrito' } },
      ],
    },
    { linkId: 'side', type: 'open-choice', answerValueSet: '#sides' },
    { linkId: 'toppings', type: 'string', repeats: true },
    { linkId: 'computed', type: 'string', readOnly: true },
    { linkId: 'note', type: 'display', text: 'Thank you' },
    {
      linkId: 'burger',
      type: 'group',
      enableWhen: [{ question: 'meal', operator: '=', answerCoding: { code: 'burger' } }],
      item: [{ linkId: 'burger.doneness', type: 'string', required: true }],
    },
  ],
};

const fresh = () => itemsOfQuestionnaire(questionnaire, []);
const item = (items: QuestionnaireItemState[], linkId: string) => items.find((i) => i.link_id === linkId)!;
const auto = (items: QuestionnaireItemState[], linkId: string, answer: QuestionnaireItemState['answer']) =>
  items.map((i) =>
    i.link_id === linkId
      ? { ...i, answer, origin: 'auto' as const, source: { kind: 'cql' as const, reference: '"Lib".Name' } }
      : i,
  );
const proposed = (
  items: QuestionnaireItemState[],
  linkId: string,
  answer: QuestionnaireItemState['answer'],
) =>
  items.map((i) =>
    i.link_id === linkId
      ? {
          ...i,
          answer,
          origin: 'proposed' as const,
          source: { kind: 'evidence' as const, reference: 'note p.2' },
        }
      : i,
  );

describe('reading a Questionnaire into items', () => {
  it('flattens items in order, with each child naming its group', () => {
    const items = fresh();
    expect(items.map((i) => i.link_id).slice(-3)).toEqual(['note', 'burger', 'burger.doneness']);
    expect(item(items, 'burger.doneness')).toMatchObject({ parent_link_id: 'burger', required: true });
    expect(item(items, 'burger')).toMatchObject({ type: 'group', parent_link_id: null });
  });

  it('takes options from answerOption and from a contained value set', () => {
    const items = fresh();
    expect(item(items, 'meal').options).toEqual([
      { system: 'urn:meals', code: 'burger', display: 'Hamburger' },
      { system: 'urn:meals', code: 'burrito', display: 'Burrito' },
    ]);
    expect(item(items, 'side').options).toEqual([
      { system: 'urn:sides', code: 'fries', display: 'Fries' },
      { system: 'urn:sides', code: 'salad', display: null },
    ]);
  });

  it('starts every item unanswered, with read-only and repeating items marked', () => {
    const items = fresh();
    expect(items.every((i) => i.answer === null && i.origin === null)).toBe(true);
    expect(item(items, 'computed').read_only).toBe(true);
    expect(item(items, 'toppings').repeats).toBe(true);
  });
});

describe('checking answers', () => {
  const wrong: [string, unknown, RegExp][] = [
    ['flag', 'yes', /flag \(boolean\) takes true or false/],
    ['count', 2.5, /count \(integer\) takes a whole number/],
    ['weight', '70', /weight \(decimal\) takes a number/],
    ['born', '2024-02-30', /born \(date\) takes a date as YYYY-MM-DD/],
    ['born', '04/07/2024', /YYYY-MM-DD/],
    ['seen', '2024-04-07T18:32', /seen \(dateTime\) takes a date/],
    ['at', '25:00:00', /at \(time\) takes a time as hh:mm:ss/],
    ['name', '  ', /name \(string\) takes a non-empty string/],
    ['notes', 42, /notes \(text\) takes a non-empty string/],
    ['site', 'example.org', /site \(url\) takes an absolute URL/],
    ['dose', { value: '5', unit: 'mg' }, /dose \(quantity\) takes a quantity/],
    ['scan', { title: 'Scan' }, /scan \(attachment\) takes an attachment/],
    ['meal', { code: 'pizza' }, /meal \(choice\) takes one of its options/],
    ['meal', { system: 'urn:other', code: 'burger' }, /one of its options/],
    ['side', { code: 'soup' }, /side \(open-choice\) takes one of its options as a coding, or free text/],
    ['count', 2 ** 31, /count \(integer\) takes a whole number \(32-bit\)/],
    ['name', 'x'.repeat(1_001), /name \(string\) takes a non-empty string of at most 1000 characters/],
    ['notes', 'x'.repeat(10_001), /notes \(text\) takes a non-empty string of at most 10000 characters/],
  ];

  it.each(wrong)('names %s when its value %p is not of its type', (linkId, value, message) => {
    const issues = answerIssues(fresh(), [{ link_id: linkId, value: value as never }]);
    expect(issues).toEqual([{ link_id: linkId, message: expect.stringMatching(message) }]);
  });

  it('accepts a value of the right type for every answerable item', () => {
    const issues = answerIssues(fresh(), [
      { link_id: 'flag', value: false },
      { link_id: 'count', value: 3 },
      { link_id: 'weight', value: 70.5 },
      { link_id: 'born', value: '2024-02-29' },
      { link_id: 'seen', value: '2024-04-07T18:32:03.440Z' },
      { link_id: 'at', value: '18:32:03' },
      { link_id: 'name', value: 'Oster' },
      { link_id: 'notes', value: 'Long text' },
      { link_id: 'site', value: 'https://example.org/form' },
      { link_id: 'dose', value: { value: 5, unit: 'mg' } },
      { link_id: 'scan', value: { url: 'doc_123', content_type: 'application/pdf', title: null } },
      { link_id: 'meal', value: { code: 'burrito', system: null, display: null } },
      { link_id: 'side', value: 'onion rings' },
      { link_id: 'toppings', value: ['cheese', 'onion'] },
    ]);
    expect(issues).toEqual([]);
  });

  it('refuses an unknown link_id', () => {
    expect(answerIssues(fresh(), [{ link_id: 'nope', value: true }])).toEqual([
      { link_id: 'nope', message: 'No item of the questionnaire has link_id nope.' },
    ]);
  });

  it('refuses answers to groups, display items and read-only items', () => {
    const issues = answerIssues(fresh(), [
      { link_id: 'burger', value: 'x' },
      { link_id: 'note', value: 'x' },
      { link_id: 'computed', value: 'x' },
    ]);
    expect(issues.map((i) => i.message)).toEqual([
      'burger is a group item and takes no answer.',
      'note is a display item and takes no answer.',
      'computed is read-only and takes no answer.',
    ]);
  });

  it('refuses an answer to an item its enableWhen hides', () => {
    expect(answerIssues(fresh(), [{ link_id: 'burger.doneness', value: 'medium' }])).toEqual([
      { link_id: 'burger.doneness', message: expect.stringMatching(/is not shown/) },
    ]);
  });

  it('accepts an answer to an item that the same request reveals', () => {
    const issues = answerIssues(fresh(), [
      { link_id: 'meal', value: { code: 'burger', system: null, display: null } },
      { link_id: 'burger.doneness', value: 'medium' },
    ]);
    expect(issues).toEqual([]);
  });

  it('refuses a list for an item that does not repeat', () => {
    expect(answerIssues(fresh(), [{ link_id: 'name', value: ['a', 'b'] }])).toEqual([
      { link_id: 'name', message: 'name does not repeat: give one value, not a list.' },
    ]);
  });

  it('refuses the same link_id twice in one request', () => {
    const issues = answerIssues(fresh(), [
      { link_id: 'name', value: 'a' },
      { link_id: 'name', value: 'b' },
    ]);
    expect(issues).toEqual([
      { link_id: 'name', message: 'name is answered more than once in this request.' },
    ]);
  });
});

describe('recording answers and their origin', () => {
  it('marks a person answering an unanswered item as manual, authored by them', () => {
    const items = withAnswers(fresh(), [{ link_id: 'name', value: 'Oster' }], 'usr_1');
    expect(item(items, 'name')).toMatchObject({
      answer: 'Oster',
      origin: 'manual',
      source: { kind: 'person', reference: 'usr_1' },
      author: 'usr_1',
    });
  });

  it('marks a different value over the payer CQL answer as override', () => {
    const items = withAnswers(
      auto(fresh(), 'name', 'Oster'),
      [{ link_id: 'name', value: 'Foster' }],
      'usr_1',
    );
    expect(item(items, 'name')).toMatchObject({ answer: 'Foster', origin: 'override', author: 'usr_1' });
  });

  it('keeps the CQL answer auto when a person gives the same value', () => {
    const items = withAnswers(auto(fresh(), 'name', 'Oster'), [{ link_id: 'name', value: 'Oster' }], 'usr_1');
    expect(item(items, 'name')).toMatchObject({ origin: 'auto', source: { kind: 'cql' }, author: null });
  });

  it('turns a confirmed proposal into a manual answer', () => {
    const items = withAnswers(
      proposed(fresh(), 'name', 'Oster'),
      [{ link_id: 'name', value: 'Oster' }],
      'usr_1',
    );
    expect(item(items, 'name')).toMatchObject({ origin: 'manual', author: 'usr_1' });
  });

  it('clears an answer given null', () => {
    const items = withAnswers(auto(fresh(), 'name', 'Oster'), [{ link_id: 'name', value: null }], 'usr_1');
    expect(item(items, 'name')).toMatchObject({ answer: null, origin: null, source: null, author: null });
  });

  it('completes a coding from the option it names', () => {
    const items = withAnswers(fresh(), [{ link_id: 'meal', value: { code: 'burger' } as never }], 'usr_1');
    expect(item(items, 'meal').answer).toEqual({ system: 'urn:meals', code: 'burger', display: 'Hamburger' });
  });
});

describe('answers kept as their item reads them', () => {
  it('keeps a FHIR Quantity as a quantity, its code and system left out', () => {
    const answered = withAnswers(
      fresh(),
      [
        {
          link_id: 'dose',
          value: { value: 8.1, unit: '%', system: 'http://unitsofmeasure.org', code: '%' } as never,
        },
      ],
      'Dr. Example',
    );
    expect(item(answered, 'dose').answer).toEqual({ value: 8.1, unit: '%' });
    const response = questionnaireResponseOf('urn:test:every-type', answered, {
      subject: { reference: 'Patient/p' },
      authored: '2026-11-29T00:00:00Z',
      status: 'in-progress',
    });
    expect(JSON.stringify(response)).toContain('"valueQuantity":{"value":8.1,"unit":"%"}');
  });

  it('refuses more than 50 answers to a repeating item', () => {
    const many = Array.from({ length: 51 }, (_, index) => `topping ${index}`);
    expect(answerIssues(fresh(), [{ link_id: 'toppings', value: many }])).toEqual([
      { link_id: 'toppings', message: 'toppings takes at most 50 answers; it got 51.' },
    ]);
  });
});

describe('enableWhen', () => {
  it('hides a group and its questions until its condition holds', () => {
    const items = fresh();
    expect(item(items, 'burger').enabled).toBe(false);
    expect(item(items, 'burger.doneness').enabled).toBe(false);
  });

  it('shows them once the choice they wait for is answered', () => {
    const items = withAnswers(fresh(), [{ link_id: 'meal', value: { code: 'burger' } as never }], 'usr_1');
    expect(item(items, 'burger.doneness').enabled).toBe(true);
  });

  it('hides them again when the choice changes', () => {
    const shown = withAnswers(fresh(), [{ link_id: 'meal', value: { code: 'burger' } as never }], 'usr_1');
    const hidden = withAnswers(shown, [{ link_id: 'meal', value: { code: 'burrito' } as never }], 'usr_1');
    expect(item(hidden, 'burger.doneness').enabled).toBe(false);
  });

  it('does not let a proposal reveal items', () => {
    expect(
      item(
        withEnablement(proposed(fresh(), 'meal', { system: 'urn:meals', code: 'burger', display: null })),
        'burger',
      ).enabled,
    ).toBe(false);
  });

  it("shows an item behind `!=` while its question is unanswered, as FHIR's `!=` means no answer equal", () => {
    const notBurger: FhirQuestionnaire = {
      resourceType: 'Questionnaire',
      url: 'urn:test:not-equal',
      item: [
        {
          linkId: 'meal',
          type: 'choice',
          answerOption: [{ valueCoding: { code: 'burger' } }, { valueCoding: { code: 'salad' } }],
        },
        {
          linkId: 'why',
          type: 'string',
          required: true,
          enableWhen: [{ question: 'meal', operator: '!=', answerCoding: { code: 'burger' } }],
        },
      ],
    };
    const items = withEnablement(itemsOfQuestionnaire(notBurger, []));
    expect(pendingLinkIds(items)).toEqual(['why']);
    const burger = withAnswers(
      items,
      [{ link_id: 'meal', value: { code: 'burger', system: null, display: null } }],
      'A',
    );
    expect(item(burger, 'why').enabled).toBe(false);
  });

  it('keeps an item hidden by its enableWhenExpression at prefill hidden', () => {
    const items = withEnablement(fresh().map((i) => (i.link_id === 'name' ? { ...i, ...NEVER_ENABLED } : i)));
    expect(item(items, 'name').enabled).toBe(false);
  });
});

describe('pending items', () => {
  it('lists the enabled required items without an answer', () => {
    expect(pendingLinkIds(fresh())).toEqual(['flag', 'born', 'meal']);
  });

  it('adds a required question its group reveals', () => {
    const items = withAnswers(fresh(), [{ link_id: 'meal', value: { code: 'burger' } as never }], 'usr_1');
    expect(pendingLinkIds(items)).toEqual(['flag', 'born', 'burger.doneness']);
  });

  it('counts a proposed answer as unanswered', () => {
    expect(pendingLinkIds(proposed(fresh(), 'flag', true))).toContain('flag');
  });
});

describe('the QuestionnaireResponse', () => {
  const context = {
    subject: { reference: 'Patient/pat015' },
    authored: '2024-04-07T18:32:03.440Z',
    status: 'in-progress' as const,
  };

  it('nests answered items under their group, each answer with its information origin', () => {
    let items = auto(fresh(), 'meal', { system: 'urn:meals', code: 'burger', display: 'Hamburger' });
    items = withAnswers(items, [{ link_id: 'burger.doneness', value: 'medium' }], 'usr_1');
    const response = questionnaireResponseOf('urn:test:every-type|1', items, {
      ...context,
      authors: { usr_1: { reference: 'Practitioner/pra1234' } },
    });
    expect(response).toMatchObject({
      resourceType: 'QuestionnaireResponse',
      meta: { profile: ['http://hl7.org/fhir/us/davinci-dtr/StructureDefinition/dtr-questionnaireresponse'] },
      questionnaire: 'urn:test:every-type|1',
      status: 'in-progress',
    });
    expect(response.item).toEqual([
      {
        linkId: 'meal',
        answer: [
          {
            valueCoding: { system: 'urn:meals', code: 'burger', display: 'Hamburger' },
            extension: [
              { url: INFORMATION_ORIGIN_EXTENSION, extension: [{ url: 'source', valueCode: 'auto' }] },
            ],
          },
        ],
      },
      {
        linkId: 'burger',
        item: [
          {
            linkId: 'burger.doneness',
            answer: [
              {
                valueString: 'medium',
                extension: [
                  {
                    url: INFORMATION_ORIGIN_EXTENSION,
                    extension: [
                      { url: 'source', valueCode: 'manual' },
                      {
                        url: 'author',
                        extension: [
                          { url: 'practitioner', valueReference: { reference: 'Practitioner/pra1234' } },
                        ],
                      },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
    ]);
  });

  it('never sends a proposed answer', () => {
    const response = questionnaireResponseOf('urn:q', proposed(fresh(), 'name', 'Oster'), context);
    expect(JSON.stringify(response)).not.toContain('Oster');
  });

  it('leaves out the answers of hidden items', () => {
    const shown = withAnswers(
      fresh(),
      [
        { link_id: 'meal', value: { code: 'burger' } as never },
        { link_id: 'burger.doneness', value: 'medium' },
      ],
      'usr_1',
    );
    const hidden = withAnswers(shown, [{ link_id: 'meal', value: { code: 'burrito' } as never }], 'usr_1');
    expect(JSON.stringify(questionnaireResponseOf('urn:q', hidden, context))).not.toContain('medium');
  });
});
