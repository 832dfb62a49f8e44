import { MockActivityEnvironment } from '@temporalio/testing';

import {
  nextPayerQuestions,
  payerQuestionnaires,
  type PayerQuestionnaireDependencies,
} from '../../activities/payer-questionnaire';
import { adaptiveQuestionnaire, mergedItems } from '../../domain/dtr/adaptive-questionnaire';
import { answeredQuestionnaire } from '../../domain/dtr/questionnaire-answers';
import type {
  NextQuestionsAnswer,
  PayerQuestionnaireAnswer,
  PayerQuestionnaireQuery,
} from '../../domain/dtr/questionnaire';
import { inlineEvaluator } from '../../infrastructure/clinical/evaluation-pool';
import { SANDBOX_QUESTIONNAIRE_BASE } from '../../infrastructure/connectors/crd/simulated-crd-service';
import {
  nextQuestion,
  questionnairePackage,
} from '../../infrastructure/connectors/dtr/simulated-dtr-service';
import { writeSubmitBundle } from '../../infrastructure/connectors/pas/pas-request';
import { WebhookTargetPolicy } from '../../infrastructure/webhooks/target-policy';
import { ClearinghouseServer, type ClearinghouseRequest } from '../support/clearinghouse-server';
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
 * The QuestionnaireResponses of the sandbox's adaptive package (Xeljanz), as the service writes them,
 * checked against the Da Vinci DTR 2.0.1 profiles by the HL7 FHIR validator, offline
 * (scripts/fhir-profile-validate.sh, docs/dtr.md "Profile validation"): what `$next-question` is sent,
 * before the first round and with a person's answer (`dtr-questionnaireresponse`, its contained
 * Questionnaire `dtr-questionnaire-adapt`), and what the PAS `$submit` Bundle carries once complete.
 * DTR 2.0.1 has no profile of its own for an adaptive response: the standard one applies, and the
 * contained Questionnaire's adaptive one. One validator run for every file.
 *
 * The sandbox's DTR service is reached over loopback HTTP, as a live payer's is, so the responses
 * checked are the very bodies the activities sent. Skipped when the validator is not installed, except
 * in CI.
 */
const describeWithValidator = describeValidated('adaptive-dtr-profiles.test.ts');

const NOW = new Date('2026-11-25T12:00:00.000Z');
const XELJANZ = `${SANDBOX_QUESTIONNAIRE_BASE}/xeljanz`;
const FHIR_JSON = { 'Content-Type': 'application/fhir+json' };

/** A Xeljanz request whose record meets what its CQL reads; tuberculosis screening is documentation only. */
const exchange = remicadeExchange({
  request: {
    ...remicadeExchange().request,
    diagnoses: [{ code: 'M06.9' }],
    prescription: { drug_name: 'Xeljanz 5 mg tablet', quantity: 60, days_supply: 30 },
    evidence: [],
    visit_notes: [
      {
        content: 'Inadequate response to adalimumab for 6 months. QuantiFERON negative in January.',
        created_at: '2026-10-02T10:00:00Z',
      },
    ],
  },
});

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

describeWithValidator(
  "the sandbox's adaptive Xeljanz QuestionnaireResponses, against the Da Vinci DTR 2.0.1 profiles",
  () => {
    let sent: Record<string, Json>;
    let report: Report;

    beforeAll(async () => {
      const url = `${new URL(await sandboxDtr.start()).origin}/fhir`;
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
        caseId: exchange.caseId,
        accountId: exchange.accountId,
        mode: 'live',
        canonical: XELJANZ,
        request: exchange.request,
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
        writeSubmitBundle({ ...exchange, questionnaire: completed }, { sentAt: NOW }),
      ) as Json;
      const pas = (bundle.entry as Json[]).find(
        (entry) => entry.resource.resourceType === 'QuestionnaireResponse',
      )!;
      sent = {
        'next-question.first-round.QuestionnaireResponse.json': asked(nextQuestionCalls[0]!),
        'next-question.with-answer.QuestionnaireResponse.json': asked(nextQuestionCalls.at(-1)!),
        'pas.QuestionnaireResponse.json': pas.resource as Json,
      };
      report = validate(sent);
    }, 180_000);

    afterAll(() => sandboxDtr.stop());

    it('claims DTR’s response profile, and for the Questionnaire it contains, DTR’s adaptive one', () => {
      for (const [name, response] of Object.entries(sent)) {
        expect([name, response.meta.profile]).toEqual([
          name,
          ['http://hl7.org/fhir/us/davinci-dtr/StructureDefinition/dtr-questionnaireresponse'],
        ]);
      }
      for (const name of Object.keys(sent).filter((name) => name.startsWith('next-question'))) {
        expect([name, sent[name]!.contained[0].meta.profile]).toEqual([
          name,
          ['http://hl7.org/fhir/us/davinci-dtr/StructureDefinition/dtr-questionnaire-adapt'],
        ]);
      }
    });

    it('finds no error or fatal issue in what $next-question is sent with a person’s answer', () => {
      const name = 'next-question.with-answer.QuestionnaireResponse.json';
      printWarnings([name]);
      expect(errorsIn(report, [name])).toEqual([]);
    });

    it('finds only DTR’s minimum of one item wanting in what $next-question is sent before the first round, which has nothing to answer yet', () => {
      const name = 'next-question.first-round.QuestionnaireResponse.json';
      printWarnings([name]);
      expect(errorsIn(report, [name])).toEqual([
        expect.stringMatching(
          /QuestionnaireResponse\.item: minimum required = 1, but only found 0 .*dtr-questionnaireresponse/,
        ),
      ]);
    });

    it('finds no error or fatal issue in the completed response the PAS $submit Bundle carries', () => {
      printWarnings(['pas.QuestionnaireResponse.json']);
      expect(errorsIn(report, ['pas.QuestionnaireResponse.json'])).toEqual([]);
    });

    /** Warnings stay warnings: printed once each, without where, so that a new kind is seen. */
    function printWarnings(names: string[]): void {
      const warnings = new Set(issuesIn(report, names, ['warning']).map((issue) => issue.message));
      if (warnings.size > 0)
        console.info(`Adaptive DTR QuestionnaireResponse warnings:\n${[...warnings].join('\n')}`);
    }
  },
);
