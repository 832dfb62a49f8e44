import type { PriorAuthorizationRequest } from '../../domain/cases/prior-authorization-request';
import { SANDBOX_QUESTIONNAIRE_BASE } from '../../infrastructure/connectors/crd/simulated-crd-service';
import type { FhirResource } from '../../infrastructure/connectors/crd/cds-hooks';
import { sandboxDtrPackages } from '../../infrastructure/connectors/dtr/sandbox-packages';
import { questionnairePackageRequest } from '../../infrastructure/connectors/dtr/dtr-client';
import {
  answerQuestionnairePackageOperation,
  nextQuestion,
  questionnairePackage,
} from '../../infrastructure/connectors/dtr/simulated-dtr-service';
import type { QuestionnairePackageParameters } from '../../infrastructure/connectors/dtr/simulated-dtr-service';
import { prefillQuestionnaire } from '../../infrastructure/dtr/cql-prefill';
import { patientRecordBundle } from '../../infrastructure/dtr/patient-record';
import { readQuestionnairePackage } from '../../infrastructure/dtr/questionnaire-package';

const OZEMPIC = `${SANDBOX_QUESTIONNAIRE_BASE}/ozempic`;
const HUMIRA = `${SANDBOX_QUESTIONNAIRE_BASE}/humira`;
const UNKNOWN = `${SANDBOX_QUESTIONNAIRE_BASE}/metformin`;
const XELJANZ = `${SANDBOX_QUESTIONNAIRE_BASE}/xeljanz`;

function bundleResources(parameters: QuestionnairePackageParameters, index = 0): FhirResource[] {
  const parameter = parameters.parameter[index]!;
  if (parameter.name !== 'PackageBundle') throw new Error(`parameter ${index} is ${parameter.name}`);
  return parameter.resource.entry.map((entry) => entry.resource);
}

function decoded(library: FhirResource, contentType: string): string {
  const content = library.content as Array<{ contentType: string; data: string }>;
  return Buffer.from(
    content.find((attachment) => attachment.contentType === contentType)!.data,
    'base64',
  ).toString('utf8');
}

describe("The sandbox's simulated DTR service", () => {
  it("answers a drug's canonical with its package: the Questionnaire, its library and FHIRHelpers, CQL and ELM", () => {
    const answer = questionnairePackage(OZEMPIC);
    if (answer.kind !== 'found') throw new Error(JSON.stringify(answer.outcome));
    const [questionnaire, ...libraries] = bundleResources(answer.parameters);
    expect(answer.parameters.parameter[0]).toMatchObject({
      name: 'PackageBundle',
      resource: { resourceType: 'Bundle', type: 'collection' },
    });
    expect(questionnaire).toMatchObject({ resourceType: 'Questionnaire', url: OZEMPIC, status: 'active' });
    expect(libraries.map((library) => [library.resourceType, library.name])).toEqual([
      ['Library', 'SandboxOzempicCriteria'],
      ['Library', 'FHIRHelpers'],
    ]);
    const named = (questionnaire!.extension as Array<{ valueCanonical: string }>)[0]!.valueCanonical;
    const [main, helpers] = libraries;
    expect(`${main!.url as string}|${main!.version as string}`).toBe(named);
    expect(main!.relatedArtifact).toEqual([
      { type: 'depends-on', resource: `${helpers!.url as string}|4.0.1` },
    ]);
    expect(decoded(main!, 'text/cql')).toContain("library SandboxOzempicCriteria version '");
    expect(JSON.parse(decoded(main!, 'application/elm+json'))).toMatchObject({
      library: { identifier: { id: 'SandboxOzempicCriteria', version: main!.version } },
    });
  });

  it('answers the served version of a canonical and finds no other', () => {
    const { version } = sandboxDtrPackages().get(OZEMPIC)!;
    expect(questionnairePackage(`${OZEMPIC}|${version}`).kind).toBe('found');
    const older = questionnairePackage(`${OZEMPIC}|0.9`);
    expect(older).toEqual({
      kind: 'not_found',
      outcome: {
        resourceType: 'OperationOutcome',
        issue: [
          {
            severity: 'error',
            code: 'not-found',
            diagnostics: `Questionnaire ${OZEMPIC} is served in version ${version} only, not 0.9.`,
          },
        ],
      },
    });
  });

  it('finds no package for a canonical it does not serve', () => {
    expect(questionnairePackage(UNKNOWN)).toMatchObject({
      kind: 'not_found',
      outcome: { issue: [{ code: 'not-found', diagnostics: `No Questionnaire ${UNKNOWN} is served here.` }] },
    });
  });

  describe('as POST [base]/Questionnaire/$questionnaire-package', () => {
    it('answers 200 with a package per canonical found, and an outcome naming those it did not find', () => {
      const answer = answerQuestionnairePackageOperation(
        JSON.parse(JSON.stringify(questionnairePackageRequest([OZEMPIC, UNKNOWN, HUMIRA]))),
      );
      expect(answer.status).toBe(200);
      const parameters = answer.body as QuestionnairePackageParameters;
      expect(parameters.parameter.map((parameter) => parameter.name)).toEqual([
        'PackageBundle',
        'PackageBundle',
        'operationOutcome',
      ]);
      expect(bundleResources(parameters, 1)[0]).toMatchObject({ url: HUMIRA });
      expect(parameters.parameter[2]).toMatchObject({
        resource: { issue: [{ severity: 'warning', code: 'not-found' }] },
      });
    });

    it('answers 404 with an OperationOutcome when it finds none', () => {
      expect(answerQuestionnairePackageOperation(questionnairePackageRequest([UNKNOWN]))).toMatchObject({
        status: 404,
        body: { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'not-found' }] },
      });
    });

    it('answers 400 for a body that asks for no questionnaire', () => {
      for (const body of [null, { resourceType: 'Bundle' }, questionnairePackageRequest([])]) {
        expect(answerQuestionnairePackageOperation(body)).toMatchObject({
          status: 400,
          body: { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'invalid' }] },
        });
      }
    });
  });
});

