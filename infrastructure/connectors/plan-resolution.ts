import type { InsuranceContent, PlanType } from '../../domain/cases/case-model';
import type { UnreadCardCode } from '../../domain/payers/card-fields';
import { comparable } from '../../domain/payers/insurance-card-view';
import { normalizeName } from '../../domain/payers/payer-catalog';
import type { CatalogPayer, CatalogPlan, PayerCatalog } from '../../domain/payers/payer-catalog';
import type {
  InsuranceEvidence,
  PayerConnector,
  PlanResolution,
  ResolvedPlan,
  ScannedCardFields,
} from '../../domain/payers/payer-connector';
import { unreadCardGap } from '../../domain/payers/scanned-card-fields';
import { shippedPayerCatalog } from '../catalogs/shipped-catalogs';

/** The member's payer and plan in the catalog, and the plan as a case records it. */
export interface PlanMatch {
  payer: CatalogPayer;
  plan: CatalogPlan;
  resolved: ResolvedPlan;
}

/** The member's plan, or why none was found (with a card's failure code when its reading was the cause). */
export type Resolution =
  { resolved: true; match: PlanMatch } | { resolved: false; reason: string; code?: UnreadCardCode };

/** What identifies a member's plan, whether typed in as discrete data or read off a card. */
interface PlanClues {
  payerName?: string;
  /** The whole card, searched for a payer or plan name when no labelled line gives one. */
  cardText?: string;
  memberId?: string;
  bin?: string;
  pcn?: string;
  planType?: PlanType;
  planText?: string;
}

/**
 * Finds a member's payer and plan in the catalog from the insurance data: discrete data, a card typed
 * as text, or the fields read from a card's images. The answer derives from the data and the catalog
 * alone, so the simulated payer and the clinical activities, which need only the plan, share it.
 */
export class CatalogPlanResolver implements Pick<PayerConnector, 'resolvePlan'> {
  constructor(private readonly catalog: PayerCatalog = shippedPayerCatalog()) {}

  async resolvePlan(insurance: InsuranceEvidence): Promise<PlanResolution> {
    const resolution = this.resolve(insurance);
    return resolution.resolved ? { resolved: true, plan: resolution.match.resolved } : resolution;
  }

  /** The catalog's payer and plan themselves, for answers that read more of them than the resolved plan. */
  resolve(insurance: InsuranceEvidence): Resolution {
    const typedCard = insurance.cardTexts.some((text) => text.trim())
      ? readCard(insurance.cardTexts.join('\n'))
      : undefined;
    if (insurance.content) return this.matchDiscrete(insurance.content, insurance.scannedCard, typedCard);
    if (typedCard) return this.match(typedCard);
    if (insurance.scannedCard) return this.matchScannedCard(insurance.scannedCard);
    return {
      resolved: false,
      reason: 'No insurance data was given: neither discrete insurance data nor a card.',
    };
  }

  /**
   * Discrete data, whole or beside a card. An image card has already filled its gaps (discrete values
   * win); a text card fills them here, but only data without a payer or member id, and only when it
   * names no other member.
   */
  private matchDiscrete(
    content: InsuranceContent,
    card?: ScannedCardFields,
    typedCard?: PlanClues,
  ): Resolution {
    // Discrete data that left the member id to an image card which could not read it.
    const gap = card && !content.member_id ? unreadCardGap(card) : null;
    if (gap) return { resolved: false, reason: gap.message, code: gap.code };
    const partial = !content.payer || !content.member_id;
    const sameMember =
      !content.member_id ||
      !typedCard?.memberId ||
      comparable(typedCard.memberId) === comparable(content.member_id);
    const fill = partial && sameMember ? typedCard : undefined;
    return this.match({
      payerName: content.payer ?? fill?.payerName,
      cardText: content.payer ? undefined : (card?.text ?? fill?.cardText),
      memberId: content.member_id ?? fill?.memberId,
      bin: content.rx_bin ?? fill?.bin,
      pcn: content.rx_pcn ?? fill?.pcn,
      planType: content.plan_type ?? fill?.planType,
    });
  }

  /**
   * A card read from an image or PDF: only the fields read with confidence count, and a card without
   * a member id sends the case to a person, naming what could not be read.
   */
  private matchScannedCard(card: ScannedCardFields): Resolution {
    const gap = unreadCardGap(card);
    if (gap) return { resolved: false, reason: gap.message, code: gap.code };
    return this.match({
      payerName: card.payer_name,
      cardText: card.text,
      memberId: card.member_id,
      bin: card.rx_bin,
      pcn: card.rx_pcn,
      planType: planTypeIn(card.plan_name ?? card.text),
      planText: card.plan_name ?? card.text,
    });
  }

