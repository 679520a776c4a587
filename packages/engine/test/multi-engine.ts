/**
 * What the several-engines tests share: the two demo markets (one per engine), a dev ledger and
 * the venue's one simulated PKI, the wait for the signer set the engines register, a crossing
 * pair placed at one engine and followed until the ledger has spent both notes (settled), and
 * accounts made through an engine's dev admin.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { requiredCollateral } from '@nightjar/protocol';
import { computeComposeHash, SimulatedPlatform } from '@nightjar/engine';
import { freePort } from '@nightjar/testkit/postgres';
import {
  ensureDevGenesis,
  Ledger,
  loadOrCreateDevKeys,
  mintAddress,
  type LedgerClient,
} from '@nightjar/ledger';
import { login, SOL, Trader, USDC, type HttpsClient, type TestVenue } from '@nightjar/testkit';
import { nullifierOf } from './settlement/venue-helpers.js';

export interface TestMarket {
  symbol: string;
  base: string;
  amount: bigint;
  price: bigint;
  priceScale: bigint;
}

export const SOL_MARKET: TestMarket = {
  symbol: 'SOL-USDC',
  base: SOL,
  amount: 1_000_000_000n,
  price: 150_000_000n,
  priceScale: 1_000_000_000n,
};
export const ETH_MARKET: TestMarket = {
  symbol: 'ETH-USDC',
  base: mintAddress('ETH'),
  amount: 100_000_000n,
  price: 150_000_000n,
  priceScale: 100_000_000n,
};

/**
 * The venue's shared simulated PKI, made now: engines opening an absent one at once would each
 * make their own.
 */
export async function sharedPki(pkiDir: string): Promise<string> {
  await SimulatedPlatform.open({ dir: undefined, composeHash: computeComposeHash(), pkiDir });
  return pkiDir;
}

/** A dev ledger on a manual clock past genesis, its admin seed, and a fresh shared PKI. */
export async function devLedgerAndPki(): Promise<{ ledger: Ledger; adminSeed: Uint8Array; pkiDir: string }> {
  const ledger = Ledger.open({
    clock: { mode: 'manual' },
    verifier: { verify: async () => true },
    freshSignerWorkBits: 4,
  });
  const devKeys = loadOrCreateDevKeys(undefined);
  await ensureDevGenesis(ledger, devKeys);
  await ledger.advanceSlots({ slots: 40 });
  const pkiDir = await sharedPki(join(mkdtempSync(join(tmpdir(), 'nj-engines-')), 'pki'));
  return { ledger, adminSeed: devKeys.adminSeed, pkiDir };
}

/**
 * Waits (within `maxMs`) until the processed signer set is exactly `keys`: a peer's key enters
 * once the peer answers its attestation, at the latest a heartbeat after both engines serve.
 */
export async function awaitSignerSet(ledger: LedgerClient, keys: readonly string[], maxMs = 20_000) {
  const wanted = [...keys].sort().join();
  const current = async () =>
    [...(await ledger.getVault({ commitment: 'processed' })).tee_keys].sort().join();
  for (const deadline = Date.now() + maxMs; (await current()) !== wanted;) {
    if (Date.now() > deadline) throw new Error(`the signer set never became ${wanted}: ${await current()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * One engine of the venue's options besides the test defaults: its market, its public URL, the
 * shared PostgreSQL and PKI (each engine checks the other's settlement key under it), and a short
 * heartbeat (a peer's key enters the signer set at the first one after the peer serves).
 */
export async function scaleOutOptions(m: TestMarket, store: string, pkiDir: string) {
  const port = await freePort();
  return {
    port,
    publicUrl: `https://127.0.0.1:${port}`,
    markets: [m.symbol],
    store,
    attestation: { pkiDir },
    engineDirectory: { heartbeatMs: 100 },
  };
}

/** A new account's bearer token, made by the engine's dev admin. */
export function accountsAt(client: HttpsClient, admin: Parameters<typeof login>[1]) {
  return async (): Promise<string> => {
    const adminToken = await login(client, admin);
    const created = await client.send('/admin/accounts', { method: 'POST', token: adminToken, body: {} });
    expect(created.status, created.text).toBe(201);
    return login(client, created.body);
  };
}

/**
 * Deposits, places a bid and an ask crossing on `m` at the engine behind `venue`, and steps the
 * ledger until both notes are spent (the match settled), within `maxMs`.
 */
export async function crossAndSettle(
  venue: TestVenue,
  account: () => Promise<string>,
  m: TestMarket,
  maxMs = 20_000,
): Promise<void> {
  const [alice, bob] = [new Trader(venue), new Trader(venue)];
  const [aliceToken, bobToken] = [await account(), await account()];
  const collateral = (side: 'bid' | 'ask') =>
    requiredCollateral(side, m.amount, m.price, { price_scale: m.priceScale, fee_bps: 10n });
  const quote = await alice.deposit(USDC, collateral('bid'));
  const base = await bob.deposit(m.base, collateral('ask'));
  const fields = { symbol: m.symbol, amount: m.amount, price_limit: m.price };
  const bid = alice.order(quote, { ...fields, side: 'bid' });
  const ask = bob.order(base, { ...fields, side: 'ask' });
  for (const [token, body] of [
    [aliceToken, bid],
    [bobToken, ask],
  ] as const) {
    const r = await venue.client.send('/orders', { token, body });
    expect(r.status, r.text).toBe(202);
  }
  const nullifiers = [nullifierOf(quote), nullifierOf(base)];
  const deadline = performance.now() + maxMs;
  const spent = async () =>
    (await venue.ledger.getNoteStatuses({ nullifiers })).every((s) => s.state === 'spent');
  while (!(await spent())) {
    if (performance.now() > deadline) {
      const st = await venue.client.send('/orders/' + bid.order_id, { token: aliceToken });
      const adm = await login(venue.client, venue.admin);
      const met = await venue.client.send('/admin/metrics/settlement', { token: adm });
      throw new Error(`${m.symbol}: the match did not settle ${st.text} ${met.text}`);
    }
    await venue.advance(1);
    await new Promise((r) => setTimeout(r, 15));
  }
}
