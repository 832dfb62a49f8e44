import { Context } from '@temporalio/activity';

import type { InsuranceContent, Provider } from '../domain/cases/case-model';
import type { DrugRequest } from '../domain/cases/benefit-verification-request';
import type { Clearinghouse } from '../domain/payers/clearinghouse';
import type { InterchangeEnvelope } from '../domain/payers/eligibility';
import { ConnectorError } from '../domain/failures';
import { normalizeNdc } from '../domain/payers/name-matching';
import { drugWithoutFormularyTerms } from '../domain/payers/payer-connector';
import type {
  BenefitsCheck,
  BenefitsCheckInput,
  DrugCoverage,
  InsuranceEvidence,
  PayerConnector,
  PlanResolution,
  PriorAuthDetermination,
  PriorAuthPrefill,
  PriorAuthPrefillRequest,
  PriorAuthSubmissionInput,
  ScannedCardFields,
} from '../domain/payers/payer-connector';
import type {
  PayerPriorAuthAnswer,
  PriorAuthExchangeInput,
  PriorAuthInformationInput,
  PriorAuthInquiryInput,
  PriorAuthorizationChannel,
} from '../domain/payers/prior-authorization-exchange';
import type { CaseDocumentsRepository } from '../infrastructure/cases/case-documents.repository';
import type { DocumentReadingsRepository } from '../infrastructure/documents/document-readings.repository';
import { detectDocumentFormat } from '../domain/documents/document-format';
import { pageText, readByOneReader } from '../domain/documents/document-reading';
import type { ReadPage } from '../domain/documents/document-reading';
import { cardsAmong } from '../domain/payers/card-documents';
import type { DocumentedCard } from '../domain/payers/card-documents';
import { scannedCardFields, unreadCardGap } from '../domain/payers/scanned-card-fields';
import { insuranceCardView, sameMember, withCardFilledGaps } from '../domain/payers/insurance-card-view';
import type { InsuranceCardView } from '../domain/payers/card-fields';
import type { ConnectorSettingsRepository } from '../infrastructure/connectors/connector-settings.repository';
import { HttpClearinghouse } from '../infrastructure/connectors/http-clearinghouse';
import type { FormulariesRepository } from '../infrastructure/formularies/formularies.repository';
import type { WebhookTargetPolicy } from '../infrastructure/webhooks/target-policy';
import { SimulatedClearinghouse } from '../infrastructure/connectors/simulated-clearinghouse';
import { X12ValueError } from '../infrastructure/connectors/x12/interchange';
import {
  checkEligibilityOverX12,
  EligibilityQuestion,
  sandboxControlNumber,
} from '../infrastructure/connectors/x12/eligibility';
import { catalogFallback } from '../domain/payers/coverage-requirements';
import { questionnaireUnavailable } from '../domain/dtr/questionnaire';
import type {
  NextQuestionsAnswer,
  NextQuestionsQuery,
  PayerQuestionnaireAnswer,
  PayerQuestionnaireQuery,
  QuestionnaireFallbackReason,
} from '../domain/dtr/questionnaire';
import type {
  CoverageRequirementsAnswer,
  CoverageRequirementsQuery,
} from '../domain/payers/coverage-requirements';
import { attemptDeadline } from './attempt-deadline';
import { evidenceReader } from './evidence-reading';
import { callConnector } from './connector-failures';

/** An account's live clearinghouse, as its connector settings configure it. */
export interface LiveClearinghouse {
  clearinghouse: Clearinghouse;
  /** A fresh envelope (next control number) for each interchange. */
  nextEnvelope(): Promise<InterchangeEnvelope>;
}

