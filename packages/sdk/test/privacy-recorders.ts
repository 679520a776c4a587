/**
 * What a trader's session told others, recorded by phase: every ledger RPC call the client made
 * (method and params, what the ledger's RPC node receives) and every engine request path, seen
 * from the client and, as a catch-all, from the engine's own request log.
 */
import type { LedgerClient } from '@nightjar/ledger';
import { VENUE_ROUTES } from '@nightjar/protocol';
import type { Client } from '../src/index.js';
import { requestLog } from './helpers.js';

/** The phase a scenario is in; recorders stamp each entry with it. */
export interface Phase {
  current: string;
}

export interface LedgerCall {
  phase: string;
  method: string;
  params: unknown;
}

export interface EngineRequest {
  phase: string;
  path: string;
}

/** One trader's recording: its ledger's calls and its client's engine paths. */
export class SessionRecorder {
  readonly calls: LedgerCall[] = [];
  readonly paths: EngineRequest[] = [];

  constructor(private readonly phase: Phase) {}

  /** Wraps a ledger so every call (method and params) is recorded before it is passed on. */
  readonly ledger = (inner: LedgerClient): LedgerClient =>
    new Proxy(inner, {
      get: (target, prop, receiver) => {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== 'function' || prop === 'subscribe' || prop === 'close') return value;
        return (params: unknown) => {
          this.calls.push({ phase: this.phase.current, method: String(prop), params });
          return (value as (p: unknown) => unknown).call(target, params);
        };
      },
    });

  /** Records the path of every engine request `client` makes. */
  watch(client: Client): void {
    const request = client.request.bind(client);
    client.request = ((path: string, options?: never) => {
      this.paths.push({ phase: this.phase.current, path });
      return request(path, options);
    }) as Client['request'];
  }
}

/**
 * The engine's own request log, each path stamped with the phase: it sees requests that bypass
 * `client.request` too.
 */
export function engineRequestLog(phase: Phase): { logger: never; requests: EngineRequest[] } {
  const requests: EngineRequest[] = [];
  const { logger } = requestLog((r) => requests.push({ phase: phase.current, path: r.url }));
  return { logger, requests };
}

/** Whether a call's params carry `text` anywhere (bigints as decimal strings). */
export function carries(params: unknown, text: string): boolean {
  const json = JSON.stringify(params ?? null, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  return json.includes(text);
}

/** Calls that carry `address` and at least one of `nullifiers` in the same params. */
export function callsJoining(calls: readonly LedgerCall[], address: string, nullifiers: readonly string[]) {
  return calls.filter((c) => carries(c.params, address) && nullifiers.some((n) => carries(c.params, n)));
}

/** The engine route that names a note: an inclusion path by commitment. */
export const INCLUSION_ROUTE = VENUE_ROUTES.treeInclusion.path;

export const inclusionRequests = (requests: readonly EngineRequest[]) =>
  requests.filter((r) => r.path.startsWith(INCLUSION_ROUTE));
