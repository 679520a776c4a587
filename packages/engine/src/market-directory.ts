/**
 * Which engine serves which market, when the venue runs several (DESIGN 11): every engine lists
 * every market on `/instruments`, each with the `base_url` of the engine that is its single writer,
 * so a client routes each order to its market's engine (and verifies that engine first).
 */
import type { Instrument } from '@nightjar/protocol';

export interface ListedMarket {
  symbol: string;
  /** The serving engine's base URL. */
  base_url: string;
}

export interface MarketDirectory {
  /** The markets other engines serve now (an engine's own entries are ignored: it knows its own). */
  peers(): Promise<readonly ListedMarket[]>;
}

/** A fixed directory (tests, and a venue whose layout is configured rather than registered). */
export function staticDirectory(markets: readonly ListedMarket[]): MarketDirectory {
  const copy = markets.map((m) => ({ ...m }));
  return { peers: async () => copy };
}

/**
 * The instrument list as clients see it: this engine's own markets at `ownUrl`, then every other
 * market the ledger knows that a peer serves, at the peer's URL. A market nobody serves is left out.
 */
export function listInstruments(
  all: readonly Instrument[],
  own: ReadonlySet<string>,
  ownUrl: string,
  peers: readonly ListedMarket[],
): Instrument[] {
  const peerUrl = new Map<string, string>();
  for (const p of peers) if (!own.has(p.symbol) && !peerUrl.has(p.symbol)) peerUrl.set(p.symbol, p.base_url);
  const out: Instrument[] = [];
  for (const i of all) {
    const url = own.has(i.symbol) ? ownUrl : peerUrl.get(i.symbol);
    if (url !== undefined) out.push({ ...i, base_url: url });
  }
  return out;
}
