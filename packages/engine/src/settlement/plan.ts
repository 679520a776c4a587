/**
 * A match's settlement plan (DESIGN.md sections 3, 4 and 6, settlement v2): per party, the input's
 * lock entry (its order's intake proof, or for a change note the engine's VALID_LOCK), the order's
 * terms with the amount left, and all three outputs its input produces (trade-out, change, fee;
 * zero-value ones too, so which outputs exist says nothing); the slot the settlement must land by.
 * No relock: a continuing order's change note is not locked on chain, only reserved by the engine.
 * Pure and total: computed once at match time and journaled, it never throws for a match the
 * matcher produced (a note below what its match takes is the one exception, and intake's
 * collateral check rules it out).
 */
import { changeOutputInner, deriveNote, orderDigest, outputInner, OutputRole } from '@nightjar/crypto';
import { fieldToHex, parseAddress, requiredCollateral, type Instrument } from '@nightjar/protocol';
import type { Match } from '../book/types.js';
import { circuitTerms, plannedTerms } from './order-terms.js';
import type { MatchPlan, MatchProofRecord, OutputPlan, PartyPlan, SettleableOrder } from './types.js';

export interface PlanContext {
  instrument: Instrument;
  feeOwnerCommitment: string;
  slot: bigint;
  /** The settlement window's end: every input lock's until_slot. */
  lockExpirySlot: bigint;
}

/**
 * The last slot a match may land in: one before its locks end, and before either order expires
 * (VALID_MATCH checks expiry_slot > settle_by_slot). The matcher keeps orders within the
 * settlement buffer of their expiry out, so the cap by expiry only bites when the settlement
 * window is longer than that buffer.
 */
export function settleBySlot(m: Match<SettleableOrder>, lockExpirySlot: bigint): bigint {
  let by = lockExpirySlot - 1n;
  for (const o of [m.bid, m.ask]) if (o.expirySlot - 1n < by) by = o.expirySlot - 1n;
  return by;
}

export function planMatch(m: Match<SettleableOrder>, matchIdx: number, ctx: PlanContext): MatchPlan {
  const { instrument } = ctx;
  return {
    matchIdx,
    matchId: m.matchId.toString(),
    quantity: m.quantity.toString(),
    price: m.price.toString(),
    settleBySlot: settleBySlot(m, ctx.lockExpirySlot).toString(),
    bid: planParty(m.bid, {
      ctx,
      inputMint: instrument.quote_mint,
      outMint: instrument.base_mint,
      gives: m.quote + m.buyerFee,
      receives: m.quantity,
      fee: m.buyerFee,
      quantity: m.quantity,
    }),
    ask: planParty(m.ask, {
      ctx,
      inputMint: instrument.base_mint,
      outMint: instrument.quote_mint,
      gives: m.quantity + m.sellerFee,
      receives: m.quote,
      fee: m.sellerFee,
      quantity: m.quantity,
    }),
  };
}

interface Flow {
  ctx: PlanContext;
  inputMint: string;
  outMint: string;
  gives: bigint;
  receives: bigint;
  fee: bigint;
  quantity: bigint;
}

function planParty(o: SettleableOrder, f: Flow): PartyPlan {
  const { ctx } = f;
  const change = o.noteAmount - f.gives;
  if (change < 0n) throw new Error('note value below what the match takes');
  const remainder = o.amount - f.quantity;
  // A limit remainder rests again only on a change note worth its collateral. The floors of DESIGN
  // 4 add up, but its minimum of 1 does not: a bid whose fill takes its whole 1-unit note leaves a
  // zero change under a remainder that needs 1. Such an order ends with its fill (remainder
  // cancelled, any change note free), so the counterparty's match settles regardless.
  const continues =
    remainder > 0n &&
    o.orderType === 'limit' &&
    change >= requiredCollateral(o.side, remainder, o.priceLimit, ctx.instrument);
  const terms = plannedTerms(o);
  const remainderDigest = orderDigest(
    circuitTerms(ctx.instrument.market_id, o.side, o.orderId, { ...terms, amount: remainder.toString() }),
  );
  const parentInner = BigInt('0x' + o.noteInnerHash);
  const owner = BigInt('0x' + o.ownerCommitment);
  const feeOwner = BigInt('0x' + ctx.feeOwnerCommitment);
  const out = (role: 1 | 2 | 3, mint: string, amount: bigint, ownerC: bigint): OutputPlan => {
    const inner =
      role === OutputRole.change
        ? changeOutputInner(parentInner, remainderDigest)
        : outputInner(parentInner, role);
    const d = deriveNote({
      mint: parseAddress(mint)!,
      amount,
      ownerCommitment: ownerC,
      noteInnerHash: inner,
    });
    return {
      role,
      // MATCH_OUTPUT_SLOTS: the bid's roles are slots 0-2, the ask's 3-5.
      slot: ((o.side === 'bid' ? 0 : 3) + role - 1) as OutputPlan['slot'],
      tree_id: o.treeId,
      mint,
      amount: amount.toString(),
      opening_hash: fieldToHex(d.openingHash),
      inner: fieldToHex(inner),
      commitment: fieldToHex(d.noteCommitment),
      nullifier: fieldToHex(d.nullifier),
    };
  };
  // Every output exists, zero-value ones too (DESIGN 6): which outputs exist says nothing.
  const outputs = [
    out(OutputRole.tradeOut, f.outMint, f.receives, owner),
    out(OutputRole.change, f.inputMint, change, owner),
    out(OutputRole.fee, f.inputMint, f.fee, feeOwner),
  ];
  return {
    ...partyOf(o, ctx.lockExpirySlot),
    outputs,
    tradeAmount: f.receives.toString(),
    changeAmount: change.toString(),
    feeAmount: f.fee.toString(),
    newAmount: remainder.toString(),
    filledAfter: (o.filledQuantity + f.quantity).toString(),
    continues,
  };
}

