import express, { type NextFunction, type Request, type Response } from 'express';
import request from 'supertest';

import {
  CASE_KINDS,
  CONNECTOR_KIND_FOR_CASE_TYPE,
  type CaseEventType,
  type CaseObjectType,
  type DeclaredEventType,
  type DeclaredObjectType,
} from '../../domain/cases/case-kinds';
import { ID_PREFIXES } from '../../domain/ids';
import type { CaseObject } from '../../domain/webhooks/notified-object';
import { loadConfig } from '../../infrastructure/config/config';
import { CASE_EVENT_TYPES } from '../../domain/webhooks/event-types';
import { CASE_DOCUMENT_ROUTES, CASE_TYPES } from '../../src/cases/types';
import { jsonBodyParser, SMALL_BODY_BYTES } from '../../src/common/http-edge';
import * as workflows from '../../workflows';

const KINDS = CASE_KINDS.map((kind) => [kind.object, kind] as const);

/** True exactly when the two types name the same strings; checked by the compiler (npm run check). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

describe('each case kind the domain declares', () => {
  it.each(KINDS)('%s is served by exactly one case type, named as its kind names it', (_, kind) => {
    const served = CASE_TYPES.filter((type) => type.object === kind.object);
    expect(served.map(({ object, idKind, workflowType }) => ({ object, idKind, workflowType }))).toEqual([
      { object: kind.object, idKind: kind.idKind, workflowType: kind.workflowType },
    ]);
  });

  it.each(KINDS)('%s runs as a workflow the worker exports under its workflow type', (_, kind) => {
    expect(typeof (workflows as Record<string, unknown>)[kind.workflowType]).toBe('function');
  });

  it.each(KINDS)(
    '%s waits out outages exactly when the configuration gives it an outage deadline',
    (_, kind) => {
      const [type] = CASE_TYPES.filter((served) => served.object === kind.object);
      const deadlineMs = loadConfig('local', {}).cases.outage.deadlineMs[kind.object];
      expect(Boolean(type?.waitsOutOutages)).toBe(deadlineMs !== null);
    },
  );

  it.each(KINDS)('%s gives its ids their prefix, its events and its connector', (_, kind) => {
    expect(ID_PREFIXES[kind.idKind]).toBe(kind.idPrefix);
    expect(Object.keys(kind.events).every((type) => Object.hasOwn(CASE_EVENT_TYPES, type))).toBe(true);
    expect(CONNECTOR_KIND_FOR_CASE_TYPE[kind.object]).toBe(kind.connector);
  });
});

describe('the case kinds of the registry', () => {
  it('name exactly the objects and events the published schemas and webhook data spell out', () => {
    const objects: Same<CaseObjectType, DeclaredObjectType> = true;
    const events: Same<CaseEventType, DeclaredEventType> = true;
    const notified: Same<CaseObject['object'], DeclaredObjectType> = true;
    expect({ objects, events, notified }).toEqual({ objects: true, events: true, notified: true });
  });
});

describe('the case types the API serves', () => {
  it('are one per domain case kind, and none besides', () => {
    expect(CASE_TYPES.map((type) => type.object).sort()).toEqual(
      CASE_KINDS.map((kind) => kind.object).sort(),
    );
  });

  it('publish the events of their kinds and no other case events', () => {
    expect(Object.keys(CASE_EVENT_TYPES)).toEqual(CASE_KINDS.flatMap((kind) => Object.keys(kind.events)));
  });

  it('let a body past the small limit reach exactly the creations that carry documents', async () => {
    const app = express();
    app.use(jsonBodyParser(4 * SMALL_BODY_BYTES, CASE_DOCUMENT_ROUTES));
    app.use((_req: Request, res: Response) => void res.sendStatus(204));
    app.use((error: { status?: number }, _req: Request, res: Response, _next: NextFunction) => {
      res.sendStatus(error.status ?? 500);
    });
    const largeBody = { filler: 'x'.repeat(2 * SMALL_BODY_BYTES) };

    const answered: Record<string, number> = {};
    for (const type of CASE_TYPES) {
      answered[type.path] = (await request(app).post(`/${type.path}`).send(largeBody)).status;
    }

    expect(answered).toEqual({
      'prior-authorization': 204,
      'benefit-verification': 204,
      'clinical-eligibility': 204,
      'patient-enrollment': 413,
    });
  });
});
