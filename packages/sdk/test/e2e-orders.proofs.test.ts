/**
 * End to end through the SDK only (see `e2e-venue.ts`): nonces survive a restart (and a client
 * that forgot them is refused), and orders placed at once prove in parallel on their own notes.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cancelOrder, createWallet, deposit, placeOrder } from '../src/index.js';
import { FAST_SCRYPT, SYMBOL, useE2eVenue } from './e2e-venue.js';
import type { NightjarError } from '../src/index.js';
import { CONFLICT_CODES, INSUFFICIENT_NOTES_CODES, isNightjarError } from '../src/index.js';

const venue = useE2eVenue();

describe('SDK end to end: placing orders', () => {
  it('nonce durability: a restarted client continues its nonces; a client that forgot them is refused', async () => {
    const { v, airdrop, dir, connect, finalize } = venue();
    const { credentials } = await v.newAccount();
    const stateDir = join(dir, 'nonces');
    const file = { path: join(dir, 'nonces.wallet'), password: 'pw', scrypt: FAST_SCRYPT };
    const w1 = createWallet(file);
    const c1 = await connect(w1, credentials, stateDir);
    const USDC = (await c1.instrument(SYMBOL)).quote_mint;
    await airdrop(w1, USDC, '1000000000');
    await deposit(c1, { mint: USDC, amount: '200', wait: 'landed' });
    await finalize();
    const o1 = await placeOrder(c1, { symbol: SYMBOL, side: 'bid', amount: '1', price: '100' });
    expect(o1.body.collateral_amount).toBe(200_000_000n); // a larger note: change comes back
    await cancelOrder(c1, { orderId: o1.orderId });
    expect(o1.body.arrival_nonce).toBe(1n);
    await c1.close();

    // Restart: the same state directory and the same (reopened) wallet file.
    const w2 = createWallet(file);
    const c2 = await connect(w2, credentials, stateDir);
    const o2 = await placeOrder(c2, { symbol: SYMBOL, side: 'bid', amount: '1', price: '100' });
    expect(o2.body.arrival_nonce).toBe(2n);
    expect((await cancelOrder(c2, { orderId: o2.orderId })).status).toBe('cancelled');
    await c2.close();

    // A client that lost its nonce file reuses arrival nonce 1 and is refused with 1202.
    const w3 = createWallet(file);
    const c3 = await connect(w3, credentials, join(dir, 'amnesiac'));
    const err = await placeOrder(c3, { symbol: SYMBOL, side: 'bid', amount: '1', price: '100' }).catch(
      (e) => e,
    );
    expect(isNightjarError(err, CONFLICT_CODES)).toBe(true);
    expect((err as NightjarError).code).toBe(1202);
    await c3.close();
  }, 60_000);

  it('orders placed at once prove in parallel, each on its own note, and reach the venue in nonce order', async () => {
    const { v, airdrop, dir, connect, finalize } = venue();
    const { credentials } = await v.newAccount();
    const w = createWallet({ seed: new Uint8Array(32).fill(11) });
    const c = await connect(w, credentials, join(dir, 'parallel'));
    try {
      const USDC = (await c.instrument(SYMBOL)).quote_mint;
      await airdrop(w, USDC, '1000000000');
      for (const amount of ['101', '102', '103']) await deposit(c, { mint: USDC, amount, wait: 'landed' });
      await finalize();
      const placed = await Promise.all(
        ['1', '1', '1'].map((amount) => placeOrder(c, { symbol: SYMBOL, side: 'bid', amount, price: '100' })),
      );
      expect(new Set(placed.map((p) => p.noteCommitment)).size).toBe(3);
      expect(placed.map((p) => p.body.arrival_nonce).sort()).toEqual([1n, 2n, 3n]);
      await expect(
        placeOrder(c, { symbol: SYMBOL, side: 'bid', amount: '1', price: '100' }),
      ).rejects.toSatisfy((e: unknown) => isNightjarError(e, INSUFFICIENT_NOTES_CODES));
      await Promise.all(placed.map((p) => cancelOrder(c, { orderId: p.orderId })));
    } finally {
      await c.close();
    }
  }, 60_000);
});
