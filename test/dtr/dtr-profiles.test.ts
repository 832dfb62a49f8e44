import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { MockActivityEnvironment } from '@temporalio/testing';

import {
  nextPayerQuestions,
  payerQuestionnaires,
  type PayerQuestionnaireDependencies,
} from '../../activities/payer-questionnaire';
import type { PriorAuthorizationRequest } from '../../domain/cases/prior-authorization-request';
import { adaptiveQuestionnaire, mergedItems } from '../../domain/dtr/adaptive-questionnaire';
import type {
  CaseQuestionnaire,
  NextQuestionsAnswer,
  PayerQuestionnaireAnswer,
  PayerQuestionnaireQuery,
} from '../../domain/dtr/questionnaire';
import { pendingLinkIds } from '../../domain/dtr/enablement';
import { questionnaireResponseOf } from '../../domain/dtr/questionnaire-response';
import { answeredQuestionnaire, withAnswers } from '../../domain/dtr/questionnaire-answers';
import { type FhirReference } from '../../domain/dtr/fhir-questionnaire';
import { inlineEvaluator } from '../../infrastructure/clinical/evaluation-pool';
import { SANDBOX_QUESTIONNAIRE_BASE } from '../../infrastructure/connectors/crd/simulated-crd-service';
import {
  nextQuestion,
  questionnairePackage,
} from '../../infrastructure/connectors/dtr/simulated-dtr-service';
import { sandboxDtrPackages } from '../../infrastructure/connectors/dtr/sandbox-packages';
import { writeSubmitBundle } from '../../infrastructure/connectors/pas/pas-request';
import { prefillQuestionnaire } from '../../infrastructure/dtr/cql-prefill';
import { patientRecordBundle } from '../../infrastructure/dtr/patient-record';
import { readQuestionnairePackage } from '../../infrastructure/dtr/questionnaire-package';
import { WebhookTargetPolicy } from '../../infrastructure/webhooks/target-policy';
import { ClearinghouseServer, type ClearinghouseRequest } from '../support/clearinghouse-server';
import { priorAuthorizationRequest, XELJANZ_MEETING_CRITERIA } from '../support/case-requests';
import {
  describeWithValidator as describeValidated,
  errorsIn,
  issuesIn,
  validate,
  type Json,
  type Report,
} from '../support/fhir-profile-validator';
import { remicadeExchange } from '../support/pas-exchanges';

/**
 * What our DTR side writes, checked against base FHIR R4 and the Da Vinci DTR 2.0.1 profiles it
 * claims by the HL7 FHIR validator's instance validator, offline (scripts/fhir-profile-validate.sh,
 * docs/dtr.md "Profile validation"): the QuestionnaireResponse of a prefilled and answered sandbox
 * package, every sandbox Questionnaire (DTR's standard questionnaire profile), the
 * QuestionnaireResponse the PAS `$submit` Bundle carries, and those of the sandbox's adaptive package.
 * One validator run for every file: it spends most of its time loading FHIR's definitions.
 *
 * Skipped when the validator is not installed (`scripts/fhir-profile-validate.sh --install`), except
 * in CI, where .ci/run installs it and a missing validator fails the test.
 */
const describeWithValidator = describeValidated('dtr-profiles.test.ts');

const NOW = new Date('2026-11-25T12:00:00.000Z');
const CASE_ID = 'pa_01jq0000000000000000000000';
const ANSWERED_BY = 'usr_01jq0000000000000000000000';

function sandboxPackage(drugId: string) {
  const served = [...sandboxDtrPackages().values()].find((pkg) => pkg.drugId === drugId);
  if (!served) throw new Error(`no sandbox DTR package for ${drugId}`);
  return readQuestionnairePackage(served.bundle);
}

const referenceTo = (bundle: { entry: { resource: Json }[] }, type: string): FhirReference => {
  const resource = bundle.entry.find((entry) => entry.resource.resourceType === type)!.resource;
  return { reference: `${type}/${resource.id}`, type };
};

