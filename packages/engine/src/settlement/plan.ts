/**
 * A match's settlement plan (DESIGN.md sections 3, 4 and 6): per party, the input to lock (unless
 * its note is already locked to the order by an earlier relock), the outputs its input produces
 * (trade-out, change, fee; zero-valued ones omitted) and, for an order that keeps resting, the
 * change note's relock. Pure and total: computed once at match time and journaled, it never throws
 * for a match the matcher produced (a note below what its match takes is the one exception, and
 * intake's collateral check rules it out).
 */
import { deriveNote, outputInner, OutputRole } from '@nightjar/crypto';
import { fieldToHex, parseAddress, requiredCollateral, type Instrument } from '@nightjar/protocol';
import { LOCK_TTL_CEILING_SLOTS } from '@nightjar/ledger';
import type { Match } from '../book/types.js';
import type { MatchPlan, MatchProofRecord, OutputPlan, PartyPlan, SettleableOrder } from './types.js';

/** A relocked note must outlive the order by this much, so its last match can still settle. */
export const RELOCK_MARGIN_SLOTS = 150n;
/** An existing lock is reused only if it holds at least this long: else the input is locked afresh. */
export const MIN_REUSABLE_LOCK_SLOTS = 40n;

export interface PlanContext {
  instrument: Instrument;
  feeOwnerCommitment: string;
  slot: bigint;
  lockExpirySlot: bigint;
}

export function planMatch(m: Match<SettleableOrder>, matchIdx: number, ctx: PlanContext): MatchPlan {
  const { instrument } = ctx;
  return {
    matchIdx,
    matchId: m.matchId.toString(),
    quantity: m.quantity.toString(),
    price: m.price.toString(),
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

/** The slot an order's input lock holds until if it is matched now (for `lock_expiry_slot`). */
export function inputLockUntil(order: SettleableOrder, slot: bigint, batchLockExpiry: bigint): bigint {
  return reusableLock(order, slot) ? order.lockedUntilSlot! : batchLockExpiry;
}

function reusableLock(order: SettleableOrder, slot: bigint): boolean {
  return order.lockedUntilSlot !== undefined && order.lockedUntilSlot > slot + MIN_REUSABLE_LOCK_SLOTS;
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
  const parentInner = BigInt('0x' + o.noteInnerHash);
  const owner = BigInt('0x' + o.ownerCommitment);
  const feeOwner = BigInt('0x' + ctx.feeOwnerCommitment);
  const outputs: OutputPlan[] = [];
  const out = (role: 1 | 2 | 3, mint: string, amount: bigint, ownerC: bigint): OutputPlan | undefined => {
    if (amount === 0n) return undefined; // a zero-valued output is never created
    const inner = outputInner(parentInner, role);
    const d = deriveNote({
      mint: parseAddress(mint)!,
      amount,
      ownerCommitment: ownerC,
      noteInnerHash: inner,
    });
    const p: OutputPlan = {
      role,
      // MATCH_OUTPUT_SLOTS: the bid's roles are slots 0-2, the ask's 3-5.
      slot: ((o.side === 'bid' ? 0 : 3) + role - 1) as OutputPlan['slot'],
      tree_id: o.treeId,
      mint,
      amount: amount.toString(),
      opening_hash: fieldToHex(d.openingHash),
      inner: fieldToHex(inner),
      commitment: fieldToHex(d.noteCommitment),
    };
    if (role === OutputRole.change && continues) {
      let until = o.expirySlot + RELOCK_MARGIN_SLOTS;
      const ceiling = ctx.slot + BigInt(LOCK_TTL_CEILING_SLOTS);
      if (until > ceiling) until = ceiling;
      p.relock = { until_slot: until.toString(), nullifier: fieldToHex(d.nullifier) };
    }
    outputs.push(p);
    return p;
  };
  out(OutputRole.tradeOut, f.outMint, f.receives, owner);
  out(OutputRole.change, f.inputMint, change, owner);
  out(OutputRole.fee, f.inputMint, f.fee, feeOwner);

  const reuse = reusableLock(o, ctx.slot);
  const lockUntil = reuse ? o.lockedUntilSlot! : ctx.lockExpirySlot;
  return {
    ...partyOf(o),
    ...(reuse
      ? {}
      : {
          lock: { nullifier: o.nullifier, until_slot: ctx.lockExpirySlot.toString() },
        }),
    lockUntilSlot: lockUntil.toString(),
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
 * The `settle_batch` entry of a planned, proven match: per input its shard, the root it was proven
 * against and its nullifier; per output (in slot order) its slot, shard, commitment and relock;
 * the memos and the proof. No amount, order id, owner or input commitment (DESIGN.md section 6).
 */
export function settleEntry(plan: MatchPlan, memos: [string, string], proof: MatchProofRecord) {
  const input = (p: PartyPlan, root: string) => ({
    tree_id: p.treeId,
    merkle_root: root,
    nullifier: p.inputNullifier,
  });
  const outputs = [...plan.bid.outputs, ...plan.ask.outputs]
    .sort((a, b) => a.slot - b.slot)
    .map((o) => ({
      slot: o.slot,
      tree_id: o.tree_id,
      commitment: o.commitment,
      ...(o.relock ? { relock: { nullifier: o.relock.nullifier, until_slot: o.relock.until_slot } } : {}),
    }));
  return {
    match_idx: plan.matchIdx,
    inputs: [input(plan.bid, proof.roots[0]), input(plan.ask, proof.roots[1])],
    outputs,
    memos,
    proof: proof.proof,
  };
}

/** Per mint, what the inputs give equals what the outputs create (checked before signing). */
export function conserves(plan: MatchPlan, inputMint: (side: 'bid' | 'ask') => string): boolean {
  const bal = new Map<string, bigint>();
  const add = (mint: string, v: bigint) => bal.set(mint, (bal.get(mint) ?? 0n) + v);
  for (const p of [plan.bid, plan.ask]) {
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
    ...partyOf(o),
    lockUntilSlot: (o.lockedUntilSlot ?? lockExpirySlot).toString(),
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
    bid: party(m.bid),
    ask: party(m.ask),
  };
}

/** Who a party is: its order, account, side, tree, viewing key and input. */
function partyOf(o: SettleableOrder) {
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
  };
}
