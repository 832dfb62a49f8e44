/**
 * Patch ids for `patched()`: each marks one incompatible change to a workflow, so runs recorded
 * before it replay the old commands while new runs take the new path. An id is removed only after
 * `deprecatePatch()` has been deployed and no run started before the change is still open (the
 * longest case lives for the review window plus the payer deadline).
 */

/** Case events are published by a local activity instead of an activity task. */
export const PUBLISH_EVENTS_LOCALLY = 'publish-events-locally';

/** In-process steps (plan resolution from the catalog, program rules) run as local activities. */
export const IN_PROCESS_STEPS_LOCALLY = 'in-process-steps-locally';

/** A case's first run verifies, in a local activity, that the API bound its account to it. */
export const VERIFY_ACCOUNT_BINDING = 'verify-account-binding';

/**
 * Every status move (the creation status included) and every change of a summarised field writes the
 * case's SQL summary in a local activity; an announced move writes it and publishes its event in one.
 */
export const CASE_SUMMARIES = 'case-summaries';

/**
 * A reviewed prior authorization goes to the payer through the prior authorization exchange
 * (submit, inquire, answer information requests; domain/payers/prior-authorization-exchange.ts):
 * `due_at` is set when the payer receives it, by plan type; information requests show as
 * `pending_request`; a passed `due_at` publishes `prior_authorization.overdue` once.
 */
export const PRIOR_AUTHORIZATION_EXCHANGE = 'prior-authorization-exchange';

/**
 * A prior authorization's information requests: shown from the payer's first answer and announced
 * (`prior_authorization.updated`) whenever one is set or cleared; kept when the payer pends without
 * asking again; and, until its due date passes, the payer is not inquired while it waits for answers.
 */
export const PRIOR_AUTHORIZATION_INFORMATION_REQUESTS = 'prior-authorization-information-requests';

/**
 * A connector still unavailable after its activity's retries no longer ends the case: it shows
 * `attention` and calls again on the outage schedule until its deadline (workflows/case-outages.ts).
 * Checked only where such a failure is caught, so runs that never met one replay unchanged.
 */
export const ATTENTION_ON_OUTAGES = 'attention-on-outages';

/**
 * Case events take ids derived from the case and what they announce (domain/webhooks/case-event-ids.ts)
 * instead of `uuid4()`, so a run that a Reset re-executes announces a move again under its first id,
 * and a case's final notification has one id whatever run sends it.
 */
export const STABLE_CASE_EVENT_IDS = 'stable-case-event-ids';

/**
 * A case reads its documents (card images, PDFs, scans) in an activity of its own before its first
 * connector call, and each document of the case shows its reading (docs/documents.md).
 */
export const READ_CASE_DOCUMENTS = 'read-case-documents';

/**
 * A case that read a card from images or PDFs shows it (`insurance_card`): the fields read with their
 * confidence, the discrete data, the source of each value used and the conflicts (docs/documents.md).
 */
export const INSURANCE_CARD_VIEW = 'insurance-card-view';

/**
 * The read model holds the case object itself (sealed), so every change a read can see writes the
 * case's summary row, not only a change of a summarised field; runs from before the case summaries
 * write theirs from here on too.
 */
export const CASE_OBJECTS_IN_READ_MODEL = 'case-objects-in-read-model';

/**
 * A prior authorization asks the payer's CRD service (`order-sign`) what the order requires once it is
 * prepared, before review: `no-auth` or `satisfied` completes it approved without a review or a
 * submission; anything else, or a service that gives nothing to act on, goes on to review as before
 * (docs/crd.md). A case that had passed its preparation before it goes to review without asking; one
 * still preparing when it lands (waiting out a payer outage) asks.
 */
export const COVERAGE_REQUIREMENTS_DISCOVERY = 'coverage-requirements-discovery';

/**
 * A prior authorization whose payer's CRD answer names a questionnaire asks the payer's DTR service
 * for it and prefills it with the payer's CQL before review; approval then waits until every enabled
 * required item is answered (docs/dtr.md). A case prepared before goes to review without it.
 */
export const PAYER_QUESTIONNAIRE = 'payer-questionnaire';

/**
 * A prior authorization whose payer's questionnaire is adaptive (SDC `$next-question`) asks its DTR
 * service, in an activity, for the questions that follow each time people answer while it awaits
 * review; approval waits until the service says it asks nothing more (docs/dtr.md). Checked only when
 * the prefill activity answered an adaptive questionnaire, which no run recorded before it did.
 */
export const ADAPTIVE_PAYER_QUESTIONNAIRE = 'adaptive-payer-questionnaire';

/**
 * An adaptive questionnaire's rounds that end on one its DTR service failed, after earlier ones in the
 * same activity served, keep what they served and are asked again on the case's outage schedule, as a
 * failed first round is; before, only the next answer asked again. Checked only when the activity says
 * its last round failed (`last_round_failed`), which no run recorded before it did.
 */
export const RETRY_FAILED_LAST_ADAPTIVE_ROUND = 'retry-failed-last-adaptive-round';

/**
 * A benefit verification or prior authorization asks the NPI registry about its prescriber before
 * its first connector call (`prescriber_registry`); a matched record lends the payer exchange the
 * practice address and taxonomy the request left out (docs/providers.md).
 */
export const PRESCRIBER_REGISTRY = 'prescriber-registry';

/**
 * A sandbox prior authorization's adaptive rounds after preparation propose answers from the evidence
 * for the items they serve that the payer's CQL left empty, as preparation's rounds do; before, an
 * item a later round served waited unproposed. Checked only when a later round served in test mode.
 */
export const ADAPTIVE_ROUND_PROPOSALS = 'adaptive-round-proposals';

/**
 * A provider authorization moves to `pending` before it registers its signing and revoking handlers:
 * a revocation that reached the workflow with its start ran as the handler was registered, and the
 * creation's move that followed put the authorization back to `pending`, its revocation lost.
 */
export const AUTHORIZATION_CREATED_BEFORE_MESSAGES = 'authorization-created-before-messages';

/**
 * A prior authorization's run continued as new on the exchange knows whether it treats information
 * requests (`prior-authorization-information-requests`) before it registers its handlers: an outcome
 * that reached the run with its start, after the provider's answers, was checked while the run still
 * said it did not, and was taken over the answers on their way to the payer instead of refused.
 * Checked only in runs continued on the exchange.
 */
export const INFORMATION_REQUESTS_BEFORE_MESSAGES = 'information-requests-before-messages';
