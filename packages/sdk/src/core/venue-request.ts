/** One REST exchange with the venue on the verified transport: typed errors, retries, parsed answers. */
import { FieldError, type Codec } from '@nightjar/protocol';
import type { RetryInfo } from './session-options.js';
import type { Transport } from './transport/index.js';
import { backoffDelay, sleep, type BackoffOptions } from './utils/backoff.js';
import {
  isNightjarError,
  LEDGER_ERROR_CODES,
  NIGHTJAR_ERROR__INVALID_RESPONSE,
  NIGHTJAR_ERROR__NETWORK,
  NIGHTJAR_ERROR__TRANSPORT_CLOSED,
  NightjarError,
  TRANSPORT_ERROR_CODES,
  VENUE_ANSWER_CODES,
  venueError,
} from './errors/index.js';

/** Sends one request on `transport` with an optional bearer; resolves with a 2xx body, else throws typed. */
export type VenueSend = (path: string, method: string, body: unknown, bearer?: string) => Promise<unknown>;

/** `send` over `transport`: network failures become `NETWORK`, venue refusals their typed error. */
export function venueSender(transport: Transport): VenueSend {
  return async (path, method, body, bearer) => {
    let res;
    try {
      res = await transport.request<unknown>(path, {
        method,
        ...(body === undefined ? {} : { body }),
        ...(bearer ? { token: bearer } : {}),
      });
    } catch (err) {
      if (isNightjarError(err, TRANSPORT_ERROR_CODES) && err.code !== NIGHTJAR_ERROR__TRANSPORT_CLOSED)
        throw err;
      // Verification reads the signer set from the ledger: its failure is the ledger's.
      if (isNightjarError(err, LEDGER_ERROR_CODES)) throw err;
      throw new NightjarError(
        NIGHTJAR_ERROR__NETWORK,
        { detail: `request to ${path} failed: ${(err as Error).message}` },
        { cause: err },
      );
    }
    if (res.status >= 200 && res.status < 300) return res.body;
    const envelope = (res.body ?? {}) as { code?: unknown; message?: unknown };
    const retryAfter = res.headers['retry-after'];
    const options = {
      ...(retryAfter !== undefined && !Number.isNaN(Number(retryAfter))
        ? { retryAfterSeconds: Number(retryAfter) }
        : {}),
      ...(typeof res.headers['x-request-id'] === 'string' ? { requestId: res.headers['x-request-id'] } : {}),
    };
    const code = envelope.code === undefined ? 0 : Number(envelope.code);
    const message = typeof envelope.message === 'string' ? envelope.message : `HTTP ${res.status}`;
    throw venueError(code, res.status, message, options);
  };
}

/** Runs a call again on retryable failures, with jittered backoff honouring `Retry-After`. */
export type WithRetry = <T>(fn: () => Promise<T>, retry: boolean) => Promise<T>;

/** `withRetry` under `backoff` (its `attempts` bound the tries), telling `onRetry` before each wait. */
export function retrier(backoff: Required<BackoffOptions>, onRetry?: (info: RetryInfo) => void): WithRetry {
  return async (fn, retry) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn();
      } catch (err) {
        const retryable = err instanceof NightjarError && err.retryable;
        if (!retry || !retryable || attempt + 1 >= backoff.attempts) throw err;
        const after = isNightjarError(err, VENUE_ANSWER_CODES) ? err.context.retryAfterSeconds : undefined;
        const delayMs = backoffDelay(attempt, backoff, after);
        onRetry?.({ attempt, delayMs, error: err });
        await sleep(delayMs);
      }
    }
  };
}

/** The venue's answer to `path`, parsed with the protocol's codec for it. */
export function parseResponse<T>(codec: Codec<T>, body: unknown, path: string): T {
  try {
    return codec.parse(body);
  } catch (err) {
    if (!(err instanceof FieldError)) throw err;
    // The path without its query (which may name a note); FieldError messages never echo values.
    const route = path.split('?')[0];
    throw new NightjarError(
      NIGHTJAR_ERROR__INVALID_RESPONSE,
      { detail: `the answer to ${route} does not match the spec: ${err.message}` },
      {
        cause: err,
      },
    );
  }
}
