import { ErrorCode, ErrorDetail } from './errors';

export interface SuccessEnvelope<T> {
  status: 'success';
  error: null;
  data: T;
}

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  details: ErrorDetail[];
  request_id: string;
}

export interface ErrorEnvelope {
  status: 'error';
  error: ErrorBody;
  data: null;
}

export function success<T>(data: T): SuccessEnvelope<T> {
  return { status: 'success', error: null, data };
}

export function failure(error: ErrorBody): ErrorEnvelope {
  return { status: 'error', error, data: null };
}
