/** The browser's side of the local API: JSON over fetch (same origin, session cookie). */
import type { ApiError } from '../src/api-types.js';

export type ErrorBody = ApiError['error'];

/** A failed call, carrying the API's error body (message and fix). */
export class ApiFailure extends Error {
  readonly status: number;
  readonly body: ErrorBody;
  constructor(status: number, body: ErrorBody) {
    super(body.message);
    this.status = status;
    this.body = body;
  }
}

/** Mutating calls are refused here (before any network) while this returns a reason. */
let sendGuard: () => string | undefined = () => undefined;
export function setSendGuard(guard: () => string | undefined): void {
  sendGuard = guard;
}

function isErrorBody(v: unknown): v is ApiError {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as ApiError).error === 'object' &&
    typeof (v as ApiError).error?.message === 'string'
  );
}

/**
 * How many calls the guard refused, also on `<html data-refused-sends>`: a test's proof that a
 * control's handler ran and reached this layer, which sent nothing.
 */
let refusedSends = 0;

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  if (method !== 'GET') {
    const refused = sendGuard();
    if (refused) {
      document.documentElement.dataset.refusedSends = String(++refusedSends);
      throw new ApiFailure(0, { code: 'ATTESTATION_FAILED', message: refused });
    }
  }
  let res: Response;
  try {
    res = await fetch(`/api/v1${path}`, {
      method,
      credentials: 'same-origin',
      headers:
        body === undefined
          ? { accept: 'application/json' }
          : { 'content-type': 'application/json', accept: 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiFailure(0, {
      code: 'APP_UNREACHABLE',
      message: 'The trading app does not answer.',
      fix: 'Check that `nightjar app` (or `npm start`) is still running, then retry.',
    });
  }
  const text = await res.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  if (!res.ok) {
    if (isErrorBody(parsed)) throw new ApiFailure(res.status, parsed.error);
    throw new ApiFailure(res.status, {
      code: `HTTP_${res.status}`,
      message: `The app answered ${res.status} ${res.statusText}.`,
      ...(res.status === 401
        ? { fix: 'The session expired: open the URL that `nightjar app` printed again.' }
        : {}),
    });
  }
  return parsed as T;
}

/** A list from a body that is either the array itself or an object holding it under `key`. */
export function listOf<T>(body: unknown, key: string): T[] {
  if (Array.isArray(body)) return body as T[];
  if (body && typeof body === 'object') {
    const v = (body as Record<string, unknown>)[key];
    if (Array.isArray(v)) return v as T[];
  }
  return [];
}

export function errorOf(e: unknown): ErrorBody {
  if (e instanceof ApiFailure) return e.body;
  return { code: 'CLIENT_ERROR', message: e instanceof Error ? e.message : String(e) };
}
