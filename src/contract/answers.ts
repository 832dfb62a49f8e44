import { ApiConflictResponse } from '@nestjs/swagger';

import type { SuccessEnvelope, ListObject } from '../common/envelope';
import type { PublishedObjectName, PublishedObjects } from './published-objects';

/** How a route answers: the object in the envelope, a list of them, or the object bare (the codec). */
export type AnswerShape = 'object' | 'list' | 'bare';

export interface AnswerDeclaration {
  name: PublishedObjectName;
  shape: AnswerShape;
}

export const ANSWER_METADATA = 'published-answer';

type Answering<T> = (...args: never[]) => T | Promise<T>;

/**
 * Declares the published object a route answers with, in the success envelope; the compiler
 * checks the handler's return type against it and the API document describes it (src/app/openapi.ts).
 */
export function Answers<Name extends PublishedObjectName>(name: Name) {
  return declare<SuccessEnvelope<PublishedObjects[Name]>>({ name, shape: 'object' });
}

/** A route answering with a list object of the named published object. */
export function AnswersList<Name extends PublishedObjectName>(name: Name) {
  return declare<SuccessEnvelope<ListObject<PublishedObjects[Name]>>>({ name, shape: 'list' });
}

/** A route whose protocol is not ours (Temporal Web's codec): the object without the envelope. */
export function AnswersBare<Name extends PublishedObjectName>(name: Name) {
  return declare<PublishedObjects[Name]>({ name, shape: 'bare' });
}

/**
 * The declaration for a route built at run time (the case types' generic controller), where the
 * handler's type is generic and only the declaration can be checked.
 */
export function answering(name: PublishedObjectName, shape: AnswerShape): MethodDecorator {
  return (_target, _key, descriptor) => {
    Reflect.defineMetadata(ANSWER_METADATA, { name, shape }, descriptor.value as object);
  };
}

function declare<T>(declaration: AnswerDeclaration) {
  return <Handler extends Answering<T>>(
    _target: object,
    _key: string | symbol,
    descriptor: TypedPropertyDescriptor<Handler>,
  ): void => {
    Reflect.defineMetadata(ANSWER_METADATA, declaration, descriptor.value!);
  };
}

/** The declaration a handler carries, if any. */
export function answerOf(handler: object): AnswerDeclaration | undefined {
  return Reflect.getMetadata(ANSWER_METADATA, handler) as AnswerDeclaration | undefined;
}

/** For decisions on a case: a final case, or one not waiting for this decision, answers 409. */
export const ApiDecisionConflict = () =>
  ApiConflictResponse({
    description:
      'The case is final, or not waiting for this decision (`invalid_state`); nothing changed. Or the Idempotency-Key was used with another request, or its first request is still in flight (`idempotency_conflict`).',
  });
