import { INestApplication, RequestMethod } from '@nestjs/common';
import {
  HTTP_CODE_METADATA,
  METHOD_METADATA,
  PATH_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

import {
  describeEvent,
  EventType,
  SUBSCRIBABLE_EVENT_TYPES,
  SubscribableEventType,
  TEST_EVENT_TYPE,
} from '../../domain/webhooks/event-types';
import { PUBLIC_ROUTE, REQUIRED_ROLE } from '../common/route-access';
import type { RoleRequirement } from '../../domain/accounts/roles';
import type { DocumentedRule } from '../common/dto/documented-rule';
import { IDEMPOTENCY_KEY_PATTERN } from '../idempotency/idempotency.module';
import { ERROR_STATUS } from '../common/errors';
import { API_VERSION } from '../common/http-edge';
import { operationIdOf } from './operation-ids';
import { AnswerDeclaration, answerOf } from '../contract/answers';
import answerExamples from '../contract/answer-examples.json';
import publishedSchemas from '../contract/published-schemas.json';

type Schema = Record<string, unknown>;
/** A DTO or controller class, as Nest and class-validator key their metadata. */
type ClassType = abstract new (...args: never[]) => unknown;
type Operation = {
  operationId?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: Schema }>;
  requestBody?: unknown;
  responses: Record<string, unknown>;
  security?: unknown[];
};

const BEARER_SCHEME = 'bearer';
const BODY_METHODS = new Set(['post', 'put', 'patch']);

/**
 * Builds the OpenAPI 3.1 document and serves it at /openapi.json (and /docs). Nest's generator sees
 * only @ApiProperty; the validators are the truth about what a request may hold, so every rule
 * class-validator enforces is written into the schemas from its metadata, and every answer the
 * edge can give (contract sections 1 and 7) is listed on each operation in the error envelope.
 */
export function serveOpenApiDocument(app: INestApplication): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setOpenAPIVersion('3.1.0')
      .setTitle('Healthcare Access Automation API')
      .setDescription(
        'Benefit verification, prior authorization, clinical eligibility and support-program enrollment, ' +
          'run as durable workflows with signed webhooks. Every endpoint needs "Authorization: Bearer <API key>".',
      )
      .setVersion(API_VERSION)
      .addServer('/', 'The service that serves this document')
      .addBearerAuth(undefined, BEARER_SCHEME)
      .build(),
    { operationIdFactory: operationIdOf },
  );
  const handlers = describeHandlers(app);
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const validated = validatedClassesByName();
  for (const [name, schema] of Object.entries(schemas)) {
    const target = validated.get(name);
    if (target) documentValidationRules(target, schema);
  }
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
      const handler = handlers.get(operation.operationId ?? '');
      if (handler?.query) documentQueryRules(handler.query, operation);
      documentResponses(operation, method, path, handler);
      operation.security = handler?.public ? [] : [{ [BEARER_SCHEME]: [] }];
    }
  }
  schemas.ErrorEnvelope = ERROR_ENVELOPE;
  nameSchemasForClients(document);
  addPublishedSchemas(document.components!.schemas as Record<string, Schema>);
  (document as OpenAPIObject & { webhooks: Schema }).webhooks = webhookOperations();
  (document.components as Schema).responses = Object.fromEntries(
    Object.keys(ERROR_RESPONSES).map((status) => [`Error${status}`, errorResponse(Number(status))]),
  );
  // Documentation carries no account data, and a browser cannot attach a bearer key to a page load.
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
  });
  return document;
}

/**
 * Schemas are named after the classes that validate them; a client knows them without the `Dto` the
 * server's classes carry (`CreateBenefitVerification`), so the names and every reference lose it.
 * Where an answer's object has the same name (`Address`), the request's takes `Input` after it.
 */
function nameSchemasForClients(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const clientName = (name: string) => {
    const bare = name.replace(/Dto$/, '');
    return Object.hasOwn(publishedSchemas.schemas, bare) ? `${bare}Input` : bare;
  };
  document.components!.schemas = Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => [clientName(name), schema]),
  );
  const renameReferences = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(renameReferences);
    } else if (node && typeof node === 'object') {
      const object = node as Record<string, unknown>;
      const name =
        typeof object.$ref === 'string' && object.$ref.startsWith(SCHEMA_REFERENCE)
          ? object.$ref.slice(SCHEMA_REFERENCE.length)
          : undefined;
      if (name !== undefined && Object.hasOwn(schemas, name))
        object.$ref = SCHEMA_REFERENCE + clientName(name);
      Object.values(object).forEach(renameReferences);
    }
  };
  renameReferences(document);
}

