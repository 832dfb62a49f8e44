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
  private readonly compiled: Compiled;

  constructor(document: Json) {
    this.compiled = validatorsOf(document);
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
    else if (RECORDING && this.compiled.has(`${operation} ${res.statusCode}`)) {
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
    let validate: ValidateFunction | undefined;
    // Compiled on first use, in a response's `finish` listener: a schema that does not compile is a
    // violation the suite reports, not an exception thrown where nothing catches it.
    try {
      validate = this.compiled.validator(key);
    } catch (error) {
      return `${key}: its schema does not compile (${error instanceof Error ? error.message : String(error)})`;
    }
    if (!validate) {
      const documented = this.compiled.operations.has(operation);
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

/**
 * Every app of a test process serves the same document, so it is read once. Compiling all of its
 * schemas took a second or more of every suite's start (three or four on a busy machine) while a
 * suite answers a few dozen of them: each is compiled the first time an answer needs it.
 * test/http/published-answers.test.ts checks every documented example, compiling each schema.
 */
class Compiled {
  /** Every documented operation: `GET /events`. */
  readonly operations = new Set<string>();
  private readonly schemas = new Map<string, Json>();
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly compile: (schema: Json) => ValidateFunction;

  constructor(readonly document: string) {
    const parsed = JSON.parse(document) as Json;
    this.compile = schemaCompiler({
      schemas: { ...parsed.components.schemas, ...publishedSchemas.schemas },
    });
    for (const [path, item] of Object.entries(parsed.paths as Json)) {
      for (const [method, operation] of Object.entries(item as Json)) {
        this.operations.add(`${method.toUpperCase()} ${path}`);
        for (const [status, response] of Object.entries(operation.responses as Json)) {
          const schema = response.content?.['application/json']?.schema;
          if (status.startsWith('2') && schema)
            this.schemas.set(`${method.toUpperCase()} ${path} ${status}`, schema);
        }
      }
    }
  }

  /** By operation and status: `GET /events 200`. */
  has(key: string): boolean {
    return this.schemas.has(key);
  }

  validator(key: string): ValidateFunction | undefined {
    const schema = this.schemas.get(key);
    if (!schema) return undefined;
    let validate = this.validators.get(key);
    if (!validate) this.validators.set(key, (validate = this.compile(schema)));
    return validate;
  }
}

let compiled: Compiled | undefined;

function validatorsOf(document: Json): Compiled {
  const text = JSON.stringify(document);
  if (compiled?.document !== text) compiled = new Compiled(text);
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
