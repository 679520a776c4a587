import { describe, expect, it } from 'vitest';
import { deriveNote, FILL_MEMO_BYTES } from '@nightjar/crypto';
import { fieldToHex, parseAddress } from '@nightjar/protocol';
import { FEE_OWNER, required, SOL_USDC, testMarket } from '../../test/fixtures/orders.js';
import type { EngineOrder } from '../orders/engine-order.js';
import { matchParams, witnessMismatch } from './match-witness.js';
import { circuitTerms, plannedTerms, useTagFor } from './order-terms.js';
import type { MatchPlan } from './types.js';

const M = SOL_USDC.min_order_size;
const PRICE = 150_000n * SOL_USDC.tick_size;

/** An order's note as intake derives it (real commitment, nullifier and use tag for its terms). */
function note(
  side: 'bid' | 'ask',
  amount: bigint,
  n: bigint,
  order: { orderId: string; amount: bigint; priceLimit: bigint },
): Partial<EngineOrder> {
  const ownerCommitment = 1000n + n;
  const inner = 2000n + n;
  const mint = side === 'bid' ? SOL_USDC.quote_mint : SOL_USDC.base_mint;
  const d = deriveNote({ mint: parseAddress(mint)!, amount, ownerCommitment, noteInnerHash: inner });
  const terms = plannedTerms({ ...order, minFillSize: 0n, expirySlot: 10_000n });
  return {
    orderId: order.orderId,
    expirySlot: 10_000n,
    ownerCommitment: fieldToHex(ownerCommitment),
    noteInnerHash: fieldToHex(inner),
    noteCommitment: fieldToHex(d.noteCommitment),
    nullifier: fieldToHex(d.nullifier),
    useTag: useTagFor(
      fieldToHex(d.noteCommitment),
      fieldToHex(inner),
      circuitTerms(SOL_USDC.market_id, side, order.orderId, terms),
    ),
  };
}

const MEMOS: [string, string] = ['b1'.repeat(FILL_MEMO_BYTES), 'a5'.repeat(FILL_MEMO_BYTES)];

/** A bid for 3M partially filled by an ask of M (its change note carries the remainder's digest). */
function planned() {
  const t = testMarket();
  const bidNote = required(SOL_USDC, 'bid', 3n * M, PRICE);
  const askNote = required(SOL_USDC, 'ask', M, PRICE) + 7n;
  const askId = 'a1'.repeat(16);
  const bidId = 'b2'.repeat(16);
  t.place(
    'ask',
    PRICE,
    M,
    askNote,
    note('ask', askNote, 1n, { orderId: askId, amount: M, priceLimit: PRICE }),
  );
  t.place(
    'bid',
    PRICE,
    3n * M,
    bidNote,
    note('bid', bidNote, 2n, { orderId: bidId, amount: 3n * M, priceLimit: PRICE }),
  );
  return { plan: t.slot(100n)[0]!.plan };
}

const params = (plan: MatchPlan, feeOwner = FEE_OWNER) =>
  matchParams(plan, SOL_USDC.market_id, SOL_USDC, feeOwner, MEMOS);

const copy = (p: MatchPlan): MatchPlan => structuredClone(p);

describe('the match witness against its plan', () => {
  it('agrees for a planned partial fill: all six outputs, their nullifiers, both use tags', () => {
    const { plan } = planned();
    expect(plan.bid.continues).toBe(true);
    expect([...plan.bid.outputs, ...plan.ask.outputs].map((o) => o.slot)).toEqual([0, 1, 2, 3, 4, 5]);
    const p = params(plan);
    expect(p.settleBySlot).toBe(BigInt(plan.settleBySlot));
    expect(p.bid.order.amount).toBe(3n * M);
    expect(p.memos.outputShards).toEqual([0, 0, 0, 0, 0, 0]);
    expect(witnessMismatch(plan, p)).toBeUndefined();
  });

  it('names what differs: an amount, a change nullifier, a fee owner, a use tag, an input the witness refuses', () => {
    const { plan } = planned();
    const more = copy(plan);
    more.bid.outputs[0]!.amount = (BigInt(more.bid.outputs[0]!.amount) + 1n).toString();
    expect(witnessMismatch(more, params(more))).toBe('slot 0 amount');

    const foreign = copy(plan);
    foreign.bid.outputs[1]!.nullifier = fieldToHex(99n);
    expect(witnessMismatch(foreign, params(foreign))).toBe('slot 1 nullifier');

    // The plan's fee notes go to FEE_OWNER: a witness for another fee owner forms other fee notes.
    expect(witnessMismatch(plan, params(plan, fieldToHex(5n)))).toBe('slot 2 commitment');

    // The lock's use tag binds the order's terms: a plan with other terms cannot open it.
    const otherLimit = copy(plan);
    otherLimit.bid.terms.priceLimit = (PRICE + 1n).toString();
    expect(witnessMismatch(otherLimit, params(otherLimit))).toMatch(/^witness refused/);

    // An input worth less than its match takes cannot be witnessed at all.
    const short = copy(plan);
    short.ask.input.amount = '1';
    expect(witnessMismatch(short, params(short))).toMatch(/^witness refused/);
  });
});
