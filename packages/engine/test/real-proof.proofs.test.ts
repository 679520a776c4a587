/**
 * Intake with real VALID_INPUT v2 proofs through the worker-pool batcher, over HTTPS: a proof
 * backs exactly the order it was made for (its use tag binds the order digest), and the recent-root
 * window (1010) is every root of the shard's last RECENT_ROOT_SLOTS slots, by age, not by count.
 */
import { loadVerificationKey, NoteProver } from '@nightjar/circuits';
import { COMMITMENT_LAG } from '@nightjar/ledger';
import { bytesToHex, fieldToHex, type PlaceOrderBody } from '@nightjar/protocol';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECENT_ROOT_SLOTS } from '../src/recent-roots.js';
import { startTestVenue, Trader, USDC, type Note, type TestVenue } from '@nightjar/testkit';
import { provedOrder } from './real-proofs.js';

const ONE_SOL = 1_000_000_000n;
const PRICE = 100_000_000n;

describe('intake with real VALID_INPUT v2 proofs through the worker-pool batcher', () => {
  let v: TestVenue;
  let prover: NoteProver;
  let token: string;
  beforeAll(async () => {
    prover = new NoteProver({ workers: 2 });
    await prover.start();
    v = await startTestVenue({
      verifyInputProof: undefined,
      validInputKey: await loadVerificationKey('valid_input_v2'),
      verifierWorkers: 1,
    });
    ({ token } = await v.newAccount());
  }, 60_000);
  afterAll(async () => {
    await prover.close();
    await v.close();
  });

  const send = (body: object) => v.client.send('/orders', { token, body });
  /** A USDC note that covers a bid of up to 4 SOL at up to twice PRICE, finalized in the mirror. */
  const bigNote = (trader: Trader) => trader.deposit(USDC, Trader.required('bid', 4n * ONE_SOL, 2n * PRICE));

  it('accepts a genuine proof and refuses a forged one with 1011; the spec order still decides the code', async () => {
    const trader = v.trader();
    const note = await bigNote(trader);
    const good = await provedOrder(v, trader, prover, note, { price_limit: PRICE, amount: ONE_SOL });
    const forged = Buffer.from(good.valid_input_proof, 'hex');
    forged[100]! ^= 1;
    const fields = { valid_input_proof: bytesToHex(forged), price_limit: PRICE };
    expect((await send(trader.order(note, fields))).body.code).toBe(1011);
    const placed = await send(good);
    expect(placed.status, placed.text).toBe(202);

    const badSig = '11'.repeat(64);
    expect((await send(trader.order(note, { ...fields, trading_key_signature: badSig }))).body.code).toBe(
      1102,
    );
    // A wrong opening (1006) comes before a tick error (1009) and a bad signature.
    const wrongOpening = { ...fields, note_inner_hash: '00'.repeat(31) + '07', price_limit: PRICE + 1n };
    expect(
      (await send(trader.order(note, { ...wrongOpening, trading_key_signature: badSig }))).body.code,
    ).toBe(1006);
    // A bad signature (1102) comes before an expiry inside the settlement buffer (1012).
    const soon = BigInt(v.engine.context.chain.slot + 2);
    expect(
      (await send(trader.order(note, { ...fields, expiry_slot: soon, trading_key_signature: badSig }))).body
        .code,
    ).toBe(1102);
    // The proof (1011) comes before the session (1205): a forged proof for another boot is 1011.
    expect((await send(trader.order(note, { ...fields, session_id: 'ab'.repeat(32) }))).body.code).toBe(1011);

    // Cancel signatures are verified in the workers too.
    const id = placed.body.order_id as string;
    const forgedCancel = { ...trader.cancelBody(id), trading_key_signature: badSig };
    expect(
      (await v.client.send(`/orders/${id}`, { method: 'DELETE', token, body: forgedCancel })).body.code,
    ).toBe(1102);
    const cancelled = await v.client.send(`/orders/${id}`, {
      method: 'DELETE',
      token,
      body: trader.cancelBody(id),
    });
    expect(cancelled.body).toEqual({ order_id: id, status: 'cancelled' });
  }, 120_000);

  it('a proof made for order A, resubmitted (validly signed) with any other term of order B, is 1011', async () => {
    const trader = v.trader();
    const note = await bigNote(trader);
    const a = await provedOrder(v, trader, prover, note, {
      price_limit: PRICE,
      amount: ONE_SOL,
      min_fill_size: 0n,
    });
    // Each B: A's proof, root and note, one term changed, signed again by the same trading key.
    const others: Record<string, Partial<PlaceOrderBody>> = {
      'other price': { price_limit: 2n * PRICE },
      'other amount': { amount: 2n * ONE_SOL },
      'other order_id': { order_id: bytesToHex(randomBytes(16)) },
      'other expiry': { expiry_slot: a.expiry_slot + 1n },
      'other min fill': { min_fill_size: ONE_SOL / 2n },
    };
    for (const [what, terms] of Object.entries(others)) {
      const b = trader.order(note, { ...unsigned(a), ...terms });
      const r = await send(b);
      expect([what, r.status, r.body.code]).toEqual([what, 400, 1011]);
    }
    // The other side: its collateral is the other mint, so the opening (1006) refuses it first.
    const otherSide = trader.order(note, { ...unsigned(a), side: 'ask' });
    expect((await send(otherSide)).body.code).toBe(1006);
    // A itself, with its own proof, is accepted.
    expect((await send(a)).status).toBe(202);
  }, 120_000);

  it('a modify (PUT) carries the replacement’s own proof: the old order’s proof on new terms is 1011', async () => {
    const trader = v.trader();
    const note = await bigNote(trader);
    const first = await provedOrder(v, trader, prover, note, { price_limit: PRICE, amount: ONE_SOL });
    expect((await send(first)).status).toBe(202);
    const put = (replacement: PlaceOrderBody) =>
      v.client.send(`/orders/${first.order_id}`, {
        method: 'PUT',
        token,
        body: trader.modifyBody(first.order_id, replacement),
      });
    // Same order id, new price, the old proof: refused.
    const reusing = trader.order(note, {
      order_id: first.order_id,
      price_limit: 2n * PRICE,
      amount: ONE_SOL,
      valid_input_proof: first.valid_input_proof,
    });
    expect((await put(reusing)).body.code).toBe(1011);
    // The same replacement with a proof of its own terms: accepted.
    const own = await provedOrder(v, trader, prover, note, {
      order_id: first.order_id,
      price_limit: 2n * PRICE,
      amount: ONE_SOL,
    });
    const r = await put(own);
    expect([r.status, r.body.replaced_order_id], r.text).toEqual([202, first.order_id]);
  }, 120_000);

  it('a root 100 appends old but inside the window is accepted; past RECENT_ROOT_SLOTS slots it is 1010', async () => {
    const trader = v.trader();
    const notes: Note[] = [await bigNote(trader), await bigNote(trader)];
    // Both orders proved against the shard's root now; then the shard moves on.
    const [fresh, stale] = (await Promise.all(
      notes.map((n) => provedOrder(v, trader, prover, n, { price_limit: PRICE, amount: ONE_SOL })),
    )) as [PlaceOrderBody, PlaceOrderBody];
    const oldRoot = fresh.merkle_root;
    const trees = v.engine.context.trees;
    // 100 appends, each its own instruction (its own root), all in one slot.
    const filler = v.trader();
    for (let i = 0; i < 100; i++) await filler.depositNow(USDC, 1_000_000n);
    const replacedAt = v.engine.context.chain.slot;
    await v.advance(COMMITMENT_LAG.finalized + 1);
    await trees.checkAgainstChain();
    expect(fieldToHex(trees.shard(0)!.root)).not.toBe(oldRoot);
    expect(trees.recentRootCount(0)).toBeGreaterThan(64); // more than the old 64-root window holds
    const r = await send(fresh);
    expect(r.status, r.text).toBe(202);

    // Up to the window's last slot the old root still counts; one slot later it does not.
    const now = () => v.engine.context.chain.slot;
    await v.advance(replacedAt + RECENT_ROOT_SLOTS - 1 - now());
    await v.engine.context.chain.poll();
    expect(trees.isRecentRoot(0, oldRoot)).toBe(true);
    await v.advance(1);
    await v.engine.context.chain.poll();
    expect(now()).toBe(replacedAt + RECENT_ROOT_SLOTS);
    const late = await send(stale);
    expect([late.status, late.body.code]).toEqual([400, 1010]);
  }, 180_000);
});

/** A body's fields but its signature and nonce (so `Trader.order` takes a new nonce and signs again). */
function unsigned(body: PlaceOrderBody): Partial<PlaceOrderBody> {
  const { trading_key_signature: _sig, arrival_nonce: _nonce, ...rest } = body;
  return rest;
}