describe("The sandbox's adaptive package (Xeljanz)", () => {
  const served = (): FhirResource => {
    const answer = questionnairePackage(XELJANZ);
    if (answer.kind !== 'found') throw new Error(JSON.stringify(answer.outcome));
    return bundleResources(answer.parameters)[0]!;
  };
  /** `$next-question` asked with the response the case sends: the Questionnaire as served, contained. */
  const asked = (questionnaire: FhirResource) => {
    const answer = nextQuestion({
      resourceType: 'QuestionnaireResponse',
      status: 'in-progress',
      questionnaire: '#served',
      contained: [{ ...questionnaire, id: 'served' }],
      item: [],
    });
    if (answer.kind !== 'found') throw new Error(JSON.stringify(answer.outcome));
    const response = answer.response as { status: string; contained: FhirResource[] };
    return { status: response.status, questionnaire: response.contained[0]! };
  };
  const linkIds = (questionnaire: FhirResource) =>
    ((questionnaire.item as { linkId: string }[] | undefined) ?? []).map((item) => item.linkId);

  it('is served adaptive, without questions of its own', () => {
    const questionnaire = served();
    expect(questionnaire).toMatchObject({ url: XELJANZ });
    expect(questionnaire.item).toBeUndefined();
    expect(questionnaire.extension).toContainEqual({
      url: 'http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-questionnaireAdaptive',
      valueBoolean: true,
    });
  });

  it('serves one more of the catalog questionnaire’s questions each round, completed with the last', () => {
    const rounds: [string, string[]][] = [];
    let questionnaire = served();
    for (let round = 0; round < 4; round++) {
      const next = asked(questionnaire);
      rounds.push([next.status, linkIds(next.questionnaire)]);
      questionnaire = next.questionnaire;
    }
    expect(rounds).toEqual([
      ['in-progress', ['adult']],
      ['in-progress', ['adult', 'jak_indication']],
      ['in-progress', ['adult', 'jak_indication', 'tnf_inhibitor_trial']],
      ['completed', ['adult', 'jak_indication', 'tnf_inhibitor_trial', 'tuberculosis_screening']],
    ]);
  });

  it('serves no next question for a static package', () => {
    const answer = questionnairePackage(OZEMPIC);
    if (answer.kind !== 'found') throw new Error(JSON.stringify(answer.outcome));
    expect(
      nextQuestion({
        resourceType: 'QuestionnaireResponse',
        questionnaire: '#served',
        contained: [{ ...bundleResources(answer.parameters)[0]!, id: 'served' }],
      }).kind,
    ).toBe('not_found');
  });
});

describe("The sandbox's DTR package through the DTR engine", () => {
  it('prefills the Ozempic questionnaire from a patient record, leaving the A1c the record lacks to a person', async () => {
    const answer = questionnairePackage(OZEMPIC);
    if (answer.kind !== 'found') throw new Error(JSON.stringify(answer.outcome));
    const pkg = readQuestionnairePackage(JSON.parse(JSON.stringify(answer.parameters)));
    const now = new Date('2026-11-01T15:00:00Z');
    const request = {
      patient: {
        internal_id: 'MRN-1',
        first_name: 'Ana',
        last_name: 'Lee',
        gender: 'female',
        date_of_birth: '1970-05-01',
      },
      diagnoses: [{ code: 'E11.9', description: 'Type 2 diabetes mellitus without complications' }],
      prescription: { drug_name: 'Ozempic', quantity: 1 },
      provider: { npi: '1234567893', first_name: 'Sam', last_name: 'Ray' },
      insurance: [],
      insurance_content: null,
      evidence: [],
      questionnaires: [],
      visit_notes: [{ content: 'Took metformin for 6 months.', created_at: '2026-10-01T10:00:00Z' }],
      is_training_data: false,
      urgency: 'standard',
      mock_result: null,
    } satisfies PriorAuthorizationRequest;
    const record = patientRecordBundle(request, null, { caseId: 'pa_interop', now });
    const { items, unanswered_expressions } = await prefillQuestionnaire(pkg, record, { now });
    expect(items.map((item) => [item.link_id, item.answer, item.origin])).toEqual([
      ['adult', true, 'auto'],
      ['type2_diabetes', true, 'auto'],
      ['a1c_at_least_7', null, null],
      ['metformin_trial', true, 'auto'],
    ]);
    expect(unanswered_expressions).toEqual(['"SandboxOzempicCriteria".a1c_at_least_7']);
  });
});
