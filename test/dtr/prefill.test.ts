import type { QuestionnaireItemState } from '../../domain/dtr/questionnaire';
import { FhirQuestionnaireResponse } from '../../domain/dtr/fhir-questionnaire';
import {
  INFORMATION_ORIGIN_EXTENSION,
  questionnaireResponseOf,
} from '../../domain/dtr/questionnaire-response';
import { itemsOfQuestionnaire } from '../../domain/dtr/questionnaire-reading';
import { prefillQuestionnaire, PrefillResult } from '../../infrastructure/dtr/cql-prefill';
import {
  InvalidQuestionnairePackageError,
  readQuestionnairePackage,
} from '../../infrastructure/dtr/questionnaire-package';
import {
  answersByLinkId,
  EXPECTED_AUTHORED,
  infernoFixture,
  pat015,
  RESPIRATORY_ORDER,
} from './inferno-fixtures';

/**
 * Items whose CQL reads the order's performer, Practitioner/pra1234, which pat015's bundle does not
 * hold (Inferno's kit expects it on its reference server; no fixture of the kit carries it).
 */
const NEED_THE_PRACTITIONER = ['PND.1', 'PND.2', 'PND.3', 'PND.4', 'SIGPNP.2', 'SIGPNP.4'];

/**
 * Our own Practitioner (not Inferno's), written from the names and NPI the expected response shows,
 * to show the practitioner items fill once the record holds the performer.
 */
const SYNTHETIC_PRACTITIONER = {
  resourceType: 'Practitioner',
  id: 'pra1234',
  identifier: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: '1122334455' }],
  name: [{ use: 'official', family: 'Doe', given: ['Jane', 'B'] }],
};

const expected = infernoFixture<FhirQuestionnaireResponse>('pre_populated_questionnaire_response.json');
const expectedAnswers = answersByLinkId(expected.item);

function responseOf(result: PrefillResult): FhirQuestionnaireResponse {
  return questionnaireResponseOf('urn:inferno:dtr-test-kit:respiratory-assist-devices', result.items, {
    subject: { reference: 'Patient/pat015' },
    authored: EXPECTED_AUTHORED.toISOString(),
    status: 'in-progress',
  });
}

/** An answer as compared: its value (a coding by system and code; the reference app reworded displays). */
function comparable(answer: Record<string, unknown>): unknown {
  const [key] = Object.keys(answer).filter((name) => name.startsWith('value'));
  const value = answer[key!] as { system?: string; code?: string } | string;
  return typeof value === 'object'
    ? { [key!]: { system: value.system, code: value.code } }
    : { [key!]: value };
}

function originOf(answer: Record<string, unknown>): unknown {
  const extensions = answer.extension as { url: string; extension: { url: string; valueCode?: string }[] }[];
  return extensions.find((extension) => extension.url === INFORMATION_ORIGIN_EXTENSION)?.extension[0]
    ?.valueCode;
}

describe("prefilling Inferno's respiratory assist device package for pat015", () => {
  const pkg = readQuestionnairePackage(infernoFixture('questionnaire_package.json'));
  let result: PrefillResult;
  let withPractitioner: PrefillResult;
  beforeAll(async () => {
    result = await prefillQuestionnaire(pkg, pat015(), {
      now: EXPECTED_AUTHORED,
      context: [RESPIRATORY_ORDER],
    });
    const bundle = pat015();
    bundle.entry!.push({ resource: SYNTHETIC_PRACTITIONER });
    withPractitioner = await prefillQuestionnaire(pkg, bundle, {
      now: EXPECTED_AUTHORED,
      context: [RESPIRATORY_ORDER],
    });
  });

  it('finds the 17 answered items of the expected response', () => {
    expect(expectedAnswers.size).toBe(17);
  });

  const fromTheRecord = [...expectedAnswers.keys()].filter(
    (linkId) => !NEED_THE_PRACTITIONER.includes(linkId),
  );
  it.each(fromTheRecord)('answers %s as the expected response does, with origin auto', (linkId) => {
    const ours = answersByLinkId(responseOf(result).item).get(linkId);
    expect(ours?.map(comparable)).toEqual(expectedAnswers.get(linkId)!.map(comparable));
    expect(ours?.map(originOf)).toEqual(ours?.map(() => 'auto'));
  });

  it.each(NEED_THE_PRACTITIONER)('leaves %s unanswered, as pat015 lacks the order performer', (linkId) => {
    expect(result.items.find((item) => item.link_id === linkId)?.answer).toBeNull();
  });

  it('reports the expressions that found no data', () => {
    expect(result.unanswered_expressions).toEqual(
      expect.arrayContaining([
        '"BasicClinicalInfoPrepopulation".EncounterProviderLastName',
        '"BasicPractitionerInfoPrepopulation".FullName',
        '"BasicPractitionerInfoPrepopulation".NPI',
      ]),
    );
  });

  it.each(NEED_THE_PRACTITIONER)(
    'answers %s as expected once the record holds the practitioner',
    (linkId) => {
      const ours = answersByLinkId(responseOf(withPractitioner).item).get(linkId);
      expect(ours?.map(comparable)).toEqual(expectedAnswers.get(linkId)!.map(comparable));
    },
  );

  it('names the CQL define each answer came from', () => {
    expect(result.items.find((item) => item.link_id === 'PBD.1')).toMatchObject({
      origin: 'auto',
      source: { kind: 'cql', reference: '"BasicPatientInfoPrepopulation".LastName' },
      author: null,
    });
  });

  it('answers nothing the expected response leaves out', () => {
    const answered = result.items.filter((item) => item.answer !== null).map((item) => item.link_id);
    expect(answered.every((linkId) => expectedAnswers.has(linkId))).toBe(true);
  });

  it('leaves the order-dependent items unanswered when no order is named among several', async () => {
    const unordered = await prefillQuestionnaire(pkg, pat015(), { now: EXPECTED_AUTHORED });
    expect(unordered.items.find((item) => item.link_id === '4.6.1')?.answer).toBeNull();
    expect(unordered.items.find((item) => item.link_id === 'PBD.1')?.answer).toBe('Oster');
  });
});

