/**
 * A planned match as VALID_MATCH's parameters, and the check that the circuit's own witness
 * builder forms exactly the outputs the plan (memos, events, the orders' next notes) relies on.
 * A match whose witness disagrees with its plan is never proven: a proof of other outputs would
 * settle notes no party can find.
 */
import { validMatchWitness, type MatchPartyInput, type ValidMatchParams } from '@nightjar/circuits';
import type { MerkleProof } from '@nightjar/crypto';
import { fieldToHex, parseAddress, type Instrument } from '@nightjar/protocol';
import type { MatchPlan, PartyPlan } from './types.js';

export interface InputPaths {
  bid: MerkleProof;
  ask: MerkleProof;
}

const field = (hex: string) => BigInt('0x' + hex);

export function matchParams(
  plan: MatchPlan,
  instrument: Instrument,
  feeOwnerCommitment: string,
  paths: InputPaths,
): ValidMatchParams {
  const party = (p: PartyPlan, path: MerkleProof): MatchPartyInput => ({
    amount: BigInt(p.input.amount),
    ownerCommitment: field(p.input.ownerCommitment),
    noteInnerHash: field(p.input.innerHash),
    merkleRoot: path.root,
    path: { siblings: path.siblings, leafIndex: path.leafIndex },
    relock: p.continues,
  });
  return {
    baseMint: parseAddress(instrument.base_mint)!,
    quoteMint: parseAddress(instrument.quote_mint)!,
    priceScale: BigInt(instrument.price_scale),
    feeBps: BigInt(instrument.fee_bps),
    feeOwnerCommitment: field(feeOwnerCommitment),
    quantity: BigInt(plan.quantity),
    price: BigInt(plan.price),
    bid: party(plan.bid, paths.bid),
    ask: party(plan.ask, paths.ask),
  };
}

/**
 * Why the witness of `params` disagrees with `plan`, or undefined when it agrees: the same output
 * slots with the same amounts, inners and commitments, the plan's input nullifiers, and each
 * relock's nullifier that of its change note. A witness the builder refuses is a disagreement.
 */
export function witnessMismatch(plan: MatchPlan, params: ValidMatchParams): string | undefined {
  let w: ReturnType<typeof validMatchWitness>;
  try {
    w = validMatchWitness(params);
  } catch (err) {
    return `witness refused: ${err instanceof Error ? err.message : String(err)}`;
  }
  if (fieldToHex(w.publicInputs.nullifierBid) !== plan.bid.inputNullifier) return 'bid nullifier';
  if (fieldToHex(w.publicInputs.nullifierAsk) !== plan.ask.inputNullifier) return 'ask nullifier';
  const planned = [...plan.bid.outputs, ...plan.ask.outputs].sort((a, b) => a.slot - b.slot);
  const built = [...w.outputs].sort((a, b) => a.slot - b.slot);
  if (planned.map((o) => o.slot).join() !== built.map((o) => o.slot).join()) return 'output slots';
  for (let i = 0; i < planned.length; i++) {
    const p = planned[i]!;
    const b = built[i]!;
    if (BigInt(p.amount) !== b.amount) return `slot ${p.slot} amount`;
    if (field(p.inner) !== b.inner) return `slot ${p.slot} inner`;
    if (field(p.commitment) !== b.commitment) return `slot ${p.slot} commitment`;
    if (p.relock && field(p.relock.nullifier) !== b.nullifier) return `slot ${p.slot} relock nullifier`;
  }
  const relock = (side: 'bid' | 'ask') =>
    plan[side].outputs.find((o) => o.relock)?.relock?.nullifier ?? fieldToHex(0n);
  if (fieldToHex(w.publicInputs.bidRelockNullifier) !== relock('bid')) return 'bid relock';
  if (fieldToHex(w.publicInputs.askRelockNullifier) !== relock('ask')) return 'ask relock';
  return undefined;
}