export interface CaseActivityDependencies {
  payer: PayerConnector;
  /**
   * The payer channel a prior authorization goes through, chosen at each call from its account, mode
   * and drug (activities/prior-authorization-channels.ts).
   */
  priorAuthorizationChannel: (input: PriorAuthExchangeInput) => Promise<PriorAuthorizationChannel>;
  /**
   * What the payer's CRD service says a prior authorization's order requires, chosen at each call
   * from its account and mode (activities/coverage-requirements-discovery.ts).
   */
  coverageRequirements: (query: CoverageRequirementsQuery) => Promise<CoverageRequirementsAnswer>;
  /**
   * The payer's questionnaire (DTR) a prior authorization's CRD answer named, prefilled by the payer's
   * CQL (activities/payer-questionnaire.ts).
   */
  payerQuestionnaire: (query: PayerQuestionnaireQuery) => Promise<PayerQuestionnaireAnswer>;
  /** An adaptive questionnaire's next questions, prefilled (activities/payer-questionnaire.ts). */
  nextPayerQuestions: (query: NextQuestionsQuery) => Promise<NextQuestionsAnswer>;
  documents: CaseDocumentsRepository;
  readings: DocumentReadingsRepository;
  /** Undefined when the account has no eligibility connector. */
  liveClearinghouse?: (accountId: string) => Promise<LiveClearinghouse | undefined>;
  /** The formulary data accounts load for live mode (docs/formularies.md). */
  formularies?: Pick<FormulariesRepository, 'coverageFor'>;
  now?: () => Date;
}

/** What a benefit check needs beyond the insurance, set by workflows since live mode exists. */
export interface BenefitsCheckRouting {
  caseId: string;
  accountId: string;
  livemode: boolean;
  /** `taxonomy_code`: the registry's, for the 270's PRV segment; absent when it gave none. */
  provider: Pick<Provider, 'npi' | 'first_name' | 'last_name'> & { taxonomy_code?: string };
  patientGender?: string;
}

const SANDBOX_ENVELOPE = { senderId: 'HAASANDBOX', receiverId: 'SIMCLEARING', usage: 'test' } as const;

const NO_FORMULARY_DATA =
  'The account has loaded no formulary for this payer, and a 271 answers per service type, not per drug.';

/** Where a case's insurance data lives: discrete fields, and card documents by id. */
export interface CaseInsurance {
  documentIds: string[];
  content: InsuranceContent | null;
}

/**
 * The payer calls of case workflows. Card documents are read here, inside the activity, so their
 * contents never pass through workflow history.
 */
