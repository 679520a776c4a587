/**
 * The ledger as the SDK's user meets it: every failure of a ledger call is a typed SDK error.
 * `createClient` wraps whatever ledger the client uses (its own `RpcLedgerClient`, or the one the
 * caller passed) once, so no action lets a raw `RpcError` or a network error (`fetch failed`,
 * `ECONNREFUSED`) through. The ledger's JSON-RPC code stays readable (`rpcCode`, and the original
 * error as `cause`) for the paths that map it further (`landTransaction`, `requestFaucet`).
 */
import { LEDGER_METHODS, RPC_ERRORS, RpcError, type LedgerClient } from '@nightjar/protocol/ledger-client';
import {
  isNightjarError,
  LEDGER_ERROR_CODES,
  NIGHTJAR_ERROR__LEDGER_ERROR,
  NIGHTJAR_ERROR__LEDGER_UNAVAILABLE,
  NightjarError,
} from '../errors/index.js';

const TYPED = Symbol('nightjar.typedLedger');
const METHODS: ReadonlySet<PropertyKey> = new Set(Object.keys(LEDGER_METHODS));
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EPIPE',
]);

/** Whether `err` is a transport failure (no answer at all) rather than an answer. */
function isNetworkFailure(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === 'AbortError' || err.name === 'TimeoutError') return true;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  // undici's `TypeError: fetch failed`, its cause the socket error.
  return err instanceof TypeError && err.message === 'fetch failed';
}

/** The typed SDK error for a failure of the ledger call `method` (an SDK error passes as it is). */
export function ledgerError(err: unknown, method: string, url?: string): NightjarError {
  if (err instanceof NightjarError) return err;
  const options = { cause: err };
  if (err instanceof RpcError) {
    if (err.code === RPC_ERRORS.nodeUnavailable || err.code === RPC_ERRORS.nodeTimeout)
      return new NightjarError(
        NIGHTJAR_ERROR__LEDGER_UNAVAILABLE,
        { method, url, rpcCode: err.code, detail: err.message },
        options,
      );
    return new NightjarError(
      NIGHTJAR_ERROR__LEDGER_ERROR,
      {
        method,
        rpcCode: err.code,
        detail: `the ledger refused ${method} (JSON-RPC ${err.code}): ${err.message}`,
      },
      options,
    );
  }
  const detail = err instanceof Error ? err.message : String(err);
  if (isNetworkFailure(err))
    return new NightjarError(
      NIGHTJAR_ERROR__LEDGER_UNAVAILABLE,
      { method, url, rpcCode: RPC_ERRORS.nodeUnavailable, detail },
      options,
    );
  return new NightjarError(
    NIGHTJAR_ERROR__LEDGER_ERROR,
    { method, rpcCode: RPC_ERRORS.internal, detail: `the ledger call ${method} failed: ${detail}` },
    options,
  );
}

/** The ledger's JSON-RPC code of a failed ledger call: a raw `RpcError`'s or a typed one's `rpcCode`. */
export function ledgerRpcCode(err: unknown): number | undefined {
  if (err instanceof RpcError) return err.code;
  if (isNightjarError(err, LEDGER_ERROR_CODES)) return err.context.rpcCode;
  return undefined;
}

/**
 * `inner` with every method of the ledger's method table throwing typed SDK errors (LEDGER_ERROR,
 * LEDGER_UNAVAILABLE); everything else (`subscribe`, `close`, `url`...) is `inner`'s own.
 * `url` names the ledger in messages (default `inner.url` when it has one). Idempotent.
 */
export function typedLedger<L extends LedgerClient>(inner: L, url?: string): L {
  if ((inner as { [TYPED]?: true })[TYPED]) return inner;
  const own = (inner as { url?: unknown }).url;
  const where = url ?? (typeof own === 'string' ? own : undefined);
  return new Proxy(inner, {
    get(target, prop) {
      if (prop === TYPED) return true;
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const fn = value as (...args: unknown[]) => unknown;
      if (!METHODS.has(prop)) return fn.bind(target);
      const method = String(prop);
      return async (...args: unknown[]) => {
        try {
          return await fn.apply(target, args);
        } catch (err) {
          throw ledgerError(err, method, where);
        }
      };
    },
  });
}
