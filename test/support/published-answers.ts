import type { IncomingMessage, Server, ServerResponse } from 'node:http';

import Ajv2020, { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import publishedSchemas from '../../src/contract/published-schemas.json';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const DOCUMENT_ID = 'api';

/**
 * Checks every successful JSON answer an app gives against its operation's schema in the API
 * document, with the published objects as generated: strict, so an answer carrying a field its
 * schema lacks fails as surely as one missing a field. The served document stays open to added
 * fields; this is the strict copy the tests hold the service to.
 */
export class PublishedAnswers {
  readonly violations: string[] = [];
  private readonly validators: Map<string, ValidateFunction>;

  constructor(document: Json) {
    this.validators = validatorsOf(document);
  }

  /** Watches every answer the server gives from now on. */
  watch(server: Server): void {
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      const write = res.write.bind(res) as (...args: unknown[]) => boolean;
      const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
      const keep = (chunk: unknown) => {
        if (typeof chunk === 'string' || chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
      };
      res.write = ((chunk: unknown, ...rest: unknown[]) => {
        keep(chunk);
        return write(chunk, ...rest);
      }) as typeof res.write;
      res.end = ((chunk?: unknown, ...rest: unknown[]) => {
        if (typeof chunk !== 'function') keep(chunk);
        return end(chunk, ...rest);
      }) as typeof res.end;
      res.on('finish', () => this.check(req, res, Buffer.concat(chunks)));
    });
  }

  private check(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
    const route = (req as IncomingMessage & { route?: { path?: string } }).route?.path;
    const contentType = String(res.getHeader('content-type') ?? '');
    if (!route || !contentType.startsWith('application/json')) return;
    const violation = this.violationOf(
      `${req.method} ${openApiPath(route)}`,
      res.statusCode,
      JSON.parse(body.toString('utf8')),
    );
    if (violation) this.violations.push(violation);
  }

  /**
   * What is wrong with an answer of an operation (`GET /events/{id}`), if anything: a successful
   * answer the document has no schema for, or a body its schema refuses. Error answers of statuses
   * the operation does not declare are not this check's business.
   */
  violationOf(operation: string, status: number, body: unknown): string | undefined {
    const key = `${operation} ${status}`;
    const validate = this.validators.get(key);
    if (!validate) {
      const documented = this.validators.has(operation);
      return documented && status < 300 ? `${key}: no schema describes this answer` : undefined;
    }
    if (validate(body)) return undefined;
    const errors = closestErrors(validate.errors!).map((error) => {
      const extra = (error.params as { additionalProperty?: string }).additionalProperty;
      return `${error.instancePath || '/'} ${error.message}${extra ? ` (${extra})` : ''}`;
    });
    return `${key}: ${errors.join('; ')}`;
  }
}

/**
 * Where a value matches none of a union's branches, ajv reports every branch; the branch whose
 * `object` (or other constant) the value has is the one it meant, so the errors of branches that
 * differ there are dropped. At most five are kept.
 */
function closestErrors(errors: ErrorObject[]): ErrorObject[] {
  const wrongBranches = errors
    .filter((error) => error.keyword === 'const' || error.keyword === 'enum')
    .map((error) => error.schemaPath.slice(0, error.schemaPath.lastIndexOf('/properties/') + 1))
    .filter((branch) => branch.length > 0);
  const meant = errors.filter(
    (error) =>
      error.keyword !== 'anyOf' && !wrongBranches.some((branch) => error.schemaPath.startsWith(branch)),
  );
  return (meant.length > 0 ? meant : errors).slice(0, 5);
}

/** Compiling takes a while and every app of a test process serves the same document, so it is done once. */
let compiled: { document: string; validators: Map<string, ValidateFunction> } | undefined;

function validatorsOf(document: Json): Map<string, ValidateFunction> {
  const text = JSON.stringify(document);
  if (compiled?.document === text) return compiled.validators;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({
    $id: DOCUMENT_ID,
    components: { schemas: { ...document.components.schemas, ...publishedSchemas.schemas } },
  });
  const validators = new Map<string, ValidateFunction>();
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const [method, operation] of Object.entries(item as Json)) {
      validators.set(`${method.toUpperCase()} ${path}`, ajv.compile({}));
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        const schema = response.content?.['application/json']?.schema;
        if (status.startsWith('2') && schema) {
          validators.set(
            `${method.toUpperCase()} ${path} ${status}`,
            ajv.compile(inDocument(schema) as Json),
          );
        }
      }
    }
  }
  compiled = { document: text, validators };
  return validators;
}

/** Rewrites the document's references so they resolve in the schema ajv holds under DOCUMENT_ID. */
function inDocument(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(inDocument);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' ? `${DOCUMENT_ID}${value}` : inDocument(value),
    ]),
  );
}

/** Express's `/cases/:id` as the document writes it, `/cases/{id}`. */
function openApiPath(route: string): string {
  return route.replace(/:([A-Za-z_]+)/g, '{$1}');
}
