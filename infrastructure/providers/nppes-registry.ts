import {
  type NpiRegistry,
  type RegistryProvider,
  RegistryQueryError,
  RegistryUnavailableError,
} from '../../domain/providers/npi-registry';
import {
  type NppesAnswer,
  type NppesQuery,
  type NppesRecord,
  nppesSearchParameters,
  registryProviderOf,
} from './nppes-answer';

/**
 * Far above any answer the service asks for (one NPI, or at most a page of names at a few kilobytes
 * a record), and small enough that a registry answering without end cannot fill the process's memory.
 */
export const MAX_REGISTRY_ANSWER_BYTES = 1024 * 1024;

/** How many records a search by name asks for when the caller names no limit. */
export const DEFAULT_NAME_SEARCH_LIMIT = 20;

/** The registry's own field names, in the words of our lookup's query. */
const QUERY_FIELDS: Record<string, string> = { number: 'npi', last_name: 'last_name', state: 'state' };

export interface NppesRegistryOptions {
  /** The API's address without a trailing slash (`https://npiregistry.cms.hhs.gov/api`). */
  url: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

/**
 * The NPPES NPI Registry API, version 2.1 (docs/providers.md). Each question is one GET within the
 * time limit. Whatever keeps an answer from arriving whole (the network, the time limit, a redirect,
 * a status other than 200, a body too large or unreadable) is `RegistryUnavailableError`; an `Errors` answer
 * refuses the question itself and is `RegistryQueryError`. Neither carries the registry's words.
 */
export class NppesRegistry implements NpiRegistry {
  private readonly fetch: typeof fetch;

  constructor(private readonly options: NppesRegistryOptions) {
    this.fetch = options.fetch ?? fetch;
  }

  async byNpi(npi: string): Promise<RegistryProvider | undefined> {
    const records = await this.ask({ number: npi });
    const record = records.find((candidate) => String(candidate.number) === npi);
    return record ? registryProviderOf(record) : undefined;
  }

  async byName(
    lastName: string,
    state: string,
    limit = DEFAULT_NAME_SEARCH_LIMIT,
  ): Promise<RegistryProvider[]> {
    const query = { last_name: lastName, state, enumeration_type: 'NPI-1' as const, limit };
    return (await this.ask(query)).slice(0, limit).map(registryProviderOf);
  }

  private async ask(query: NppesQuery): Promise<NppesRecord[]> {
    const answer = await this.answerTo(query);
    if (Array.isArray(answer.Errors) && answer.Errors.length > 0) {
      const named = answer.Errors.map((error) => QUERY_FIELDS[error.field ?? '']).filter(
        (field): field is string => field !== undefined,
      );
      throw new RegistryQueryError([...new Set(named.length > 0 ? named : fieldsOf(query))]);
    }
    // NPPES answers `results: []` when nothing matches; an answer without the array (`{}`, a proxy's
    // JSON, a changed shape) says nothing about the NPI, and read as "not returned" it would be cached.
    if (answer.results === undefined) {
      throw new RegistryUnavailableError('the registry answered neither results nor Errors');
    }
    if (!Array.isArray(answer.results) || !answer.results.every(isRecord)) {
      throw new RegistryUnavailableError('the registry answered records this service cannot read');
    }
    return answer.results;
  }

  private async answerTo(query: NppesQuery): Promise<NppesAnswer> {
    const url = `${this.options.url}/?${nppesSearchParameters(query).toString()}`;
    // One signal for the request and its body: the time limit covers the answer arriving whole.
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    let text: string;
    try {
      // A redirect is an outage, never followed: it could send the question to an address on our
      // own network that no operator chose.
      const response = await this.fetch(url, {
        headers: { Accept: 'application/json' },
        redirect: 'error',
        signal,
      });
      if (response.status !== 200) {
        await response.body?.cancel();
        throw new RegistryUnavailableError(`the registry answered HTTP ${response.status}`);
      }
      text = await readBounded(response, MAX_REGISTRY_ANSWER_BYTES);
    } catch (error) {
      if (error instanceof RegistryUnavailableError) throw error;
      throw new RegistryUnavailableError(
        signal.aborted
          ? `no answer within ${this.options.timeoutMs} ms`
          : 'the registry could not be reached',
      );
    }
    try {
      const answer: unknown = JSON.parse(text);
      if (typeof answer === 'object' && answer !== null && !Array.isArray(answer))
        return answer as NppesAnswer;
    } catch {
      // Not JSON: the same answer as JSON that is not an object.
    }
    throw new RegistryUnavailableError('the registry answered something other than a JSON object');
  }
}

function fieldsOf(query: NppesQuery): string[] {
  return 'number' in query ? ['npi'] : ['last_name', 'state'];
}

function isRecord(value: unknown): value is NppesRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Partial<NppesRecord>;
  return (
    (typeof record.number === 'string' || typeof record.number === 'number') &&
    (record.enumeration_type === 'NPI-1' || record.enumeration_type === 'NPI-2') &&
    typeof record.basic === 'object' &&
    record.basic !== null &&
    (record.addresses === undefined || Array.isArray(record.addresses)) &&
    (record.taxonomies === undefined || Array.isArray(record.taxonomies))
  );
}

/** The body as text, refused past `limit` bytes without reading the rest. */
async function readBounded(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new RegistryUnavailableError(`the registry's answer exceeded ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
