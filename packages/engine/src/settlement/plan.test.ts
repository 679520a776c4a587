import { describe, expect, it } from 'vitest';
import { required, SOL_USDC, testMarket } from '../../test/fixtures/orders.js';
import { MerkleTree } from '@nightjar/crypto';
import { validLockWitness } from '@nightjar/circuits';
import { fieldToHex, parseAddress } from '@nightjar/protocol';
import { conserves, settleBySlot, settleEntry } from './plan.js';
import { circuitTerms, useTagFor } from './order-terms.js';

const M = SOL_USDC.min_order_size;
const TICK = SOL_USDC.tick_size;
const mintOf = (side: 'bid' | 'ask') => (side === 'bid' ? SOL_USDC.quote_mint : SOL_USDC.base_mint);
const strip = ({ server_time_ms: _, ...e }: { server_time_ms: number }) => e;

describe('settlement planning: a remainder its change note cannot back', () => {
  it('a bid whose fill takes all of its 1-unit note ends with its fill; the honest ask fills in full', () => {
    const t = testMarket();
    // Bid 1.5 × min at one tick: nominal floor(1.5) = 1, so a 1-unit note backs it. Filling min
    // takes quote 1, leaving a zero change note, while the remainder would need max(0, 1) = 1.
    expect(required(SOL_USDC, 'bid', (3n * M) / 2n, TICK)).toBe(1n);
    const ask = t.place('ask', 0n, M, required(SOL_USDC, 'ask', M, 0n));
    const bid = t.place('bid', TICK, (3n * M) / 2n, 1n);

    const jobs = t.slot(100n);
    expect(jobs).toHaveLength(1);
    const { plan } = jobs[0]!;
    expect(plan.bid).toMatchObject({
      continues: false,
      tradeAmount: M.toString(),
      changeAmount: '0',
      newAmount: (M / 2n).toString(),
    });
    // All three outputs exist, the zero-value change and fee too (DESIGN 6).
    expect(plan.bid.outputs.map((o) => [o.role, o.amount])).toEqual([
      [1, M.toString()],
      [2, '0'],
      [3, '0'],
    ]);
    expect(plan.ask).toMatchObject({ continues: false, newAmount: '0', tradeAmount: '1' });
    expect(conserves(plan, mintOf)).toBe(true);

    t.confirm(jobs);
    const of = (id: string) => t.events.filter((e) => e.order_id === id).map((e) => e.kind);
    expect(of(ask.orderId)).toEqual(['pending_settlement', 'fully_filled']);
    expect(of(bid.orderId)).toEqual(['pending_settlement', 'cancelled']);
    expect(t.events.at(-2)).toMatchObject({ order_id: bid.orderId, kind: 'cancelled', filled_quantity: M });
    expect(t.registry.get(bid.orderId)).toMatchObject({ lifecycle: 'cancelled', filledQuantity: M });
    expect(t.registry.get(ask.orderId)).toMatchObject({ lifecycle: 'empty', filledQuantity: M });
    expect(t.registry.liveCount).toBe(0);
    expect(t.market.book.size).toBe(0);
  });
});

describe('order events of a confirmed match: one builder for the live path and after a restart', () => {
  it('a partially filled ioc ends cancelled with its filled quantity, live and reconciled alike', () => {
    const t = testMarket();
    const price = 150_000_000n;
    const ask = t.place('ask', price, M, required(SOL_USDC, 'ask', M, price));
    const ioc = t.place('bid', price, 3n * M, required(SOL_USDC, 'bid', 3n * M, price), {
      orderType: 'ioc',
    });
    const jobs = t.slot(100n);
    const reconciled = t.confirmAfterRestart(jobs);
    t.confirm(jobs);
    const live = t.events.filter((e) => e.kind !== 'pending_settlement');
    expect(live.find((e) => e.order_id === ioc.orderId)).toMatchObject({
      kind: 'cancelled',
      filled_quantity: M,
      match_id: '1',
    });
    expect(live.find((e) => e.order_id === ask.orderId)).toMatchObject({
      kind: 'fully_filled',
      filled_quantity: M,
    });
    expect(t.registry.get(ioc.orderId)).toMatchObject({ lifecycle: 'cancelled', filledQuantity: M });
    expect(reconciled.map(strip)).toEqual(live.map(strip));
  });

  it('a partial fill of a limit order: partially_filled with the same fields on both paths', () => {
    const t = testMarket();
    const price = 150_000_000n;
    t.place('ask', price, M, required(SOL_USDC, 'ask', M, price));
    const bid = t.place('bid', price, 3n * M, required(SOL_USDC, 'bid', 3n * M, price));
    const jobs = t.slot(100n);
    const reconciled = t.confirmAfterRestart(jobs);
    t.confirm(jobs);
    const live = t.events.filter((e) => e.kind !== 'pending_settlement');
    expect(live.find((e) => e.order_id === bid.orderId)).toMatchObject({
      kind: 'partially_filled',
      filled_quantity: M,
      new_amount: 2n * M,
      new_note_amount: bid.noteAmount,
    });
    expect(reconciled.map(strip)).toEqual(live.map(strip));
  });
});

