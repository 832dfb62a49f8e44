import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import * as path from 'node:path';

import Ajv2020, { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import publishedSchemas from '../../src/contract/published-schemas.json';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { betterExample } = require('../../scripts/merge-answer-examples') as {
  betterExample(candidate: unknown, kept: unknown): boolean;
};

const DOCUMENT_ID = 'api';
/** `npm run api:examples` names the folder the tests' answers are kept in as examples. */
const RECORDING = Boolean(process.env.RECORD_ANSWER_EXAMPLES);

/**
 * Checks every successful JSON answer an app gives against its operation's schema in the API
 * document, with the published objects as generated: strict, so an answer carrying a field its
 * schema lacks fails as surely as one missing a field. The served document stays open to added
 * fields; this is the strict copy the tests hold the service to.
 */
export class PublishedAnswers {
  readonly violations: string[] = [];
  /** One valid answer per operation and status (`GET /events 200`), kept as examples when recording. */
  readonly examples = new Map<string, unknown>();
  private readonly validators: Map<string, ValidateFunction>;
  private readonly operations: Set<string>;

  constructor(document: Json) {
    ({ validators: this.validators, operations: this.operations } = validatorsOf(document));
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
    const operation = `${req.method} ${openApiPath(route)}`;
    let answer: unknown;
    try {
      answer = JSON.parse(body.toString('utf8'));
    } catch {
      if (res.statusCode < 300) this.violations.push(`${operation} ${res.statusCode}: the body is not JSON`);
      return;
    }
    const violation = this.violationOf(operation, res.statusCode, answer);
    if (violation) this.violations.push(violation);
    else if (RECORDING && this.validators.has(`${operation} ${res.statusCode}`)) {
      this.keepExample(`${operation} ${res.statusCode}`, answer);
    }
  }

  private keepExample(key: string, candidate: unknown): void {
    if (betterExample(candidate, this.examples.get(key))) this.examples.set(key, candidate);
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
      const documented = this.operations.has(operation);
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
 * Writes an app's examples into `folder` (`npm run api:examples` sets RECORD_ANSWER_EXAMPLES), one
 * file per app; scripts/merge-answer-examples.js picks the best per operation from all of them.
 */
export function recordExamples(folder: string, examples: Map<string, unknown>): void {
  if (examples.size === 0) return;
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    path.join(folder, `${process.pid}-${randomUUID()}.json`),
    JSON.stringify(Object.fromEntries(examples)),
  );
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
interface Compiled {
  /** By operation and status: `GET /events 200`. */
  validators: Map<string, ValidateFunction>;
  /** Every documented operation: `GET /events`. */
  operations: Set<string>;
}

let compiled: (Compiled & { document: string }) | undefined;

function validatorsOf(document: Json): Compiled {
  const text = JSON.stringify(document);
  if (compiled?.document === text) return compiled;
  const compile = schemaCompiler({
    schemas: { ...document.components.schemas, ...publishedSchemas.schemas },
  });
  const validators = new Map<string, ValidateFunction>();
  const operations = new Set<string>();
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const [method, operation] of Object.entries(item as Json)) {
      operations.add(`${method.toUpperCase()} ${path}`);
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        const schema = response.content?.['application/json']?.schema;
        if (status.startsWith('2') && schema) {
          validators.set(`${method.toUpperCase()} ${path} ${status}`, compile(schema));
        }
      }
    }
  }
  compiled = { document: text, validators, operations };
  return compiled;
}

/** Compiles schemas taken from an API document, their references resolved within `components`. */
export function schemaCompiler(components: Json): (schema: Json) => ValidateFunction {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: DOCUMENT_ID, components });
  return (schema) => ajv.compile(inDocument(schema) as Json);
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
