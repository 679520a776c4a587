/**
 * A planned match as VALID_MATCH v2's parameters (the parties' openings, the orders' terms with
 * the amount left, the trade, settle_by_slot, the memos and the six output shards), and the check
 * that the circuit's own witness builder forms exactly the outputs the plan (memos, events, the
 * orders' next notes) relies on. A match whose witness disagrees with its plan is never proven: a
 * proof of other outputs would settle notes no party can find.
 */
import { validMatchV2Witness, type MatchV2Party, type ValidMatchV2Params } from '@nightjar/circuits';
import { fieldToHex, hexToBytes, parseAddress, type Instrument } from '@nightjar/protocol';
import { circuitTerms } from './order-terms.js';
import { outputShards } from './plan.js';
import type { MatchPlan, PartyPlan } from './types.js';

const field = (hex: string) => BigInt('0x' + hex);

export function matchParams(
  plan: MatchPlan,
  marketId: string,
  instrument: Instrument,
  feeOwnerCommitment: string,
  memos: [string, string],
): ValidMatchV2Params {
  const party = (p: PartyPlan): MatchV2Party => {
    const t = circuitTerms(marketId, p.side, p.orderId, p.terms);
    return {
      amount: BigInt(p.input.amount),
      ownerCommitment: field(p.input.ownerCommitment),
      noteInnerHash: field(p.input.innerHash),
      order: {
        amount: t.amount,
        priceLimit: t.priceLimit,
        minFillSize: t.minFillSize,
        expirySlot: t.expirySlot,
        orderId: t.orderId,
      },
      // The lock's use tag: the opening must reproduce it, or the ledger's check would fail.
      useTag: field(p.lock.use_tag),
    };
  };
  return {
    marketId: parseAddress(marketId)!,
    baseMint: parseAddress(instrument.base_mint)!,
    quoteMint: parseAddress(instrument.quote_mint)!,
    priceScale: BigInt(instrument.price_scale),
    feeBps: BigInt(instrument.fee_bps),
    feeOwnerCommitment: field(feeOwnerCommitment),
    settleBySlot: BigInt(plan.settleBySlot),
    quantity: BigInt(plan.quantity),
    price: BigInt(plan.price),
    bid: party(plan.bid),
    ask: party(plan.ask),
    memos: { bid: hexToBytes(memos[0]), ask: hexToBytes(memos[1]), outputShards: outputShards(plan) },
  };
}

/**
 * Why the witness of `params` disagrees with `plan`, or undefined when it agrees: all six output
 * slots with the plan's amounts, inners, commitments and nullifiers. A witness the builder refuses
 * (a use tag the opening does not reproduce, a term the trade breaks) is a disagreement.
 */
export function witnessMismatch(plan: MatchPlan, params: ValidMatchV2Params): string | undefined {
  let w: ReturnType<typeof validMatchV2Witness>;
  try {
    w = validMatchV2Witness(params);
  } catch (err) {
    return `witness refused: ${err instanceof Error ? err.message : String(err)}`;
  }
  const planned = [...plan.bid.outputs, ...plan.ask.outputs].sort((a, b) => a.slot - b.slot);
  if (planned.map((o) => o.slot).join() !== w.outputs.map((o) => o.slot).join()) return 'output slots';
  for (let i = 0; i < planned.length; i++) {
    const p = planned[i]!;
    const b = w.outputs[i]!;
    if (BigInt(p.amount) !== b.amount) return `slot ${p.slot} amount`;
    if (field(p.inner) !== b.inner) return `slot ${p.slot} inner`;
    if (field(p.commitment) !== b.commitment) return `slot ${p.slot} commitment`;
    if (field(p.nullifier) !== b.nullifier) return `slot ${p.slot} nullifier`;
  }
  if (fieldToHex(w.bid.useTag) !== plan.bid.lock.use_tag) return 'bid use tag';
  if (fieldToHex(w.ask.useTag) !== plan.ask.lock.use_tag) return 'ask use tag';
  return undefined;
}
