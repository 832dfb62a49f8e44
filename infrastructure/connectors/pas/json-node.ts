import type { PasExchangeError } from './pas-errors';

type ErrorKind = new (rule: string, path: string) => PasExchangeError;

/**
 * A value inside a parsed JSON document together with its path (`Bundle.entry[0].resource.outcome`),
 * so every check of an untrusted answer fails with the same named error, naming where, never what.
 */
export class JsonNode {
  constructor(
    readonly value: unknown,
    readonly path: string,
    private readonly error: ErrorKind,
  ) {}

  static parse(text: string, root: string, error: ErrorKind): JsonNode {
    try {
      return new JsonNode(JSON.parse(text) as unknown, root, error);
    } catch {
      throw new error('The body is not JSON', root);
    }
  }

  fail(rule: string): never {
    throw new this.error(rule, this.path);
  }

  get present(): boolean {
    return this.value !== undefined && this.value !== null;
  }

  /** The member `key` of this object (absent members are nodes whose value is undefined). */
  get(key: string): JsonNode {
    const object = this.objectValue();
    return new JsonNode(object[key], `${this.path}.${key}`, this.error);
  }

  /** This array's items; an absent value is an empty array, as FHIR omits empty arrays. */
  items(): JsonNode[] {
    if (!this.present) return [];
    if (!Array.isArray(this.value)) this.fail('Expected an array');
    return this.value.map((item, index) => new JsonNode(item, `${this.path}[${index}]`, this.error));
  }

  string(): string {
    if (typeof this.value !== 'string' || this.value.length === 0) this.fail('Expected a non-empty string');
    return this.value;
  }

  optionalString(): string | null {
    return this.present ? this.string() : null;
  }

  optionalNumber(): number | null {
    if (!this.present) return null;
    if (typeof this.value !== 'number' || !Number.isFinite(this.value)) this.fail('Expected a number');
    return this.value;
  }

  /** The extensions of this element with the given url. */
  extensions(url: string): JsonNode[] {
    return this.get('extension')
      .items()
      .filter((extension) => extension.get('url').string() === url);
  }

  /** The one extension with this url, if any; several are refused as ambiguous. */
  extension(url: string): JsonNode | undefined {
    const found = this.extensions(url);
    if (found.length > 1) found[1]!.fail(`Expected at most one extension ${url}`);
    return found[0];
  }

  private objectValue(): Record<string, unknown> {
    if (!this.present) this.fail('Expected an object');
    if (typeof this.value !== 'object' || Array.isArray(this.value)) this.fail('Expected an object');
    return this.value as Record<string, unknown>;
  }
}
