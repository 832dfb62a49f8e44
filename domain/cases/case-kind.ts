import type { ConnectorKind } from '../connectors/connector-kinds';

/** A webhook event as subscribers and the API document see it described. */
export interface EventDescription {
  title: string;
  description: string;
}

/**
 * The facts about one case type that more than one layer needs, declared once per type
 * (`domain/cases/<type>.kind.ts`) and listed in `domain/cases/case-kinds.ts`, from which the object
 * names, id prefixes, webhook event types and connector requirements are derived. A declaration is
 * apart from its type's model so the registry the shared model reads stays free of the models.
 */
export interface CaseKind<
  Object extends string = string,
  IdKind extends string = string,
  IdPrefix extends string = string,
  EventType extends string = string,
> {
  /** The case object's `object`, its webhook events' prefix, the `case_type` search attribute. */
  object: Object;
  /** Its ids' kind, for `newId` and `hasIdPrefix`. */
  idKind: IdKind;
  /** What its ids start with (`pa_…`); recorded in every case id, so never changed. */
  idPrefix: IdPrefix;
  /** The workflow its cases run as, by the name Temporal records in their histories. */
  workflowType: string;
  /** The connector a live case needs before it may start; null when it needs none. */
  connector: ConnectorKind | null;
  /** Its webhook events, each named `<object>.<what happened>`. */
  events: Readonly<Record<EventType, EventDescription>>;
}

/** A case kind as its declaration writes it, with its names kept as literal types. */
export function caseKind<
  const Object extends string,
  const IdKind extends string,
  const IdPrefix extends string,
  const EventType extends `${Object}.${string}`,
>(kind: CaseKind<Object, IdKind, IdPrefix, EventType>): CaseKind<Object, IdKind, IdPrefix, EventType> {
  return kind;
}