/**
 * The sandbox's Ozempic package prefilled over the record of a request whose visit note leaves out
 * metformin, so the metformin item waits for a person, who answers it (`manual`, with its author); the other items
 * are the CQL's (`auto`). Named as the service's record names the patient, order, coverage and
 * prescriber.
 */
async function ozempicResponse(): Promise<Json> {
  const request = {
    ...priorAuthorizationRequest({
      visit_notes: [{ content: 'A1c 8.1 %.', created_at: '2026-10-02T10:00:00Z' }],
    }),
    questionnaires: [],
  } as unknown as PriorAuthorizationRequest;
  const record = patientRecordBundle(request, null, { caseId: CASE_ID, now: NOW });
  const pkg = sandboxPackage('ozempic');
  const { items: prefilled } = await prefillQuestionnaire(pkg, record, { now: NOW });
  const waiting = pendingLinkIds(prefilled);
  expect(waiting).toEqual(['metformin_trial']);
  const items = withAnswers(prefilled, [{ link_id: 'metformin_trial', value: true }], ANSWERED_BY);
  const prescriber = referenceTo(record, 'Practitioner');
  return questionnaireResponseOf(pkg.canonical, items, {
    subject: referenceTo(record, 'Patient'),
    context: [referenceTo(record, 'MedicationRequest'), referenceTo(record, 'Coverage')],
    authored: NOW.toISOString(),
    author: prescriber,
    authors: { [ANSWERED_BY]: prescriber },
    status: pendingLinkIds(items).length === 0 ? 'completed' : 'in-progress',
  }) as unknown as Json;
}

/**
 * The QuestionnaireResponse entry of the PAS `$submit` Bundle of a Remicade request whose sandbox
 * questionnaire was prefilled over its record and its tuberculosis screening answered by a person.
 */
async function pasResponse(): Promise<Json> {
  const exchange = remicadeExchange();
  const pkg = sandboxPackage('remicade');
  const record = patientRecordBundle(exchange.request, null, { caseId: exchange.caseId, now: NOW });
  const { items: prefilled } = await prefillQuestionnaire(pkg, record, { now: NOW });
  expect(pendingLinkIds(prefilled)).toEqual(['tuberculosis_screening']);
  const items = withAnswers(prefilled, [{ link_id: 'tuberculosis_screening', value: true }], ANSWERED_BY);
  const questionnaire: CaseQuestionnaire = {
    canonical: pkg.canonical,
    title: pkg.title,
    status: pendingLinkIds(items).length === 0 ? 'completed' : 'in_progress',
    items,
    pending: pendingLinkIds(items),
    prefill_failure: null,
  };
  const bundle = JSON.parse(writeSubmitBundle({ ...exchange, questionnaire }, { sentAt: NOW })) as Json;
  const responses = (bundle.entry as Json[]).filter(
    (entry) => entry.resource.resourceType === 'QuestionnaireResponse',
  );
  expect(responses).toHaveLength(1);
  return responses[0]!.resource as Json;
}

/** A Xeljanz request whose record meets what its CQL reads; tuberculosis screening is documentation only. */
const xeljanzExchange = remicadeExchange({
  request: { ...remicadeExchange().request, ...XELJANZ_MEETING_CRITERIA },
});
const XELJANZ = `${SANDBOX_QUESTIONNAIRE_BASE}/xeljanz`;
const FHIR_JSON = { 'Content-Type': 'application/fhir+json' };

/** The sandbox payer's DTR service (infrastructure/connectors/dtr/simulated-dtr-service.ts) over HTTP. */
const sandboxDtr = new ClearinghouseServer(({ url, body }) => {
  const parameters = JSON.parse(body) as Json;
  const answer = url.endsWith('/Questionnaire/$next-question')
    ? nextQuestion(parameters.parameter[0].resource)
    : questionnairePackage(XELJANZ);
  if (answer.kind !== 'found')
    return { status: 404, headers: FHIR_JSON, body: JSON.stringify(answer.outcome) };
  return {
    status: 200,
    headers: FHIR_JSON,
    body: JSON.stringify('response' in answer ? answer.response : answer.parameters),
  };
});

