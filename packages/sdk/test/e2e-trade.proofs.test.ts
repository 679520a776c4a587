/**
 * End to end through the SDK only (see `e2e-venue.ts`): two wallets trade over the stream (a
 * partial fill and its continuation, fills stored as they come, balances to the unit, recovery
 * from the seed, withdrawals with genuine VALID_SPEND proofs), and a reconnect while a match
 * settles loses no order event from the client's view.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { feeOn, requiredCollateral } from '@nightjar/protocol';
import {
  createWallet,
  deposit,
  getBalances,
  getOrder,
  placeOrder,
  syncWallet,
  withdraw,
} from '../src/index.js';
import { FAST_SCRYPT, SYMBOL, kinds, useE2eVenue, storedFills, unspent } from './e2e-venue.js';
import { freshAddress } from './helpers.js';

const venue = useE2eVenue();

describe('SDK end to end: trading over the stream', () => {
  it('two wallets deposit, cross (a partial fill, then its continuation), see their fills, derive balances, recover from the seed and withdraw', async () => {
    const { v, airdrop, dir, withdrawals, connect, party, finalize, settleUntil } = venue();
    const alice = await party('alice');
    const bob = await party('bob');
    const inst = await alice.client.instrument(SYMBOL);
    const SOL = inst.base_mint;
    const USDC = inst.quote_mint;
    const ONE = 10n ** BigInt(inst.base_decimals);
    const price = 150n * 10n ** BigInt(inst.quote_decimals); // price_limit for "150" when price_scale = 10^base_decimals
    expect(inst.price_scale).toBe(ONE);

    // Funding accounts (the wallets' own ledger accounts) get tokens; then the SDK deposits.
    const bidCollateral = requiredCollateral('bid', 3n * ONE, price, inst);
    const ask1Collateral = requiredCollateral('ask', ONE, 0n, inst);
    const ask2Collateral = requiredCollateral('ask', 2n * ONE, 0n, inst);
    await airdrop(alice.wallet, USDC, bidCollateral);
    await airdrop(bob.wallet, SOL, ask1Collateral + ask2Collateral);
    // Decimal strings in human units, converted exactly.
    expect(bidCollateral).toBe(450_450_000n);
    const a = await deposit(alice.client, { mint: USDC, amount: '450.45', wait: 'landed' });
    expect(a.note.amount).toBe(bidCollateral);
    await deposit(bob.client, { mint: SOL, amount: ask1Collateral, wait: 'landed' });
    await deposit(bob.client, { mint: SOL, amount: ask2Collateral, wait: 'landed' });
    await finalize();

    // Alice bids 3 SOL at 150; Bob asks 1 SOL: a partial fill of Alice's order.
    const bid = await placeOrder(alice.client, { symbol: SYMBOL, side: 'bid', amount: '3', price: '150' });
    expect(bid.body.price_limit).toBe(price);
    expect(bid.body.collateral_amount).toBeUndefined(); // exact note
    const ask1 = await placeOrder(bob.client, { symbol: SYMBOL, side: 'ask', amount: '1', price: '150' });
    expect(ask1.noteCommitment).not.toBe(bid.noteCommitment);
    await settleUntil(
      () =>
        kinds(alice, bid.orderId).includes('partially_filled') &&
        storedFills(alice, bid.orderId) === 1 &&
        kinds(bob, ask1.orderId).includes('fully_filled') &&
        storedFills(bob, ask1.orderId) === 1,
      'the partial fill',
    );
    expect((await getOrder(alice.client, { orderId: bid.orderId })).filled_quantity).toBe(ONE);

    // Balances derived client-side, to the unit.
    const quote1 = (ONE * price) / inst.price_scale;
    const aliceChange = bidCollateral - quote1 - feeOn(quote1, inst.fee_bps);
    let ab = await getBalances(alice.client);
    expect(ab[SOL]).toEqual({ available: ONE, locked: 0n, pendingSettlement: 0n, pending: 0n });
    expect(ab[USDC]).toEqual({ available: 0n, locked: aliceChange, pendingSettlement: 0n, pending: 0n });
    let bb = await getBalances(bob.client);
    expect(bb[USDC]).toEqual({ available: quote1, locked: 0n, pendingSettlement: 0n, pending: 0n });
    expect(bb[SOL]).toEqual({ available: ask2Collateral, locked: 0n, pendingSettlement: 0n, pending: 0n });

    // The continuation: Bob asks 2 SOL; Alice's re-locked remainder fills completely.
    const ask2 = await placeOrder(bob.client, { symbol: SYMBOL, side: 'ask', amount: '2', price: '150' });
    await settleUntil(
      () =>
        kinds(alice, bid.orderId).includes('fully_filled') &&
        storedFills(alice, bid.orderId) === 2 &&
        kinds(bob, ask2.orderId).includes('fully_filled') &&
        storedFills(bob, ask2.orderId) === 1,
      'the continuation',
    );
    expect(kinds(alice, bid.orderId)).toEqual([
      'pending_settlement',
      'partially_filled',
      'pending_settlement',
      'fully_filled',
    ]);
    const quote2 = (2n * ONE * price) / inst.price_scale;
    expect(aliceChange).toBe(quote2 + feeOn(quote2, inst.fee_bps)); // nothing left over
    ab = await getBalances(alice.client);
    expect(ab[SOL]).toEqual({ available: 3n * ONE, locked: 0n, pendingSettlement: 0n, pending: 0n });
    expect(ab[USDC] ?? { available: 0n, locked: 0n, pendingSettlement: 0n, pending: 0n }).toEqual({
      available: 0n,
      locked: 0n,
      pendingSettlement: 0n,
      pending: 0n,
    });
    bb = await getBalances(bob.client);
    expect(bb[USDC]).toEqual({ available: quote1 + quote2, locked: 0n, pendingSettlement: 0n, pending: 0n });
    expect(bb[SOL]?.available ?? 0n).toBe(0n);

    // A wallet recovered from Alice's seed alone (no file, a fresh client) shows the same notes.
    for (const p of [alice, bob]) {
      const recovered = createWallet({ seed: p.wallet.seed });
      const rc = await connect(recovered, p.credentials, join(dir, `recovered-${p.wallet.ownerCommitment}`));
      try {
        await syncWallet(rc);
        expect(unspent(recovered)).toEqual(unspent(p.wallet));
        expect(recovered.balances()).toEqual(p.wallet.balances());
      } finally {
        await rc.close();
      }
    }

    // The encrypted wallet file reopens with its password to the same notes.
    const reopened = createWallet({
      path: join(dir, 'alice.wallet'),
      password: 'pw-alice',
      scrypt: FAST_SCRYPT,
    });
    expect(unspent(reopened)).toEqual(unspent(alice.wallet));

    // Withdrawals pay out on the ledger.
    await finalize();
    // Each to a fresh address of its own (the funding address would link them to the deposits).
    const aliceTo = freshAddress();
    const bobTo = freshAddress();
    for (const n of alice.wallet.unspentNotes())
      await withdraw(alice.client, { commitment: n.commitment, recipient: aliceTo });
    for (const n of bob.wallet.unspentNotes())
      await withdraw(bob.client, { commitment: n.commitment, recipient: bobTo });
    expect(await v.ledger.getBalance({ owner: aliceTo, mint: SOL })).toBe((3n * ONE).toString());
    expect(await v.ledger.getBalance({ owner: bobTo, mint: USDC })).toBe((quote1 + quote2).toString());
    ab = await getBalances(alice.client);
    expect(ab[SOL]?.available ?? 0n).toBe(0n);
    // Four withdrawals (two notes each), every VALID_SPEND proof genuine.
    expect(withdrawals).toEqual([true, true, true, true]);

    await Promise.all([alice.stream.close(), bob.stream.close()]);
    await Promise.all([alice.client.close(), bob.client.close()]);
  }, 90_000);

  it('reconnect: the engine drops every socket mid-stream, the client resyncs and no order event is lost from its view', async () => {
    const { v, airdrop, party, finalize, settleUntil } = venue();
    // Alice's client reconnects only once the match has settled, so it misses every event of it.
    let letAliceBack!: () => void;
    const aliceMayReconnect = new Promise<void>((r) => (letAliceBack = r));
    const alice = await party('alice-rc', { beforeReconnect: () => aliceMayReconnect });
    const bob = await party('bob-rc');
    const inst = await alice.client.instrument(SYMBOL);
    const SOL = inst.base_mint;
    const USDC = inst.quote_mint;
    const ONE = 10n ** BigInt(inst.base_decimals);
    const price = 150n * 10n ** BigInt(inst.quote_decimals);
    const need = requiredCollateral('bid', ONE, price, inst);
    await airdrop(alice.wallet, USDC, need);
    await airdrop(bob.wallet, SOL, 2n * ONE);
    await deposit(alice.client, { mint: USDC, amount: need, wait: 'landed' });
    await deposit(bob.client, { mint: SOL, amount: 2n * ONE, wait: 'landed' }); // larger: collateral_amount and change
    await finalize();
    const bid = await placeOrder(alice.client, { symbol: SYMBOL, side: 'bid', amount: '1', price: '150' });
    const ask = await placeOrder(bob.client, { symbol: SYMBOL, side: 'ask', amount: '1', price: '150' });
    expect(ask.body.collateral_amount).toBe(2n * ONE);

    v.engine.context.streamHub.failAll('test: fan-out loss');
    // Settle while Alice is disconnected (Bob reconnects at once and hears everything).
    await settleUntil(() => kinds(bob, ask.orderId).includes('fully_filled'), 'the match', 20_000);
    expect(kinds(alice, bid.orderId)).toEqual([]);
    letAliceBack();
    await settleUntil(() => alice.events.some((e) => e.type === 'resync'), 'the resync', 20_000);
    const resync = alice.events.find((e) => e.type === 'resync');
    expect(resync).toMatchObject({ type: 'resync', reason: 'events_missed' });
    expect(kinds(alice, bid.orderId)).toEqual(['fully_filled']);
    expect(alice.events.find((e) => e.type === 'order')).toMatchObject({ source: 'resync' });
    expect(alice.wallet.orders.get(bid.orderId)?.status).toBe('fully_filled');
    // The fill's note came back from the ledger's memos during the resync.
    expect(alice.wallet.balances()[SOL]).toEqual({
      available: ONE,
      locked: 0n,
      pendingSettlement: 0n,
      pending: 0n,
    });
    expect(alice.stream.reconnects).toBe(1);

    await Promise.all([alice.stream.close(), bob.stream.close()]);
    await Promise.all([alice.client.close(), bob.client.close()]);
  }, 60_000);
});
