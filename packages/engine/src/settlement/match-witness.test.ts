import { describe, expect, it } from 'vitest';
import { deriveNote, TreeShard } from '@nightjar/crypto';
import { fieldToHex, parseAddress } from '@nightjar/protocol';
import { FEE_OWNER, required, SOL_USDC, testMarket } from '../../test/fixtures/orders.js';
import type { EngineOrder } from '../orders/engine-order.js';
import { matchParams, witnessMismatch } from './match-witness.js';
import type { MatchPlan } from './types.js';

const M = SOL_USDC.min_order_size;
const PRICE = 150_000n * SOL_USDC.tick_size;

/** An order's note as intake derives it (real commitment and nullifier). */
function note(side: 'bid' | 'ask', amount: bigint, n: bigint): Partial<EngineOrder> {
  const ownerCommitment = 1000n + n;
  const inner = 2000n + n;
  const mint = side === 'bid' ? SOL_USDC.quote_mint : SOL_USDC.base_mint;
  const d = deriveNote({ mint: parseAddress(mint)!, amount, ownerCommitment, noteInnerHash: inner });
  return {
    ownerCommitment: fieldToHex(ownerCommitment),
    noteInnerHash: fieldToHex(inner),
    noteCommitment: fieldToHex(d.noteCommitment),
    nullifier: fieldToHex(d.nullifier),
  };
}

/** A bid for 3M partially filled by an ask of M (so its change note is relocked), and its input paths. */
function planned() {
  const t = testMarket();
  const bidNote = required(SOL_USDC, 'bid', 3n * M, PRICE);
  const askNote = required(SOL_USDC, 'ask', M, PRICE) + 7n;
  t.place('ask', PRICE, M, askNote, note('ask', askNote, 1n));
  t.place('bid', PRICE, 3n * M, bidNote, note('bid', bidNote, 2n));
  const plan = t.slot(100n)[0]!.plan;
  const tree = new TreeShard(0);
  tree.appendBatch([BigInt('0x' + plan.ask.input.commitment), BigInt('0x' + plan.bid.input.commitment)]);
  return { plan, paths: { bid: tree.proof(1), ask: tree.proof(0) } };
}

const copy = (p: MatchPlan): MatchPlan => structuredClone(p);

describe('the match witness against its plan', () => {
  it('agrees for a planned partial fill: every output, the relock, both nullifiers', () => {
    const { plan, paths } = planned();
    expect(plan.bid.continues).toBe(true);
    expect([...plan.bid.outputs, ...plan.ask.outputs].map((o) => o.slot)).toEqual([0, 1, 2, 3, 4, 5]);
    const params = matchParams(plan, SOL_USDC, FEE_OWNER, paths);
    expect(params.bid).toMatchObject({ relock: true, merkleRoot: paths.bid.root });
    expect(witnessMismatch(plan, params)).toBeUndefined();
  });

  it('names what differs: an amount, a relock nullifier, a fee owner, an input the witness refuses', () => {
    const { plan, paths } = planned();
    const more = copy(plan);
    more.bid.outputs[0]!.amount = (BigInt(more.bid.outputs[0]!.amount) + 1n).toString();
    expect(witnessMismatch(more, matchParams(more, SOL_USDC, FEE_OWNER, paths))).toBe('slot 0 amount');

    const foreign = copy(plan);
    foreign.bid.outputs[1]!.relock!.nullifier = fieldToHex(99n);
    expect(witnessMismatch(foreign, matchParams(foreign, SOL_USDC, FEE_OWNER, paths))).toBe(
      'slot 1 relock nullifier',
    );

    // The plan's fee notes go to FEE_OWNER: a witness for another fee owner forms other fee notes.
    expect(witnessMismatch(plan, matchParams(plan, SOL_USDC, fieldToHex(5n), paths))).toBe(
      'slot 2 commitment',
    );

    // An input worth less than its match takes cannot be witnessed at all.
    const short = copy(plan);
    short.ask.input.amount = '1';
    expect(witnessMismatch(short, matchParams(short, SOL_USDC, FEE_OWNER, paths))).toMatch(
      /^witness refused/,
    );
  });
});