const asked = (request: ClearinghouseRequest): Json =>
  (JSON.parse(request.body) as Json).parameter[0].resource as Json;

/**
 * The QuestionnaireResponses of the sandbox's adaptive package (Xeljanz) as the activities send them to
 * its DTR service, reached over loopback HTTP as a live payer's is: what `$next-question` is sent before
 * the first round and with a person's answer, and what the PAS `$submit` Bundle carries once complete.
 * DTR 2.0.1 has no profile of its own for an adaptive response: the standard one applies, and the
 * contained Questionnaire's adaptive one.
 */
async function adaptiveXeljanzResponses(): Promise<Record<string, Json>> {
  const url = `${new URL(await sandboxDtr.start()).origin}/fhir`;
  try {
    const dependencies: PayerQuestionnaireDependencies = {
      evaluator: inlineEvaluator,
      readEvidence: async () => ({ evidence: [] }),
      liveDtrService: async () => ({
        url,
        auth: { type: 'bearer', token: 'dtr-token-0000000001' },
        timeoutMs: 5000,
      }),
      policy: new WebhookTargetPolicy(['127.0.0.0/8']),
    };
    const query: PayerQuestionnaireQuery = {
      caseId: xeljanzExchange.caseId,
      accountId: xeljanzExchange.accountId,
      mode: 'live',
      canonical: XELJANZ,
      request: xeljanzExchange.request,
    };
    const attempt = () => new MockActivityEnvironment({ startToCloseTimeoutMs: 30_000 });

    const prefilled = (await attempt().run(
      payerQuestionnaires(dependencies),
      query,
    )) as PayerQuestionnaireAnswer;
    if (prefilled.kind !== 'prefilled' || !prefilled.adaptive)
      throw new Error('expected an adaptive questionnaire');
    expect(prefilled.questionnaire.pending).toEqual(['tuberculosis_screening']);
    const answered = answeredQuestionnaire(prefilled.questionnaire, {
      answers: [{ link_id: 'tuberculosis_screening', value: true }],
      author: 'Dr. Example',
    });
    const round = (await attempt().run(nextPayerQuestions(dependencies), {
      ...query,
      items: answered.items,
      adaptive: prefilled.adaptive,
    })) as NextQuestionsAnswer;
    if (round.kind !== 'served') throw new Error(`the round after the answer ${round.kind}`);
    const completed = adaptiveQuestionnaire(
      answered,
      mergedItems(answered.items, round.items),
      round.adaptive,
      round.prefill_failure,
    );
    expect(completed).toMatchObject({ status: 'completed', pending: [] });

    const nextQuestionCalls = sandboxDtr.requests.filter((request) =>
      request.url.endsWith('/Questionnaire/$next-question'),
    );
    // One round a question: four at prefill (the CQL answers three), one after the answer.
    expect(nextQuestionCalls).toHaveLength(5);
    const bundle = JSON.parse(
      writeSubmitBundle({ ...xeljanzExchange, questionnaire: completed }, { sentAt: NOW }),
    ) as Json;
    const pas = (bundle.entry as Json[]).find(
      (entry) => entry.resource.resourceType === 'QuestionnaireResponse',
    )!;
    return {
      'xeljanz.next-question.first-round.QuestionnaireResponse.json': asked(nextQuestionCalls[0]!),
      'xeljanz.next-question.with-answer.QuestionnaireResponse.json': asked(nextQuestionCalls.at(-1)!),
      'xeljanz.pas.QuestionnaireResponse.json': pas.resource as Json,
    };
  } finally {
    await sandboxDtr.stop();
  }
}

