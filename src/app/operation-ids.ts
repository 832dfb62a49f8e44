/**
 * The operation ids of the API document as an SDK user writes them (`createBenefitVerification`,
 * `listPriorAuthorizations`, `retryWebhookDelivery`): generated clients name their methods after
 * them, and Nest's own, `${Controller}_${method}`, would put the framework into every client.
 *
 * An id is the handler's verb, the resource its controller serves, then the rest of the handler's
 * name: `getDocument` on benefit verifications is `getBenefitVerificationDocument`. `list` alone
 * takes the plural. Handlers whose name is not the verb a client reads (a case's decision routes
 * are named by their path segment, removals `remove`) say what they stand for.
 */
const PHRASE_OF_HANDLER: Readonly<Record<string, string>> = {
  outcome: 'recordOutcome',
  information: 'provideInformation',
  status: 'get',
  remove: 'delete',
};

/** Controllers whose name is not their resource's. */
const RESOURCE_OF_CONTROLLER: Readonly<Record<string, string>> = {
  Codec: 'Payload',
  Status: 'Status',
};

export function operationIdOf(controllerKey: string, methodKey: string): string {
  const controllerResource = controllerKey.replace(/Controller$/, '');
  const resource = RESOURCE_OF_CONTROLLER[controllerResource] ?? singular(controllerResource);
  const phrase = PHRASE_OF_HANDLER[methodKey] ?? methodKey;
  const verbEnd = firstCapital(phrase);
  const [verb, rest] = [phrase.slice(0, verbEnd), phrase.slice(verbEnd)];
  if (verb === 'list' && rest === '') return `list${plural(resource)}`;
  return `${verb}${resource}${rest}`;
}

function firstCapital(text: string): number {
  for (let index = 0; index < text.length; index += 1) {
    if (text[index] !== text[index]!.toLowerCase()) return index;
  }
  return text.length;
}

function singular(resource: string): string {
  if (resource.endsWith('ies')) return `${resource.slice(0, -3)}y`;
  return resource.endsWith('s') ? resource.slice(0, -1) : resource;
}

/** `Eligibility` → `Eligibilities`, but `ApiKey` → `ApiKeys`: a vowel before the y keeps it. */
function plural(resource: string): string {
  if (/[^aeiou]y$/.test(resource)) return `${resource.slice(0, -1)}ies`;
  return resource.endsWith('s') ? resource : `${resource}s`;
}