/**
 * The `settle_batch` entry of a planned, proven match (contract B.2): the two input nullifiers,
 * the six outputs in slot order (shard and commitment), the memos and the proof. No amount, order
 * id, owner, root or input commitment (DESIGN.md section 6).
 */
export function settleEntry(plan: MatchPlan, memos: [string, string], proof: MatchProofRecord) {
  const outputs = [...plan.bid.outputs, ...plan.ask.outputs]
    .sort((a, b) => a.slot - b.slot)
    .map((o) => ({ tree_id: o.tree_id, commitment: o.commitment }));
  return {
    match_idx: plan.matchIdx,
    inputs: [{ nullifier: plan.bid.inputNullifier }, { nullifier: plan.ask.inputNullifier }],
    outputs,
    memos,
    proof: proof.proof,
  };
}

/** The six output shards of a plan, in slot order (the memo hash binds them). */
export function outputShards(plan: MatchPlan): number[] {
  return [...plan.bid.outputs, ...plan.ask.outputs].sort((a, b) => a.slot - b.slot).map((o) => o.tree_id);
}

/** Per mint, what the inputs give equals what the outputs create (checked before signing). */
export function conserves(plan: MatchPlan, inputMint: (side: 'bid' | 'ask') => string): boolean {
  const bal = new Map<string, bigint>();
  const add = (mint: string, v: bigint) => bal.set(mint, (bal.get(mint) ?? 0n) + v);
  for (const p of [plan.bid, plan.ask]) {
    if (p.outputs.length !== 3) return false;
    for (const o of p.outputs) add(o.mint, BigInt(o.amount));
    add(inputMint(p.side), -(BigInt(p.changeAmount) + BigInt(p.feeAmount)));
  }
  // What remains is the trade: the bid's trade-out (base) balanced by the ask's input, and vice versa.
  add(inputMint('ask'), -BigInt(plan.bid.tradeAmount));
  add(inputMint('bid'), -BigInt(plan.ask.tradeAmount));
  for (const v of bal.values()) if (v !== 0n) return false;
  return true;
}

/** A plan for a match that could not be planned: enough to report and reject it. */
export function minimalPlan(m: Match<SettleableOrder>, idx: number, lockExpirySlot: bigint): MatchPlan {
  const party = (o: SettleableOrder): PartyPlan => ({
    ...partyOf(o, lockExpirySlot),
    outputs: [],
    tradeAmount: '0',
    changeAmount: '0',
    feeAmount: '0',
    newAmount: '0',
    filledAfter: o.filledQuantity.toString(),
    continues: false,
  });
  return {
    matchIdx: idx,
    matchId: m.matchId.toString(),
    quantity: m.quantity.toString(),
    price: m.price.toString(),
    settleBySlot: settleBySlot(m, lockExpirySlot).toString(),
    bid: party(m.bid),
    ask: party(m.ask),
  };
}

/** Who a party is: its order, account, side, tree, viewing key, input, terms and lock entry. */
function partyOf(o: SettleableOrder, lockExpirySlot: bigint) {
  const lockSource = o.lockSource ?? 'client';
  return {
    orderId: o.orderId,
    accountId: o.accountId,
    side: o.side,
    treeId: o.treeId,
    viewingPubkey: o.viewingPubkey,
    inputNullifier: o.nullifier,
    input: {
      commitment: o.noteCommitment,
      amount: o.noteAmount.toString(),
      ownerCommitment: o.ownerCommitment,
      innerHash: o.noteInnerHash,
    },
    terms: plannedTerms(o),
    lockSource,
    lock: {
      tree_id: o.treeId,
      merkle_root: o.merkleRoot,
      nullifier: o.nullifier,
      use_tag: o.useTag,
      until_slot: lockExpirySlot.toString(),
      proof: o.validInputProof,
    },
    lockUntilSlot: lockExpirySlot.toString(),
  };
}