const SCHEMA_REFERENCE = '#/components/schemas/';

// ---- what each route needs, read from the controllers -------------------------------------------

interface HandlerFacts {
  requiredRole?: RoleRequirement;
  /** Served without a key (a JWKS URL): no security requirement, no 401. */
  public: boolean;
  answer?: AnswerDeclaration;
  query?: ClassType;
  successStatus: number;
}

/** Each handler's role and query DTO, by its operation id. */
function describeHandlers(app: INestApplication): Map<string, HandlerFacts> {
  const facts = new Map<string, HandlerFacts>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as ClassType | null;
      if (!controller) continue;
      const prototype = controller.prototype as Record<string, unknown>;
      for (const methodName of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[methodName];
        if (typeof handler !== 'function' || Reflect.getMetadata(PATH_METADATA, handler) === undefined)
          continue;
        if (Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
        facts.set(operationIdOf(controller.name, methodName), {
          requiredRole:
            Reflect.getMetadata(REQUIRED_ROLE, handler) ?? Reflect.getMetadata(REQUIRED_ROLE, controller),
          public: Boolean(
            Reflect.getMetadata(PUBLIC_ROUTE, handler) ?? Reflect.getMetadata(PUBLIC_ROUTE, controller),
          ),
          query: queryType(controller, methodName),
          answer: answerOf(handler),
          successStatus:
            Reflect.getMetadata(HTTP_CODE_METADATA, handler) ??
            (Reflect.getMetadata(METHOD_METADATA, handler) === RequestMethod.POST ? 201 : 200),
        });
      }
    }
  }
  return facts;
}

function queryType(controller: ClassType, methodName: string): ClassType | undefined {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, methodName) ?? {}) as Record<
    string,
    { index: number; data?: unknown }
  >;
  const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, methodName) ??
    []) as ClassType[];
  for (const [key, arg] of Object.entries(args)) {
    if (Number(key.split(':')[0]) === RouteParamtypes.QUERY && arg.data === undefined)
      return types[arg.index];
  }
  return undefined;
}

// ---- validation rules into schemas ---------------------------------------------------------------

function validatedClassesByName(): Map<string, ClassType> {
  const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<ClassType, unknown> };
  return new Map([...storage.validationMetadatas.keys()].map((target) => [target.name, target]));
}

function rulesByProperty(target: ClassType): Map<string, ValidationMetadata[]> {
  const rules = new Map<string, ValidationMetadata[]>();
  for (const rule of getMetadataStorage().getTargetValidationMetadatas(
    target as unknown as new () => unknown,
    '',
    true,
    false,
  )) {
    rules.set(rule.propertyName, [...(rules.get(rule.propertyName) ?? []), rule]);
  }
  return rules;
}

/** Whitelisting refuses unknown fields, and optional fields treat null as absent, as the validators do. */
function documentValidationRules(target: ClassType, schema: Schema): void {
  const properties = (schema.properties ??= {}) as Record<string, Schema>;
  const objectRules: Schema[] = [];
  for (const [property, rules] of rulesByProperty(target)) {
    // A DTO without @ApiProperty still validates, so the document describes it from the rules alone.
    let propertySchema = properties[property] ?? {};
    if (
      !properties[property] &&
      !rules.some((rule) => rule.type === ValidationTypes.CONDITIONAL_VALIDATION)
    ) {
      schema.required = [...((schema.required as string[]) ?? []), property];
    }
    for (const rule of rules) {
      const documented = describeRule(rule);
      if (!documented) continue;
      if (documented.objectSchema) objectRules.push(documented.objectSchema);
      if (documented.schema) {
        const into = rule.each ? ((propertySchema.items ??= {}) as Schema) : propertySchema;
        mergeSchema(into, documented.schema);
      }
      if (documented.description) describeIfSilent(propertySchema, documented.description);
    }
    if (rules.some(isAbsentWhenNull)) propertySchema = allowNull(propertySchema);
    properties[property] = propertySchema;
  }
  schema.additionalProperties = false;
  // Under allOf, not beside `properties`: generated clients intersect allOf with the object's own
  // type, so "at least one of these fields" still types each field, where a sibling anyOf would
  // make a union with untyped branches.
  if (objectRules.length > 0) schema.allOf = objectRules;
}

function documentQueryRules(target: ClassType, operation: Operation): void {
  const rules = rulesByProperty(target);
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in !== 'query') continue;
    for (const rule of rules.get(parameter.name) ?? []) {
      const documented = describeRule(rule);
      if (documented?.schema) mergeSchema((parameter.schema ??= {}), documented.schema);
      if (documented?.description) describeIfSilent(parameter as Schema, documented.description);
    }
  }
}