describe('enableWhenExpression at prefill', () => {
  const ENABLE_WHEN = 'http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-enableWhenExpression';
  type Resource = Record<string, unknown>;

  /** The respiratory package with an enableWhenExpression on item 4.5, and a define `Never` (false). */
  async function prefilledWith(language: string, expression: string) {
    const bundle = infernoFixture<{ entry: { resource: Resource }[] }>('questionnaire_package.json');
    const orderGroup = (bundle.entry[0]!.resource.item as { linkId: string; item: Resource[] }[])[3]!;
    orderGroup.item.find((item) => item.linkId === '4.5')!.extension = [
      { url: ENABLE_WHEN, valueExpression: { language, expression } },
    ];
    const library = bundle.entry.find((entry) => entry.resource.name === 'BasicClinicalInfo-prepopulation')!;
    const elm = (library.resource.content as { contentType: string; data: string }[]).find(
      (attachment) => attachment.contentType === 'application/elm+json',
    )!;
    const parsed = JSON.parse(Buffer.from(elm.data, 'base64').toString('utf8'));
    parsed.library.statements.def.push({
      name: 'Never',
      context: 'Patient',
      accessLevel: 'Public',
      expression: { type: 'Literal', valueType: '{urn:hl7-org:elm-types:r1}Boolean', value: 'false' },
    });
    elm.data = Buffer.from(JSON.stringify(parsed)).toString('base64');
    const { items } = await prefillQuestionnaire(readQuestionnairePackage(bundle), pat015(), {
      now: EXPECTED_AUTHORED,
      context: [RESPIRATORY_ORDER],
    });
    return items.find((item) => item.link_id === '4.5')!;
  }

  it('shows an item whose CQL enableWhenExpression is true for the patient', async () => {
    const item = await prefilledWith(
      'text/cql',
      '"BasicClinicalInfoPrepopulation".IsEncounterProviderSameAsOrderingProvider',
    );
    expect(item).toMatchObject({ enabled: true, enable_when: null });
  });

  it('hides an item whose CQL enableWhenExpression is false, as a condition that never holds', async () => {
    const item = await prefilledWith('text/cql', '"BasicClinicalInfoPrepopulation".Never');
    expect(item).toMatchObject({ enabled: false, enable_when: [], enable_behavior: 'any' });
  });

  it('reads a FHIRPath enableWhenExpression over the answers prefill gave', async () => {
    const path = "%resource.repeat(item).where(linkId = 'PBD.1').answer.value";
    expect(await prefilledWith('text/fhirpath', `${path} = 'Oster'`)).toMatchObject({ enabled: true });
    expect(await prefilledWith('text/fhirpath', `${path} = 'Smith'`)).toMatchObject({ enabled: false });
  });
});

