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

/** A page of objects (contract section 1): newest first, with the cursor of the next page while there is one. */
export interface ListObject<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/** A list the API answers whole, in one page. */
export function wholeList<T>(data: T[]): ListObject<T> {
  return { object: 'list', data, has_more: false, next_cursor: null };
}

export function success<T>(data: T): SuccessEnvelope<T> {
  return { status: 'success', error: null, data };
}

export function failure(error: ErrorBody): ErrorEnvelope {
  return { status: 'error', error, data: null };
}