/** IsOptional and the presence rules skip a null value; an explicit ValidateIf decides for itself. */
function isAbsentWhenNull(rule: ValidationMetadata): boolean {
  return (
    (rule.type === ValidationTypes.CONDITIONAL_VALIDATION && rule.name === 'isOptional') ||
    rule.name === 'atLeastOneOf' ||
    rule.name === 'exactlyOneOf'
  );
}

function allowNull(schema: Schema): Schema {
  const { description, example, ...rest } = schema;
  return {
    ...(description !== undefined && { description }),
    ...(example !== undefined && { example }),
    anyOf: [rest, { type: 'null' }],
  };
}

type Describe = (constraints: unknown[]) => DocumentedRule;

/** class-validator's own rules by name, with their constraints as the decorators recorded them. */
const BUILT_IN_RULES: Record<string, Describe> = {
  isString: () => ({ schema: { type: 'string' } }),
  isBoolean: () => ({ schema: { type: 'boolean' } }),
  isInt: () => ({ schema: { type: 'integer' } }),
  isObject: () => ({ schema: { type: 'object' } }),
  isArray: () => ({ schema: { type: 'array' } }),
  isLength: ([min, max]) => ({
    schema: { minLength: min, ...(typeof max === 'number' && { maxLength: max }) },
  }),
  minLength: ([min]) => ({ schema: { minLength: min } }),
  maxLength: ([max]) => ({ schema: { maxLength: max } }),
  matches: ([pattern]) => ({ schema: { pattern: ecmaPattern(pattern as RegExp | string) } }),
  isIn: ([values]) => ({ schema: { enum: values } }),
  min: ([minimum]) => ({ schema: { minimum } }),
  max: ([maximum]) => ({ schema: { maximum } }),
  arrayMinSize: ([min]) => ({ schema: { minItems: min } }),
  arrayMaxSize: ([max]) => ({ schema: { maxItems: max } }),
  arrayUnique: () => ({ schema: { uniqueItems: true } }),
  isEmail: () => ({ schema: { type: 'string', format: 'email' } }),
  isBase64: () => ({
    schema: {
      type: 'string',
      contentEncoding: 'base64',
      pattern: '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$',
    },
  }),
  isUrl: ([options]) => {
    const protocols = (options as { protocols?: string[] } | undefined)?.protocols ?? ['http', 'https'];
    return {
      schema: {
        type: 'string',
        format: 'uri',
        pattern: `^(?:${protocols.join('|')})://[^/?#@]+(?:[/?#].*)?$`,
      },
      description: 'Without credentials.',
    };
  },
};

function describeRule(rule: ValidationMetadata): DocumentedRule | undefined {
  const constraints = rule.constraints ?? [];
  const builtIn = rule.name ? BUILT_IN_RULES[rule.name] : undefined;
  if (builtIn) return builtIn(constraints);
  // Our own rules (src/common/dto/documented-rule.ts) record what they stand for as their one constraint.
  const [documented] = constraints as [DocumentedRule | undefined];
  return documented && typeof documented === 'object' && !Array.isArray(documented) ? documented : undefined;
}

function mergeSchema(into: Schema, addition: Schema): void {
  for (const [keyword, value] of Object.entries(addition)) {
    if (keyword === 'pattern' && typeof into.pattern === 'string' && into.pattern !== value) {
      into.allOf = [...((into.allOf as Schema[]) ?? []), { pattern: ecmaPattern(value as string) }];
    } else if (keyword === 'type' && (into.$ref || into.allOf)) {
      continue;
    } else {
      into[keyword] = keyword === 'pattern' ? ecmaPattern(value as string) : value;
    }
  }
}

/** A rule's prose stands in only where the DTO says nothing; a DTO's own description is the better one. */
function describeIfSilent(schema: Schema, sentence: string): void {
  schema.description ??= sentence;
}

/** JavaScript reads \d as ASCII digits; other regex engines that read the document may not. */
function ecmaPattern(pattern: RegExp | string): string {
  const source = typeof pattern === 'string' ? pattern : pattern.source;
  let inClass = false;
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === '\\') {
      const next = source[i + 1];
      out += next === 'd' ? (inClass ? '0-9' : '[0-9]') : `${char}${next ?? ''}`;
      i++;
      continue;
    }
    if (char === '[') inClass = true;
    else if (char === ']') inClass = false;
    out += char;
  }
  return out;
}

// ---- responses -----------------------------------------------------------------------------------