describe("Inferno's dinner order packages", () => {
  const staticPackage = readQuestionnairePackage(infernoFixture('questionnaire_dinner_order_static.json'));
  const items = itemsOfQuestionnaire(staticPackage.questionnaire, staticPackage.valueSets);
  const item = (linkId: string) => items.find((candidate) => candidate.link_id === linkId)!;

  it('reads the static questionnaire into its items, groups included', () => {
    expect(
      items.map((i): [string, QuestionnaireItemState['type'], string | null] => [
        i.link_id,
        i.type,
        i.parent_link_id,
      ]),
    ).toEqual([
      ['PBD', 'group', null],
      ['PBD.1', 'string', 'PBD'],
      ['PBD.2', 'string', 'PBD'],
      ['LOC', 'group', null],
      ['LOC.1', 'string', 'LOC'],
      ['3', 'group', null],
      ['3.1', 'choice', '3'],
      ['3.2.a', 'choice', '3'],
      ['3.2.b', 'choice', '3'],
      ['3.3', 'string', '3'],
    ]);
  });

  it('offers the dinner choices as options', () => {
    expect(item('3.1').options?.map((option) => option.code)).toEqual(['Hamburger', 'Bean Burrito']);
    expect(item('3.2.a')).toMatchObject({ repeats: true, required: false });
  });

  it('shows the toppings only for the dinner chosen', () => {
    expect(item('3.2.a')).toMatchObject({
      enable_when: [{ question: '3.1', operator: '=', answer: { code: 'Hamburger' } }],
      enable_behavior: 'all',
      enabled: false,
    });
  });

  it("fills the patient's name with the package's CQL", async () => {
    const { items: filled } = await prefillQuestionnaire(staticPackage, pat015(), { now: EXPECTED_AUTHORED });
    expect(filled.filter((i) => i.origin === 'auto').map((i) => [i.link_id, i.answer])).toEqual(
      expect.arrayContaining([
        ['PBD.1', 'Oster'],
        ['PBD.2', 'William'],
      ]),
    );
  });

  it('marks the adaptive questionnaire adaptive and the static one not', () => {
    expect(
      readQuestionnairePackage(infernoFixture('questionnaire_dinner_order_adaptive.json')).adaptive,
    ).toBe(true);
    expect(staticPackage.adaptive).toBe(false);
  });
});

describe('packages that cannot be read', () => {
  const respiratory = () =>
    infernoFixture<{ entry: { resource: Record<string, unknown> }[] }>('questionnaire_package.json');
  const malformed: [string, () => unknown, RegExp][] = [
    ['a string', () => 'not a package', /not a JSON object/],
    ['a Patient', () => ({ resourceType: 'Patient' }), /is a Patient; expected a Parameters/],
    [
      'Parameters without a PackageBundle',
      () => ({ resourceType: 'Parameters', parameter: [] }),
      /no PackageBundle/,
    ],
    [
      'a bundle without a Questionnaire',
      () => ({ resourceType: 'Bundle', entry: [] }),
      /holds 0 Questionnaires/,
    ],
    [
      'an item of a type not answered here',
      () => {
        const bundle = respiratory();
        (bundle.entry[0]!.resource.item as Record<string, unknown>[])[0]!.type = 'reference';
        return bundle;
      },
      /Item PBD has type reference/,
    ],
    [
      'ELM that is not JSON',
      () => {
        const bundle = respiratory();
        const content = bundle.entry[1]!.resource.content as { contentType: string; data: string }[];
        content.find((attachment) => attachment.contentType === 'application/elm+json')!.data =
          Buffer.from('<library/>').toString('base64');
        return bundle;
      },
      /Library RespiratoryAssistDevices-prepopulation's application\/elm\+json content is not JSON/,
    ],
  ];

  it.each(malformed)('refuses %s with InvalidQuestionnairePackageError', (_, make, message) => {
    expect(() => readQuestionnairePackage(make())).toThrow(InvalidQuestionnairePackageError);
    expect(() => readQuestionnairePackage(make())).toThrow(message);
  });

  it('reads the Parameters a $questionnaire-package call answers', () => {
    const parameters = {
      resourceType: 'Parameters',
      parameter: [{ name: 'PackageBundle', resource: respiratory() }],
    };
    expect(readQuestionnairePackage(parameters).canonical).toBe(
      'urn:inferno:dtr-test-kit:respiratory-assist-devices',
    );
  });

  it('reports a CQL-only library and leaves its expressions unanswered', async () => {
    const bundle = respiratory();
    const library = bundle.entry.find((entry) => entry.resource.name === 'BasicPatientInfo-prepopulation')!;
    library.resource.content = (library.resource.content as { contentType: string }[]).filter(
      (attachment) => attachment.contentType === 'text/cql',
    );
    const pkg = readQuestionnairePackage(bundle);
    expect(pkg.libraries_without_elm).toEqual([
      {
        name: 'BasicPatientInfo-prepopulation',
        url: 'http://hl7.org/fhir/us/davinci-dtr/Library/BasicPatientInfo-prepopulation',
      },
    ]);
    const result = await prefillQuestionnaire(pkg, pat015(), {
      now: EXPECTED_AUTHORED,
      context: [RESPIRATORY_ORDER],
    });
    expect(result.unanswered_expressions).toContain('"BasicPatientInfoPrepopulation".LastName');
  });
});