export const createCaseActivities = ({
  payer,
  priorAuthorizationChannel,
  coverageRequirements,
  payerQuestionnaire,
  nextPayerQuestions,
  documents,
  readings,
  liveClearinghouse = async () => undefined,
  formularies,
  now = () => new Date(),
}: CaseActivityDependencies) => {
  /**
   * Text cards are taken as sent; cards the case has read (images, PDFs) give their fields, front and
   * back together. A case that has not read its documents (one started before documents were read)
   * takes every card as text, as it always did.
   */
  const cardsOf = async (
    insurance: CaseInsurance,
  ): Promise<{
    cardTexts: string[];
    scanned?: { primary: DocumentedCard; others: DocumentedCard[]; documents: string[] };
  }> => {
    const cardTexts: string[] = [];
    const scannedDocuments: ReadPage[][] = [];
    const scannedNames: string[] = [];
    for (const document of await readings.documents(insurance.documentIds)) {
      const found = await readings.find(document.accountId, document.sha256);
      // A reading made with one reader (kept when the case's OCR budget was spent) gives no card: its
      // identifiers were never confirmed by a second reading.
      const reading = found && !readByOneReader(found) ? found : undefined;
      if (found && !reading) continue;
      if (reading && reading.format !== 'text') {
        scannedDocuments.push(reading.pages);
        scannedNames.push(document.name);
        continue;
      }
      // Only text cards, and files without a reading, are decrypted here. A file without a reading
      // (over the case's OCR budget, or one a case started before did not read) says nothing unless
      // its bytes are text: they are never taken as a text card otherwise.
      const [bytes] = await documents.read([document.documentId]);
      if (reading || detectDocumentFormat(bytes!) === 'text') cardTexts.push(bytes!.toString('utf8'));
    }
    const scanned = cardsAmong(scannedDocuments, insurance.content?.member_id);
    return scanned ? { cardTexts, scanned: { ...scanned, documents: scannedNames } } : { cardTexts };
  };

  /**
   * What a payer call takes: the fields read with confidence from scanned cards and, with discrete
   * data, that data with the gaps the card fills (discrete wins field by field).
   */
  const readEvidence = evidenceReader({ documents, readings });

  /** A request with its file evidence's bytes attached, for a payer that receives the files themselves. */
  const withAttachments = async <Input extends PriorAuthExchangeInput>(input: Input): Promise<Input> => {
    const assetIds = input.request.evidence.flatMap((item) => (item.asset ? [item.asset.document_id] : []));
    if (assetIds.length === 0) return input;
    const contents = await documents.read(assetIds);
    const attachments = Object.fromEntries(
      assetIds.map((id, index) => [id, contents[index]!.toString('base64')]),
    );
    return { ...input, attachments };
  };

  const evidenceOf = async (insurance: CaseInsurance): Promise<InsuranceEvidence> => {
    const { cardTexts, scanned } = await cardsOf(insurance);
    const primary = scanned?.primary;
    // Another member's card says nothing about the discrete data's plan.
    const card =
      primary && (!insurance.content || sameMember(insurance.content, primary.card)) ? primary : undefined;
    const content =
      insurance.content && card ? withCardFilledGaps(insurance.content, card.card) : insurance.content;
    return {
      content: content ?? undefined,
      cardTexts,
      ...(card && scanned ? { scannedCard: fieldsOf(card, scanned.documents) } : {}),
    };
  };

  /**
   * Test mode: the simulator decides, and its decision travels back as a 271 from the simulated
   * clearinghouse, through the same 270 builder, 271 reader and mapping as live mode.
   */
  const sandboxBenefits = async (
    check: BenefitsCheckInput,
    routing: BenefitsCheckRouting,
  ): Promise<BenefitsCheck> => {
    const decision = await payer.checkBenefits(check);
    const plan = await payer.resolvePlan(check.insurance);
    // Without a payer and member there is no 270 to send; the simulator's answer stands.
    if (!plan.resolved) return decision;
    const asOf = isoDate(now());
    const question = questionFor(routing, check, {
      payer: { id: plan.plan.payer_id, name: plan.plan.payer_name },
      memberId: plan.plan.member_id,
      groupNumber: check.insurance.content?.group_number ?? plan.plan.rx_group,
    });
    const envelope = {
      ...SANDBOX_ENVELOPE,
      controlNumber: sandboxControlNumber(routing.caseId),
      createdAt: now(),
    };
    let eligibility: BenefitsCheck;
    try {
      eligibility = await checkEligibilityOverX12(question, {
        clearinghouse: new SimulatedClearinghouse(decision, envelope, asOf),
        envelope,
        asOf,
      });
    } catch (error) {
      // A name or id X12 cannot carry: the sandbox still answers, as it did before it spoke X12.
      if (error instanceof X12ValueError) return decision;
      throw error;
    }
    // The simulator's own words say more than "the 271 named no pharmacy benefit".
    if (eligibility.kind === 'inconclusive' && decision.kind === 'inconclusive') return decision;
    if (eligibility.kind !== 'completed' || decision.kind !== 'completed') return eligibility;
    const simulated = decision.outcome;
    const read = eligibility.outcome;
    return {
      kind: 'completed',
      outcome: {
        ...read,
        // Names as the catalog writes them (a 270 names the payer in capitals, and the 271 echoes it).
        payer_name: simulated.payer_name ?? read.payer_name,
        // What a 271 does not carry comes from the plan the card or insurance data named.
        coverage_type: read.coverage_type ?? simulated.coverage_type,
        plan_fund_source: read.plan_fund_source ?? simulated.plan_fund_source,
        pharmacy_benefit_manager_name:
          read.pharmacy_benefit_manager_name ?? simulated.pharmacy_benefit_manager_name,
        bin: read.bin ?? simulated.bin,
        pcn: read.pcn ?? simulated.pcn,
        drugs: simulated.drugs,
      },
    };
  };

  /** Live mode: the account's clearinghouse answers; drugs are unknown until formulary data exists. */
  const liveBenefits = async (
    check: BenefitsCheckInput,
    routing: BenefitsCheckRouting,
  ): Promise<BenefitsCheck> => {
    const live = await liveClearinghouse(routing.accountId);
    if (!live) {
      throw new ConnectorError('No eligibility connector is configured for this account.', {
        transient: false,
      });
    }
    const content = check.insurance.content;
    if (!content?.payer_id) {
      return {
        kind: 'inconclusive',
        reason:
          'The insurance data has no clearinghouse payer id (insurance_content.payer_id), so no 270 could be sent.',
      };
    }
    const { payer: payerName, member_id: memberId } = content;
    if (!payerName || !memberId) {
      const missing = memberId ? 'payer name' : 'member id';
      return {
        kind: 'inconclusive',
        reason: `Neither the insurance data nor a readable card gave the ${missing}, so no 270 could be sent.`,
      };
    }
    const question = questionFor(routing, check, {
      payer: { id: content.payer_id, name: payerName },
      memberId,
      groupNumber: content.group_number,
    });
    let eligibility: BenefitsCheck;
    try {
      eligibility = await checkEligibilityOverX12(question, {
        clearinghouse: live.clearinghouse,
        envelope: await live.nextEnvelope(),
        asOf: isoDate(now()),
      });
    } catch (error) {
      // Nothing was sent: a person can still verify what no 270 could ask.
      if (error instanceof X12ValueError) return { kind: 'inconclusive', reason: `${error.message}.` };
      throw error;
    }
    if (eligibility.kind !== 'completed') return eligibility;
    return {
      kind: 'completed',
      outcome: {
        ...eligibility.outcome,
        bin: eligibility.outcome.bin ?? content.rx_bin ?? null,
        pcn: eligibility.outcome.pcn ?? content.rx_pcn ?? null,
        drugs:
          (await formularies?.coverageFor(
            routing.accountId,
            content.payer_id,
            { groupNumber: content.group_number ?? null, planName: eligibility.outcome.plan_name },
            check.drugs,
          )) ?? check.drugs.map((drug) => unknownDrug(drug, NO_FORMULARY_DATA)),
      },
    };
  };

  return {
    /** What the case shows of a card it read from images or PDFs, or null when it read none. */
    async insuranceCardOf(insurance: CaseInsurance): Promise<InsuranceCardView | null> {
      const { scanned } = await cardsOf(insurance);
      if (!scanned) return null;
      const view = insuranceCardView(
        insurance.content ?? undefined,
        scanned.primary.card,
        scanned.others.map((other) => other.card),
        scanned.primary.unreadReasons,
      );
      if (view.used.member_id) return view;
      return { ...view, error: unreadCardGap(fieldsOf(scanned.primary, scanned.documents)) };
    },

    async resolveCasePlan(insurance: CaseInsurance): Promise<PlanResolution> {
      const evidence = await evidenceOf(insurance);
      return callConnector('payer', () => payer.resolvePlan(evidence));
    },

    async checkCaseBenefits(
      input: CaseInsurance &
        Omit<BenefitsCheckInput, 'insurance'> & { drugs: DrugRequest[]; routing?: BenefitsCheckRouting },
    ): Promise<BenefitsCheck> {
      const { documentIds, content, routing, ...rest } = input;
      const check = { ...rest, insurance: await evidenceOf({ documentIds, content }) };
      return callConnector('payer', () => {
        // Checks scheduled before live mode existed carry no routing and answer as they always did.
        if (!routing) return payer.checkBenefits(check);
        return routing.livemode ? liveBenefits(check, routing) : sandboxBenefits(check, routing);
      });
    },

    /** Answers the plan's criteria from the request, file assets read as their pages' text. */
    async prefillPriorAuthorization(input: PriorAuthPrefillRequest): Promise<PriorAuthPrefill> {
      const deadline = attemptDeadline();
      const { evidence, unread } = await readEvidence(input.evidence);
      const prefill = await callConnector('payer', () =>
        payer.prefillPriorAuthorization({ ...input, evidence }, { deadline }),
      );
      return unread.length > 0 ? { ...prefill, unread } : prefill;
    },

    async submitPriorAuthorization(input: PriorAuthSubmissionInput): Promise<{ payer_reference: string }> {
      return callConnector('payer', () => payer.submitPriorAuthorization(input));
    },

    async checkPriorAuthDetermination(
      input: PriorAuthSubmissionInput & { payer_reference: string; checksSoFar: number },
    ): Promise<PriorAuthDetermination | null> {
      return callConnector('payer', () => payer.checkDetermination(input));
    },

    /**
     * Never fails the case (docs/crd.md): the CRD service's failures come back as a fallback with
     * their reason, and so does a failure of ours on the way (settings unreadable, a key that will not
     * sign), as `crd_unavailable`. Each fallback is logged with its reason and the case id, never the
     * query, so a lasting one (a payer refusing every token) is seen.
     */
    async discoverCoverageRequirements(
      query: CoverageRequirementsQuery,
    ): Promise<CoverageRequirementsAnswer> {
      let answer: CoverageRequirementsAnswer;
      try {
        answer = await coverageRequirements(query);
      } catch (error) {
        Context.current().log.error('The CRD step failed on our side; the case goes on without it', {
          caseId: query.caseId,
          error: error instanceof Error ? error.name : 'unknown',
        });
        return { kind: 'fallback', requirements: catalogFallback('crd_unavailable') };
      }
      if (answer.kind === 'fallback')
        Context.current().log.warn('The CRD service gave nothing to act on; the case goes on without it', {
          caseId: query.caseId,
          reason: answer.requirements.fallback_reason,
        });
      return answer;
    },

    /**
     * Never fails the case (docs/dtr.md): what the payer's DTR service could not give comes back with
     * its reason, and so does a failure of ours on the way, as `dtr_unavailable`.
     */
    prefillPayerQuestionnaire: (query: PayerQuestionnaireQuery): Promise<PayerQuestionnaireAnswer> =>
      neverFailingDtrStep(query.caseId, () => payerQuestionnaire(query), {
        ours: (): PayerQuestionnaireAnswer => ({
          kind: 'prefilled',
          questionnaire: questionnaireUnavailable(query.canonical),
        }),
        failureOf: (answer) => (answer.kind === 'prefilled' ? answer.questionnaire.prefill_failure : null),
        oursLogged: 'The DTR step failed on our side; the case goes on without it',
        failureLogged: "The payer's CQL did not prefill its questionnaire",
      }),

    /**
     * Never fails the case either: a failure of ours on the way is `dtr_unavailable`, and the case keeps
     * its questionnaire as it stood (CQL the pool cannot run in time is none: nextPayerQuestions keeps
     * the round's items, waiting for a person).
     */
    askNextPayerQuestions: (query: NextQuestionsQuery): Promise<NextQuestionsAnswer> =>
      neverFailingDtrStep(query.caseId, () => nextPayerQuestions(query), {
        ours: (): NextQuestionsAnswer => ({ kind: 'failed', reason: 'dtr_unavailable' }),
        failureOf: (answer) => (answer.kind === 'failed' ? answer.reason : answer.prefill_failure),
        oursLogged: "Asking the payer's next questions failed on our side",
        failureLogged: "The payer's next questions came back incomplete",
      }),

    async submitPriorAuthorizationRequest(input: PriorAuthExchangeInput): Promise<PayerPriorAuthAnswer> {
      const sent = await withAttachments(input);
      return callConnector('payer', async () => (await priorAuthorizationChannel(sent)).submit(sent));
    },

    async inquirePriorAuthorization(input: PriorAuthInquiryInput): Promise<PayerPriorAuthAnswer> {
      return callConnector('payer', async () => (await priorAuthorizationChannel(input)).inquire(input));
    },

    async answerPriorAuthorizationInformation(
      input: PriorAuthInformationInput,
    ): Promise<PayerPriorAuthAnswer> {
      const sent = await withAttachments(input);
      return callConnector('payer', async () =>
        (await priorAuthorizationChannel(sent)).answerInformationRequest(sent),
      );
    },
  };
};