const ERROR_RESPONSES: Record<number, string> = {
  400: 'The body is not JSON, or a field breaks its rules (`invalid_json`, `validation_error`); `details` names each field.',
  401: 'No API key, or a malformed, unknown or revoked one (`unauthorized`).',
  403: 'The API key lacks the role this operation needs (`forbidden`).',
  404: 'No such object in your account (`not_found`).',
  409: 'The object is in a state that refuses this request (`invalid_state`), or the Idempotency-Key was used with another body or route, or its first request is still in flight and Retry-After says when to ask again (`idempotency_conflict`).',
  413: 'The body is larger than the service accepts (`payload_too_large`).',
  415: 'The body is not `application/json` in UTF-8 (`unsupported_media_type`).',
  429: 'Too many requests; wait for the seconds in Retry-After (`rate_limited`).',
  431: "The request line or headers exceed Node's limit (16 KB); the HTTP server answers before the API, without a body.",
  500: 'An unexpected error; quote the request id to support (`internal_error`).',
  503: 'A component the service needs is unreachable; retry shortly, after Retry-After when given (`service_unavailable`).',
};

const RETRY_AFTER = {
  description: 'Seconds to wait before trying again.',
  schema: { type: 'string', pattern: '^[0-9]+$' },
};

const ERROR_ENVELOPE: Schema = {
  type: 'object',
  required: ['status', 'error', 'data'],
  properties: {
    status: { const: 'error' },
    data: { type: 'null' },
    error: {
      type: 'object',
      required: ['code', 'message', 'details', 'request_id'],
      properties: {
        code: { type: 'string', enum: Object.keys(ERROR_STATUS) },
        message: { type: 'string' },
        details: {
          type: 'array',
          items: {
            type: 'object',
            required: ['field', 'issue'],
            properties: { field: { type: 'string' }, issue: { type: 'string' } },
          },
        },
        request_id: { type: 'string', pattern: '^req_' },
      },
    },
  },
};

function errorResponse(status: number): Schema {
  const headers: Schema = {};
  if (status === 429) headers['Retry-After'] = { ...RETRY_AFTER, required: true };
  // An idempotency_conflict answers with Retry-After while the key's first request is in flight.
  if (status === 503 || status === 409) headers['Retry-After'] = RETRY_AFTER;
  if (status === 405)
    headers.Allow = { description: 'The methods this path accepts.', schema: { type: 'string' } };
  return {
    description: ERROR_RESPONSES[status],
    ...(Object.keys(headers).length > 0 && { headers }),
    ...(status !== 431 && {
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    }),
  };
}

/**
 * The answers every route can give besides its own: the edge parses any JSON body (400, 413),
 * refuses other media types on body methods (415), authenticates and rate-limits every request
 * (401, 429), checks the route's role (403), looks up the object a path names (404) and may find a
 * dependency down (503). A POST taking an Idempotency-Key can conflict (409); other conflicts are
 * declared on their controller methods with @ApiConflictResponse and get the envelope here.
 */
function documentResponses(operation: Operation, method: string, path: string, handler?: HandlerFacts): void {
  const statuses = [400, 429, 431, 500, 503];
  if (!handler?.public) statuses.push(401);
  if (handler?.requiredRole) statuses.push(403);
  if (path.includes('{')) statuses.push(404);
  if (BODY_METHODS.has(method)) statuses.push(413, 415);
  const idempotencyKey = operation.parameters?.find(
    (parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === 'idempotency-key',
  );
  if (idempotencyKey) {
    idempotencyKey.schema = { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN.source };
    statuses.push(409);
  }
  for (const [status, response] of Object.entries(operation.responses) as Array<[string, Schema]>) {
    if (Number(status) >= 400 && !response.$ref && !response.content) {
      Object.assign(response, { ...errorResponse(Number(status)), description: response.description });
    }
  }
  for (const status of statuses) {
    operation.responses[String(status)] ??= { $ref: `#/components/responses/Error${status}` };
  }
  if (handler?.answer) {
    const success = String(handler.successStatus);
    const example = (answerExamples as Record<string, unknown>)[`${method.toUpperCase()} ${path} ${success}`];
    operation.responses[success] = {
      ...(operation.responses[success] as Schema | undefined),
      description: ANSWER_DESCRIPTIONS[handler.answer.shape](handler.answer.name),
      content: {
        'application/json': {
          schema: answerSchema(handler.answer),
          ...(example !== undefined && { example }),
        },
      },
    };
  } else {
    // A route that answers one of several shapes describes its own answer; it still shows its example.
    const success = Object.keys(operation.responses).find((status) => status.startsWith('2'));
    const response = success
      ? (operation.responses[success] as { content?: Record<string, Schema> })
      : undefined;
    const content = response?.content?.['application/json'];
    const example = (answerExamples as Record<string, unknown>)[`${method.toUpperCase()} ${path} ${success}`];
    if (content && example !== undefined) content.example = example;
  }
  operation.responses = Object.fromEntries(
    Object.entries(operation.responses).sort(([a], [b]) => Number(a) - Number(b)),
  );
}

// ---- what succeeds: the published objects (src/contract) -------------------------------------------

/**
 * Published objects stay open to fields added later (a client must not break on one), so the
 * document drops the generated schemas' `additionalProperties: false`; the tests check answers
 * against the strict schemas as generated.
 */
function addPublishedSchemas(schemas: Record<string, Schema>): void {
  for (const [name, schema] of Object.entries(publishedSchemas.schemas as Record<string, Schema>)) {
    if (schemas[name]) throw new Error(`The published object ${name} has the name of a request schema.`);
    schemas[name] = openToAddedFields(schema) as Schema;
  }
}

function openToAddedFields(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openToAddedFields);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([keyword, value]) => !(keyword === 'additionalProperties' && value === false))
      .map(([keyword, value]) => [keyword, openToAddedFields(value)]),
  );
}

