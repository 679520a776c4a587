/**
 * A venue with markets on two engines (DESIGN 11), in process over real HTTPS: one dev ledger,
 * engine A the single writer of SOL-USDC, engine B of ETH-USDC, each listing the other's market
 * at the other's URL. Both run on the simulated platform under one PKI (a client pins one root);
 * B may run another release (`composeHashB`), which a client pinning A's release refuses. The
 * two share one AccountService (the test-only `accountService` option) until the PostgreSQL
 * store: the same credentials log in at both.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  computeComposeHash,
  SimulatedPlatform,
  type EngineOptions,
  type ListedMarket,
} from '@nightjar/engine';
import { startTestVenue, type TestVenue } from './engine-venue.js';

export const MARKET_A = 'SOL-USDC';
export const MARKET_B = 'ETH-USDC';

export interface TwoEngineVenue {
  /** Engine A's venue (the ledger, accounts, admin); a client's own engine. */
  a: TestVenue;
  /** Engine B on the same ledger and accounts. */
  b: TestVenue;
  close(): Promise<void>;
}

/** A directory that names `symbol`'s engine once `url()` is known (the peer starts on a free port). */
function lateDirectory(symbol: string, url: () => string | undefined): EngineOptions['directory'] {
  return {
    peers: async (): Promise<ListedMarket[]> => {
      const base_url = url();
      return base_url === undefined ? [] : [{ symbol, base_url }];
    },
  };
}

/** Starts engines A and B (see the module comment); `engine` adds options to both, `a`/`b` to one. */
export async function startTwoEngineVenue(
  options: {
    composeHashB?: string;
    engine?: Partial<EngineOptions>;
    a?: Partial<EngineOptions>;
    b?: Partial<EngineOptions>;
  } = {},
): Promise<TwoEngineVenue> {
  const pkiDir = join(mkdtempSync(join(tmpdir(), 'nightjar-pki-')), 'pki');
  const platform = (composeHash: string) => SimulatedPlatform.open({ dir: undefined, composeHash, pkiDir });
  let bUrl: string | undefined;
  const a = await startTestVenue({
    ...options.engine,
    ...options.a,
    markets: [MARKET_A],
    directory: lateDirectory(MARKET_B, () => bUrl),
    attestation: { platform: await platform(computeComposeHash()) },
  });
  try {
    const b = await startTestVenue({
      ...options.engine,
      ...options.b,
      sharedLedger: a.ledger,
      markets: [MARKET_B],
      directory: lateDirectory(MARKET_A, () => a.engine.url),
      accountService: a.engine.context.accounts,
      attestation: { platform: await platform(options.composeHashB ?? computeComposeHash()) },
    });
    bUrl = b.engine.url;
    return {
      a,
      b,
      async close() {
        await b.close();
        await a.close();
      },
    };
  } catch (err) {
    await a.close();
    throw err;
  }
}