/** What a payer call takes of a card: its fields read with confidence, its text, its documents' names. */
function fieldsOf(card: DocumentedCard, documents: string[]): ScannedCardFields {
  return scannedCardFields(card.card, card.pages.map(pageText).join('\n'), documents);
}

function questionFor(
  routing: BenefitsCheckRouting,
  check: BenefitsCheckInput,
  member: Pick<EligibilityQuestion, 'payer' | 'memberId' | 'groupNumber'>,
): EligibilityQuestion {
  return {
    traceNumber: routing.caseId,
    provider: routing.provider,
    patient: { ...check.patient, gender: routing.patientGender },
    subscriber: check.insurance.content?.subscriber,
    ...member,
  };
}

function unknownDrug(request: DrugRequest, reason: string): DrugCoverage {
  return {
    ...drugWithoutFormularyTerms(
      request.name ?? request.ndc ?? '',
      request.ndc ? normalizeNdc(request.ndc) : null,
    ),
    coverage: 'unknown',
    coverage_detail_code: 'unknown',
    source: null,
    unknown_reason: reason,
  };
}

/**
 * A DTR step that never fails the case: a failure of ours on the way answers `ours`, and an answer
 * that names why the payer's service or CQL fell short is logged. Logged with the reason and the case
 * id only, never the record or the answers.
 */