/** Every sandbox Questionnaire, as catalog/dtr/<drug>/questionnaire.json holds it. */
function sandboxQuestionnaires(): Record<string, Json> {
  const directory = join(__dirname, '../../catalog/dtr');
  return Object.fromEntries(
    readdirSync(directory, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(directory, entry.name, 'questionnaire.json')))
      .map((entry) => [
        `questionnaire.${entry.name}.json`,
        JSON.parse(readFileSync(join(directory, entry.name, 'questionnaire.json'), 'utf8')) as Json,
      ]),
  );
}

/** Responses the validator must fault, to show it checks DTR's profile (same run, so no second start). */
function brokenDocuments(response: Json): Record<string, Json> {
  const withoutContext = structuredClone(response);
  withoutContext.extension = [];
  const withoutOrigin = structuredClone(response);
  delete withoutOrigin.item[0].answer[0].extension;
  // Against the sandbox Questionnaire among the files: `adult` is a boolean item.
  const wrongType = structuredClone(response);
  const adult = (wrongType.item as Json[]).find((item) => item.linkId === 'adult')!;
  delete adult.answer[0].valueBoolean;
  adult.answer[0].valueString = 'yes';
  return {
    'broken.response-without-context-and-use.json': withoutContext,
    'broken.answer-without-origin.json': withoutOrigin,
    'broken.answer-of-the-wrong-type.json': wrongType,
  };
}

