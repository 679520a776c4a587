/**
 * The engines of a venue that runs markets on several (DESIGN 11): `/instruments` names each
 * market's engine (`base_url`); a market without one is served by the client's own engine. Each
 * other engine gets its own session on first use: its own verified transport (the same pinned
 * root and compose hash: checks (a)–(d) on its socket before anything is sent) and its own login
 * (tokens are per engine). The ledger, the nonce counters and the send lock stay the client's one:
 * nonces from one increasing counter increase at every engine too.
 * An engine that cannot be verified or reached fails only its markets, naming its URL.
 */
import type { Instrument } from '@nightjar/protocol';
import { openVenueSession, type ClientRequestOptions, type VenueSession } from './session.js';
import type { VenueSessionParameters } from './session-options.js';
import { fetchInstruments } from './venue-reads.js';
import { NIGHTJAR_ERROR__NETWORK, NightjarError, isNightjarError } from './errors/index.js';

/** One engine's session, or why it could not be opened. */
export type EngineEntry =
  | { baseUrl: string; session: VenueSession; error?: undefined }
  | { baseUrl: string; session?: undefined; error: NightjarError };

/** The sessions of every engine a client uses. */
export interface Engines {
  /** The session of the engine serving `symbol` (the own one for a market without `base_url`). */
  forSymbol(symbol: string): Promise<VenueSession>;
  /** Every engine the instrument list names, the own one first; one that fails carries its error. */
  all(): Promise<EngineEntry[]>;
  /** Closes the sessions this opened (not the own one). */
  close(): Promise<void>;
}

/** An origin to compare engines by (`https://Host:443/` and `https://host` are one). */
export function engineOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** The errors of another engine than the client's own, and that engine's URL. */
const otherEngine = new WeakMap<Error, string>();

/**
 * The base URL of the engine an error came from, when it is not the client's own: that engine's
 * markets fail, the client's own keep working (an app stops trading altogether only when its own
 * engine fails verification).
 */
export function engineOfError(err: unknown): string | undefined {
  return err instanceof Error ? otherEngine.get(err) : undefined;
}

/** `err` with the engine's URL in its detail (its code kept), so the caller sees which engine failed. */
export function engineError(baseUrl: string, err: unknown): NightjarError {
  if (isNightjarError(err) && otherEngine.get(err) === baseUrl) return err;
  let named: NightjarError;
  if (isNightjarError(err)) {
    const context = err.context as { detail?: unknown };
    const detail = typeof context.detail === 'string' ? context.detail : err.message;
    const withUrl = { ...err.context, detail: `engine ${baseUrl}: ${detail}` } as typeof err.context;
    named = new NightjarError(err.code, withUrl, { cause: err });
  } else
    named = new NightjarError(
      NIGHTJAR_ERROR__NETWORK,
      { detail: `engine ${baseUrl}: ${(err as Error).message}` },
      { cause: err },
    );
  otherEngine.set(named, baseUrl);
  return named;
}

/** `session` whose requests' failures (a socket that fails verification later, too) name its engine. */
function namingFailures(session: VenueSession): VenueSession {
  const named = (err: unknown) => Promise.reject(engineError(session.baseUrl, err));
  return Object.assign(Object.create(session) as VenueSession, {
    request: <T>(path: string, options?: ClientRequestOptions<T>) =>
      session.request(path, options).catch(named),
    bootSessionId: () => session.bootSessionId().catch(named),
  });
}

/** The engines of `home`'s venue, each other one opened with `params` at its own URL. */
export function venueEngines(home: VenueSession, params: VenueSessionParameters): Engines {
  const homeOrigin = engineOrigin(home.baseUrl);
  const opened = new Map<string, Promise<VenueSession>>();
  let listing: Promise<Instrument[]> | undefined;

  const instruments = async (symbol?: string): Promise<Instrument[]> => {
    listing ??= fetchInstruments(home);
    const list = await listing.catch((err: unknown) => {
      listing = undefined;
      throw err;
    });
    // A market listed since the last read: read the list again, once.
    if (symbol === undefined || list.some((i) => i.symbol === symbol)) return list;
    listing = fetchInstruments(home);
    return listing;
  };

  const open = (baseUrl: string): Promise<VenueSession> => {
    const origin = engineOrigin(baseUrl);
    if (origin === homeOrigin) return Promise.resolve(home);
    let pending = opened.get(origin);
    if (!pending) {
      const { onVerified: _own, onEngineVerified, ...shared } = params;
      pending = openVenueSession({
        ...shared,
        baseUrl,
        ledger: home.ledger,
        nonces: home.nonces,
        ...(onEngineVerified ? { onVerified: (report) => onEngineVerified(baseUrl, report) } : {}),
      }).then((session) => namingFailures(session));
      // A failure is not kept: the engine may be back at the next call.
      pending.catch(() => opened.delete(origin));
      opened.set(origin, pending);
    }
    return pending.catch((err: unknown) => Promise.reject(engineError(baseUrl, err)));
  };

  return {
    async forSymbol(symbol) {
      const inst = (await instruments(symbol)).find((i) => i.symbol === symbol);
      return open(inst?.base_url ?? home.baseUrl);
    },
    async all() {
      const urls = new Map<string, string>([[homeOrigin, home.baseUrl]]);
      for (const i of await instruments())
        if (i.base_url !== undefined && !urls.has(engineOrigin(i.base_url)))
          urls.set(engineOrigin(i.base_url), i.base_url);
      return Promise.all(
        [...urls.values()].map((baseUrl) =>
          open(baseUrl).then(
            (session): EngineEntry => ({ baseUrl, session }),
            (error: NightjarError): EngineEntry => ({ baseUrl, error }),
          ),
        ),
      );
    },
    async close() {
      const sessions = await Promise.allSettled(opened.values());
      opened.clear();
      for (const s of sessions) if (s.status === 'fulfilled') await s.value.close();
    },
  };
}
