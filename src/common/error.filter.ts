import { ArgumentsHost, BadRequestException, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';

import { isDatabaseUnavailable } from '../../infrastructure/storage/database';
import { isTemporalUnavailable } from '../../infrastructure/temporal/outages';
import { failure } from './envelope';
import { ApiError, ErrorCode, ErrorDetail, FAILURE_TYPE_ERRORS } from './errors';
import { ContextualRequest } from './request-context';

/** Answers which methods a path accepts, so a wrong method gets 405 rather than 404. */
export type AllowedMethodsLookup = (path: string) => string[];

/** Answers a failure in another form (a console page); false leaves it to the contract's JSON body. */
export type AlternativeErrorAnswer = (error: ApiError, req: Request, res: Response) => boolean;

const HTTP_STATUS_CODES: Record<number, ErrorCode> = {
  400: 'validation_error',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'invalid_state',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'service_unavailable',
};

/**
 * The single place where any failure becomes an HTTP answer in the contract's shape. Anything
 * unexpected turns into a plain 500 that names only the request id: stacks and messages stay in
 * the log, because they can echo request data.
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  constructor(
    private readonly logger: Logger,
    private readonly allowedMethods: AllowedMethodsLookup,
    private readonly alternativeAnswer: AlternativeErrorAnswer = () => false,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<ContextualRequest>();
    const res = http.getResponse<Response>();
    const error = this.toApiError(exception, req);
    const requestId = req.context?.requestId ?? 'unknown';
    if (error.code === 'service_unavailable') {
      this.logger.warn(
        { request_id: requestId, err_name: (exception as Error)?.name },
        'dependency unavailable',
      );
    }
    if (error.code === 'internal_error') {
      this.logger.error(
        { request_id: requestId, err_name: (exception as Error)?.name, stack: (exception as Error)?.stack },
        'unhandled error',
      );
    }
    if (this.alternativeAnswer(error, req, res)) return;
    for (const [header, value] of Object.entries(error.headers)) res.setHeader(header, value);
    res
      .status(error.httpStatus)
      .json(
        failure({ code: error.code, message: error.message, details: error.details, request_id: requestId }),
      );
  }

  private toApiError(exception: unknown, req: Request): ApiError {
    if (exception instanceof ApiError) return exception;
    if (exception instanceof WorkflowNotFoundError) return ApiError.notFound();
    const refusal = refusedUpdate(exception);
    if (refusal) return refusal;
    if (exception instanceof BadRequestException) return validationError(exception);
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) return this.routeMiss(req);
      const code = HTTP_STATUS_CODES[status];
      if (code) return new ApiError(code, exception.message);
    }
    const clientError = expressClientError(exception);
    if (clientError) return clientError;
    if (isTemporalUnavailable(exception)) return ApiError.serviceUnavailable('The workflow engine');
    if (isDatabaseUnavailable(exception)) return ApiError.serviceUnavailable('The database');
    return new ApiError(
      'internal_error',
      'An unexpected error occurred. Quote the request id when contacting support.',
    );
  }

  private routeMiss(req: Request): ApiError {
    const allowed = this.allowedMethods(req.path);
    if (allowed.length > 0) {
      return new ApiError('method_not_allowed', `${req.method} is not supported on this path.`, [], {
        Allow: allowed.join(', '),
      });
    }
    return new ApiError('not_found', `No endpoint ${req.method} ${req.path} exists.`);
  }
}

/**
 * Express middleware (static files, body parsers) reports a caller's mistake as an error marked
 * `expose` with its 4xx status; it must not be mistaken for an outage or a bug.
 */
function expressClientError(exception: unknown): ApiError | undefined {
  const { status, expose, message } = (exception ?? {}) as {
    status?: unknown;
    expose?: unknown;
    message?: unknown;
  };
  if (expose !== true || typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  const code = HTTP_STATUS_CODES[status] ?? 'validation_error';
  return new ApiError(code, typeof message === 'string' ? message : 'The request was refused.');
}

/** class-validator messages arrive as "field.path: issue" strings from our ValidationPipe factory. */
function validationError(exception: BadRequestException): ApiError {
  const response = exception.getResponse() as { message?: unknown };
  const messages = Array.isArray(response.message) ? response.message : [exception.message];
  const details: ErrorDetail[] = messages.map((message: string) => {
    const separator = message.indexOf(': ');
    return separator > 0
      ? { field: message.slice(0, separator), issue: message.slice(separator + 2) }
      : { field: '', issue: message };
  });
  return new ApiError('validation_error', 'The request is invalid; see details.', details);
}

/** An update the workflow refused with a failure type of the taxonomy that is the caller's to fix. */
function refusedUpdate(exception: unknown): ApiError | undefined {
  if (!(exception instanceof WorkflowUpdateFailedError)) return undefined;
  const { cause } = exception;
  const code =
    cause instanceof ApplicationFailure && cause.type ? FAILURE_TYPE_ERRORS[cause.type] : undefined;
  return code && new ApiError(code, cause!.message);
}