  private match(clues: PlanClues): Resolution {
    const payer =
      (clues.payerName ? this.catalog.findPayerNamedIn(clues.payerName) : undefined) ??
      (clues.bin ? this.catalog.findPayerByBin(clues.bin) : undefined) ??
      (clues.cardText ? this.catalog.findPayerNamedIn(clues.cardText) : undefined);
    if (!payer) {
      return {
        resolved: false,
        reason: 'No payer in the sandbox catalog matches the payer name or RxBIN given.',
      };
    }
    const memberId = clues.memberId?.trim();
    if (!memberId) return { resolved: false, reason: 'The insurance data has no member ID.' };
    const plan = choosePlan(payer, clues);
    if (typeof plan === 'string') return { resolved: false, reason: plan };
    return {
      resolved: true,
      match: {
        payer,
        plan,
        resolved: {
          payer_id: payer.id,
          payer_name: payer.name,
          plan_id: plan.id,
          plan_name: plan.name,
          plan_type: plan.plan_type,
          plan_fund_source: GOVERNMENT_PLAN_TYPES.includes(plan.plan_type) ? 'government' : 'commercial',
          bin: payer.bin,
          pcn: plan.pcn,
          pharmacy_benefit_manager_name: payer.pharmacy_benefit_manager_name,
          member_id: memberId,
          rx_group: plan.rx_group,
        },
      },
    };
  }
}

const GOVERNMENT_PLAN_TYPES: readonly PlanType[] = ['medicare', 'medicare_advantage', 'medicaid', 'tricare'];

// ---------------------------------------------------------------------------------------------------
// Plan resolution from card text

const CARD_FIELDS = {
  payerName:
    /^[ \t]*(?:payer|insurer|carrier|health[ \t]*plan|insurance(?:[ \t]*company)?)(?:[ \t]*name)?[ \t]*:[ \t]*(.+?)[ \t]*$/im,
  planText: /^[ \t]*(?:plan|coverage|product)(?:[ \t]*(?:type|name))?[ \t]*:[ \t]*(.+?)[ \t]*$/im,
  // A member id holds a digit, so "Member Services: …" or "Member Name: …" never passes for one.
  memberId:
    /\b(?:member|subscriber)(?:[ \t]*(?:id|#|no\.?|number))*[ \t]*[:#]?[ \t]*([a-z0-9-]*\d[a-z0-9-]*)/i,
  bareId: /^[ \t]*id(?:[ \t]*(?:#|no\.?|number))?[ \t]*[:#][ \t]*([a-z0-9-]*\d[a-z0-9-]*)/im,
  bin: /\b(?:rx[ \t]*)?bin(?:[ \t]*(?:#|no\.?|number))?[ \t]*:?[ \t]*(\d{6})\b/i,
  pcn: /\b(?:rx[ \t]*)?pcn(?:[ \t]*#)?[ \t]*:?[ \t]*([a-z0-9-]+)/i,
};

/** Reads the labelled lines of an insurance card ("Payer: …", "Member ID: …", "RxBIN: …", "Plan: …"). */
function readCard(text: string): PlanClues {
  const field = (pattern: RegExp) => pattern.exec(text)?.[1];
  const planText = field(CARD_FIELDS.planText);
  return {
    payerName: field(CARD_FIELDS.payerName),
    cardText: text,
    memberId: field(CARD_FIELDS.memberId) ?? field(CARD_FIELDS.bareId),
    bin: field(CARD_FIELDS.bin),
    pcn: field(CARD_FIELDS.pcn),
    planType: planTypeIn(planText ?? text),
    planText: planText ?? text,
  };
}

const PLAN_TYPE_WORDS: ReadonlyArray<readonly [RegExp, PlanType]> = [
  [/medicare[\s-]*advantage|\bmapd\b|\bpart[\s-]*c\b/i, 'medicare_advantage'],
  [/medicare|\bpart[\s-]*d\b|\bpdp\b/i, 'medicare'],
  [/medicaid|\bchip\b/i, 'medicaid'],
  [/tricare/i, 'tricare'],
  [/commercial|employer|marketplace|\b(?:ppo|hmo|epo|pos|hdhp)\b/i, 'commercial'],
];

function planTypeIn(text: string): PlanType | undefined {
  return PLAN_TYPE_WORDS.find(([pattern]) => pattern.test(text))?.[1];
}

const MEDICARE_TYPES: readonly PlanType[] = ['medicare', 'medicare_advantage'];

/** The member's plan among the payer's, or a sentence saying why none fits. */
function choosePlan(payer: CatalogPayer, clues: PlanClues): CatalogPlan | string {
  const pcn = clues.pcn?.trim().toUpperCase();
  const byPcn = pcn ? payer.plans.find((plan) => plan.pcn === pcn) : undefined;
  if (byPcn) return byPcn;
  const planText = clues.planText ? normalizeName(clues.planText) : '';
  const byName = payer.plans.find((plan) => ` ${planText} `.includes(` ${normalizeName(plan.name)} `));
  if (byName) return byName;

  const planType = clues.planType;
  if (planType && planType !== 'other') {
    // Members often call a Medicare Advantage plan just "Medicare", and the reverse.
    const byType =
      payer.plans.find((plan) => plan.plan_type === planType) ??
      (MEDICARE_TYPES.includes(planType)
        ? payer.plans.find((plan) => MEDICARE_TYPES.includes(plan.plan_type))
        : undefined);
    return byType ?? `${payer.name} has no ${planType.replace(/_/g, ' ')} plan in the sandbox catalog.`;
  }
  return payer.plans.find((plan) => plan.plan_type === 'commercial') ?? payer.plans[0]!;
}