describeWithValidator('what DTR sends, against the Da Vinci DTR 2.0.1 profiles', () => {
  const questionnaires = sandboxQuestionnaires();
  let sent: Record<string, Json>;
  let adaptive: Record<string, Json>;
  let broken: Record<string, Json>;
  let report: Report;

  beforeAll(async () => {
    sent = {
      'ozempic.QuestionnaireResponse.json': await ozempicResponse(),
      'pas.QuestionnaireResponse.json': await pasResponse(),
      ...questionnaires,
    };
    adaptive = await adaptiveXeljanzResponses();
    broken = brokenDocuments(sent['ozempic.QuestionnaireResponse.json']!);
    report = validate({ ...sent, ...adaptive, ...broken });
  }, 180_000);

  it('ran against the CRD and DTR 2.0.1 packages (PAS 2.0.1 beside them), on every document, and says what it could not check', () => {
    expect(report.packages).toEqual([
      expect.stringMatching(/^hl7\.fhir\.us\.davinci-crd#2\.0\.1 /),
      expect.stringMatching(/^hl7\.fhir\.us\.davinci-dtr#2\.0\.1 /),
      expect.stringMatching(/^hl7\.fhir\.us\.davinci-pas#2\.0\.1 /),
    ]);
    expect(report.files.map((file) => file.file).sort()).toEqual(
      Object.keys({ ...sent, ...adaptive, ...broken }).sort(),
    );
    // The packages' dependencies that no registry reached here serves (docs/dtr.md, "Profile validation").
    expect(report.missing_dependencies).toEqual([
      'hl7.fhir.us.core#3.1.1',
      'hl7.fhir.us.davinci-hrex#1.0.0',
      'hl7.fhir.uv.extensions.r4#1.0.0',
      'hl7.fhir.uv.sdc#3.0.0',
      'hl7.fhir.uv.subscriptions-backport.r4#1.1.0',
      'hl7.terminology.r4#5.3.0',
      'us.nlm.vsac#0.11.0',
    ]);
    // What that leaves unchecked is SDC's extensions (slices of DTR's profiles) and US Core's
    // profiles as reference targets; printed, so that a new kind is seen.
    expect(new Set(report.not_checked.map((entry) => entry.package))).toEqual(
      new Set(['hl7.fhir.uv.sdc#3.0.0', 'hl7.fhir.us.core#3.1.1']),
    );
    console.info(
      `DTR profile validation, not checked (package not loaded):\n${report.not_checked
        .map((entry) => `${entry.element} against ${entry.profile}`)
        .join('\n')}`,
    );
  });

  it('claims the DTR profiles', () => {
    for (const [name, document] of Object.entries(sent)) {
      expect([name, document.meta?.profile]).toEqual([
        name,
        [
          document.resourceType === 'Questionnaire'
            ? 'http://hl7.org/fhir/us/davinci-dtr/StructureDefinition/dtr-std-questionnaire'
            : 'http://hl7.org/fhir/us/davinci-dtr/StructureDefinition/dtr-questionnaireresponse',
        ],
      ]);
    }
    expect(Object.keys(questionnaires).length).toBeGreaterThanOrEqual(20);
  });

  it('finds no error or fatal issue in the QuestionnaireResponse of a prefilled, answered package', () => {
    const name = 'ozempic.QuestionnaireResponse.json';
    printWarnings('DTR QuestionnaireResponse', [name]);
    expect(errorsIn(report, [name])).toEqual([]);
  });

  it('finds no error or fatal issue in the sandbox Questionnaires', () => {
    const names = Object.keys(questionnaires);
    printWarnings('DTR Questionnaire', names);
    expect(errorsIn(report, names)).toEqual([]);
  });

  it('finds no error or fatal issue in the QuestionnaireResponse of the PAS $submit Bundle', () => {
    const name = 'pas.QuestionnaireResponse.json';
    printWarnings('PAS QuestionnaireResponse', [name]);
    expect(errorsIn(report, [name])).toEqual([]);
  });

  it('claims DTR’s response profile for the adaptive responses, and for the Questionnaire they contain, DTR’s adaptive one', () => {
    for (const [name, response] of Object.entries(adaptive)) {
      expect([name, response.meta.profile]).toEqual([
        name,
        ['http://hl7.org/fhir/us/davinci-dtr/StructureDefinition/dtr-questionnaireresponse'],
      ]);
    }
    for (const name of Object.keys(adaptive).filter((name) => name.includes('next-question'))) {
      expect([name, adaptive[name]!.contained[0].meta.profile]).toEqual([
        name,
        ['http://hl7.org/fhir/us/davinci-dtr/StructureDefinition/dtr-questionnaire-adapt'],
      ]);
    }
  });

  it('finds no error or fatal issue in what $next-question is sent with a person’s answer', () => {
    const name = 'xeljanz.next-question.with-answer.QuestionnaireResponse.json';
    printWarnings('Adaptive DTR QuestionnaireResponse', [name]);
    expect(errorsIn(report, [name])).toEqual([]);
  });

  it('finds only DTR’s minimum of one item wanting in what $next-question is sent before the first round, which has nothing to answer yet', () => {
    const name = 'xeljanz.next-question.first-round.QuestionnaireResponse.json';
    printWarnings('Adaptive DTR QuestionnaireResponse', [name]);
    expect(errorsIn(report, [name])).toEqual([
      expect.stringMatching(
        /QuestionnaireResponse\.item: minimum required = 1, but only found 0 .*dtr-questionnaireresponse/,
      ),
    ]);
  });

  it('finds no error or fatal issue in the completed adaptive response the PAS $submit Bundle carries', () => {
    const name = 'xeljanz.pas.QuestionnaireResponse.json';
    printWarnings('Adaptive PAS QuestionnaireResponse', [name]);
    expect(errorsIn(report, [name])).toEqual([]);
  });

  it('faults a response without its context and use, an answer without its origin, and one of the wrong type', () => {
    expect(errorsIn(report, ['broken.response-without-context-and-use.json'])).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/extension:context/),
        expect.stringMatching(/extension:intendedUse/),
      ]),
    );
    expect(errorsIn(report, ['broken.answer-without-origin.json'])).toContainEqual(
      expect.stringMatching(/origin/),
    );
    expect(errorsIn(report, ['broken.answer-of-the-wrong-type.json'])).toContainEqual(
      expect.stringMatching(/item\[0\]\.answer\[0\].*boolean/i),
    );
  });

  /** Warnings stay warnings: printed once each, without where, so that a new kind is seen. */
  function printWarnings(what: string, names: string[]): void {
    const warnings = new Set(issuesIn(report, names, ['warning']).map((issue) => issue.message));
    if (warnings.size > 0) console.info(`${what} warnings:\n${[...warnings].join('\n')}`);
  }
});