async function neverFailingDtrStep<Answer>(
  caseId: string,
  step: () => Promise<Answer>,
  handling: {
    ours: () => Answer;
    failureOf: (answer: Answer) => QuestionnaireFallbackReason | null;
    oursLogged: string;
    failureLogged: string;
  },
): Promise<Answer> {
  let answer: Answer;
  try {
    answer = await step();
  } catch (error) {
    Context.current().log.error(handling.oursLogged, {
      caseId,
      error: error instanceof Error ? error.name : 'unknown',
    });
    return handling.ours();
  }
  const failure = handling.failureOf(answer);
  if (failure) Context.current().log.warn(handling.failureLogged, { caseId, reason: failure });
  return answer;
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * The account's eligibility connector as a clearinghouse, read at the moment of use so a change of
 * settings takes effect on the next check; each interchange takes the next control number.
 */
export function liveClearinghouses(
  settings: Pick<ConnectorSettingsRepository, 'readForUse' | 'nextControlNumber'>,
  policy: WebhookTargetPolicy,
): (accountId: string) => Promise<LiveClearinghouse | undefined> {
  return async (accountId) => {
    const connector = await settings.readForUse(accountId, 'eligibility');
    if (connector?.kind !== 'eligibility') return undefined;
    // The call must end, cleanly, before Temporal gives up on the attempt.
    const timeoutMs = Math.max(1, Math.min(connector.timeoutMs, attemptDeadline() - Date.now()));
    return {
      clearinghouse: new HttpClearinghouse({ ...connector, timeoutMs }, policy),
      nextEnvelope: async () => ({
        senderId: connector.submitterId,
        receiverId: connector.receiverId,
        controlNumber: await settings.nextControlNumber(accountId),
        usage: connector.usage,
        createdAt: new Date(),
      }),
    };
  };
}