const ANSWER_DESCRIPTIONS: Record<AnswerDeclaration['shape'], (name: string) => string> = {
  object: (name) => `The ${name}, in the success envelope.`,
  list: (name) => `A list object of ${name}, newest first, in the success envelope.`,
  bare: (name) => `The ${name}.`,
};

/** The body of a successful answer: the published object, in the envelope unless it is bare. */
export function answerSchema({ name, shape }: AnswerDeclaration): Schema {
  const object = { $ref: `${SCHEMA_REFERENCE}${name}` };
  if (shape === 'bare') return object;
  return {
    type: 'object',
    required: ['status', 'error', 'data'],
    properties: {
      status: { const: 'success' },
      error: { type: 'null' },
      data: shape === 'list' ? listSchema(object) : object,
    },
  };
}

function listSchema(items: Schema): Schema {
  return {
    type: 'object',
    required: ['object', 'data', 'has_more', 'next_cursor'],
    properties: {
      object: { const: 'list' },
      data: { type: 'array', items },
      has_more: { type: 'boolean' },
      next_cursor: {
        type: ['string', 'null'],
        description: 'Pass it as `cursor` to read the next page; null on the last page.',
      },
    },
  };
}

/**
 * OpenAPI 3.1 `webhooks`: what the service POSTs to an endpoint, one entry per event type, in the
 * full or thin form the endpoint chose, with the headers that sign it (docs/webhooks.md).
 */
function webhookOperations(): Schema {
  const types: EventType[] = [
    ...(Object.keys(SUBSCRIBABLE_EVENT_TYPES) as SubscribableEventType[]),
    TEST_EVENT_TYPE,
  ];
  return Object.fromEntries(
    types
      .map((type) => [type, describeEvent(type)] as const)
      .map(([type, { title, description }]) => [
        type,
        {
          post: {
            operationId: `receive${type
              .split(/[._]/)
              .map((word) => word[0]!.toUpperCase() + word.slice(1))
              .join('')}`,
            summary: title,
            description: `${description} The body's \`type\` is \`${type}\`.`,
            parameters: WEBHOOK_HEADERS,
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: {
                    anyOf: [
                      { $ref: `${SCHEMA_REFERENCE}Notification` },
                      { $ref: `${SCHEMA_REFERENCE}ThinNotification` },
                    ],
                  },
                },
              },
            },
            responses: {
              '2XX': { description: 'Received: any 2xx answer ends the delivery.' },
              default: {
                description: 'Any other answer, or none within the timeout, is retried with backoff.',
              },
            },
          },
        },
      ]),
  );
}

const WEBHOOK_HEADERS = [
  {
    name: 'X-Webhook-Secret',
    in: 'header',
    required: true,
    description:
      "A JWT (HS256) signed with the endpoint's secret: `aud` is the endpoint id, `exp` a few minutes away, " +
      "and `body_sha256` the SHA-256 of the body's exact bytes. Verify all three before trusting the body.",
    schema: { type: 'string' },
  },
  {
    name: 'X-Webhook-Id',
    in: 'header',
    required: true,
    description: 'The event id: the same on every retry of the event, so a receiver can drop repeats.',
    schema: { type: 'string', pattern: '^evt_' },
  },
];