describe('settlement planning v2: six outputs, the change note for VALID_LOCK, settle_by_slot', () => {
  const price = 150_000_000n;

  it("a continuing order's change note is what VALID_LOCK locks for its remainder's terms", () => {
    const t = testMarket();
    t.place('ask', price, M, required(SOL_USDC, 'ask', M, price));
    const bid = t.place('bid', price, 3n * M, required(SOL_USDC, 'bid', 3n * M, price) + 5n);
    const [job] = t.slot(100n);
    const p = job!.plan.bid;
    expect(p.continues).toBe(true);
    const change = p.outputs.find((o) => o.role === 2)!;
    const tree = new MerkleTree();
    tree.append(BigInt('0x' + change.commitment));
    const remainder = circuitTerms(SOL_USDC.market_id, 'bid', bid.orderId, {
      ...p.terms,
      amount: p.newAmount,
    });
    const w = validLockWitness({
      mint: parseAddress(SOL_USDC.quote_mint)!,
      amount: BigInt(change.amount),
      path: tree.proof(0),
      ownerCommitment: BigInt('0x' + p.input.ownerCommitment),
      parentInner: BigInt('0x' + p.input.innerHash),
      remainder,
    });
    expect(fieldToHex(w.derived.nullifier)).toBe(change.nullifier);
    expect(fieldToHex(w.derived.useTag)).toBe(useTagFor(change.commitment, change.inner, remainder));
    // The first lock is the client's: the order's own use tag, root and proof.
    expect(p.lock).toMatchObject({
      nullifier: bid.nullifier,
      use_tag: bid.useTag,
      proof: bid.validInputProof,
    });
    expect(p.lockSource).toBe('client');
  });

  it('settle_batch names two nullifiers and six outputs in slot order, nothing else of the notes', () => {
    const t = testMarket();
    t.place('ask', price, M, required(SOL_USDC, 'ask', M, price));
    t.place('bid', price, 3n * M, required(SOL_USDC, 'bid', 3n * M, price));
    const [job] = t.slot(100n);
    const e = settleEntry(job!.plan, ['aa', 'bb'], { proof: '11' });
    expect(e.inputs).toEqual([
      { nullifier: job!.plan.bid.inputNullifier },
      { nullifier: job!.plan.ask.inputNullifier },
    ]);
    expect(e.outputs).toHaveLength(6);
    expect(e.outputs.map((o) => o.commitment)).toEqual(
      [...job!.plan.bid.outputs, ...job!.plan.ask.outputs].map((o) => o.commitment),
    );
    expect(Object.keys(e.outputs[0]!).sort()).toEqual(['commitment', 'tree_id']);
  });

  it('settle_by_slot: one before the locks end, and before either order expires', () => {
    const t = testMarket();
    const ask = t.order('ask', price, M, required(SOL_USDC, 'ask', M, price), { expirySlot: 1_000n });
    const bid = t.order('bid', price, M, required(SOL_USDC, 'bid', M, price), { expirySlot: 5_000n });
    const m = { bid, ask, matchId: 1n, quantity: M, price, quote: 0n, buyerFee: 0n, sellerFee: 0n };
    expect(settleBySlot(m, 400n)).toBe(399n);
    expect(settleBySlot(m, 2_000n)).toBe(999n);
  });
});
