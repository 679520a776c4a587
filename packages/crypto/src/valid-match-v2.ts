/**
 * Public inputs of the settlement v2 circuits (packages/circuits/circuits/*_v2.circom and
 * valid_lock.circom): the contract between the circuits, the ledger that verifies them and the
 * engine and clients that prove them. Circom orders public signals outputs first, then public
 * inputs in declaration order; these lists are that order.
 *
 * VALID_MATCH v2 carries no nullifier and no root: each input opens the use tag its lock recorded
 * (the lock's own proof showed membership and the nullifier), and all six outputs are always
 * present, a zero-value output being a commitment to a zero-value note (never 0).
 *
 *   memo_hash = SHA-256("nightjar-match-memo-v1" ‖ shards ‖ bid memo ‖ ask memo), first byte zeroed,
 *               shards = one byte per output slot (MATCH_OUTPUT_SLOTS order): its tree_id
 *
 * VALID_SPEND v2's last public input binds the withdrawal's change the same way:
 *
 *   change_memo_hash = SHA-256("nightjar-spend-memo-v1" ‖ shard ‖ change memo), first byte zeroed,
 *                      or 0 when the withdrawal has no change (change_commitment 0)
 */
import { createHash } from 'node:crypto';
import { bytesToBigInt, mintToFields } from '@nightjar/protocol';
import { ValueRangeError } from './errors.js';
import { FILL_MEMO_BYTES } from './memo.js';
import { NOTE_MEMO_BYTES } from './note-memo.js';
import { marketToFields } from './order-digest.js';

/** VALID_INPUT v2 and VALID_LOCK: the use tag is the circuit's one output, so it comes first. */
export const VALID_INPUT_V2_PUBLIC_INPUTS = ['use_tag', 'merkle_root', 'nullifier'] as const;
export const VALID_LOCK_PUBLIC_INPUTS = VALID_INPUT_V2_PUBLIC_INPUTS;

export const VALID_SPEND_V2_PUBLIC_INPUTS = [
  'merkle_root',
  'nullifier',
  'mint_lo',
  'mint_hi',
  'amount',
  'recipient_hi',
  'recipient_lo',
  'change_commitment',
  'change_memo_hash',
] as const;

/** Circom declares the public signals in this order; the verifier takes them in this order. */
export const VALID_MATCH_V2_PUBLIC_INPUTS = [
  'bid_use_tag',
  'ask_use_tag',
  'market_lo',
  'market_hi',
  'base_mint_lo',
  'base_mint_hi',
  'quote_mint_lo',
  'quote_mint_hi',
  'price_scale',
  'fee_bps',
  'fee_owner_commitment',
  'settle_by_slot',
  'bid_trade_out',
  'bid_change',
  'bid_fee',
  'ask_trade_out',
  'ask_change',
  'ask_fee',
  'memo_hash',
] as const;

export const MATCH_MEMO_DOMAIN = 'nightjar-match-memo-v1';
export const SPEND_MEMO_DOMAIN = 'nightjar-spend-memo-v1';
/** Output slots per match; their order is MATCH_OUTPUT_SLOTS of match-slots.ts. */
export const MATCH_V2_OUTPUTS = 6;

/**
 * The memo hash of a settlement circuit: a domain-separated SHA-256 of the output shards (one byte
 * each, 0..255) and the memos, each of exactly `memoBytes`, cut to 248 bits so always below r.
 */
function shardsAndMemosHash(
  domain: string,
  outputShards: readonly number[],
  memos: readonly Uint8Array[],
  memoKind: { name: string; bytes: number },
): bigint {
  for (const memo of memos)
    if (!(memo instanceof Uint8Array) || memo.length !== memoKind.bytes)
      throw new ValueRangeError(`a ${memoKind.name} is ${memoKind.bytes} bytes`);
  const shards = Uint8Array.from(outputShards, (t) => {
    if (!Number.isInteger(t) || t < 0 || t > 0xff)
      throw new ValueRangeError('an output shard must be an integer in 0..255');
    return t;
  });
  const hash = createHash('sha256').update(domain, 'ascii').update(shards);
  for (const memo of memos) hash.update(memo);
  const digest = hash.digest();
  digest[0] = 0;
  return bytesToBigInt(digest);
}

/**
 * Binds what `settle_batch` carries for one match besides its commitments: both parties' memos
 * (fixed length, DESIGN 7) and the shard each of the six outputs is appended to, so a copy of the
 * proof cannot go out with other memos or its outputs moved to other shards. 248 bits of a
 * domain-separated SHA-256, so always below r.
 */
export function matchMemoHash(
  bidMemo: Uint8Array,
  askMemo: Uint8Array,
  outputShards: readonly number[],
): bigint {
  if (outputShards.length !== MATCH_V2_OUTPUTS)
    throw new ValueRangeError(`a match has ${MATCH_V2_OUTPUTS} output shards`);
  return shardsAndMemosHash(MATCH_MEMO_DOMAIN, outputShards, [bidMemo, askMemo], {
    name: 'fill memo',
    bytes: FILL_MEMO_BYTES,
  });
}

/**
 * VALID_SPEND v2's `change_memo_hash`: binds the shard a withdrawal's change is appended to and its
 * note memo, so whoever relays the withdrawal cannot re-sign the proof with a junk memo or another
 * shard (the change would land where the owner's wallet never finds it). 0 without change: the
 * ledger computes it from the transaction, so a proof made for a change cannot be used without it,
 * nor one without change with a change added.
 */
export function spendChangeMemoHash(change: { treeId: number; memo: Uint8Array } | undefined): bigint {
  if (change === undefined) return 0n;
  return shardsAndMemosHash(SPEND_MEMO_DOMAIN, [change.treeId], [change.memo], {
    name: 'note memo',
    bytes: NOTE_MEMO_BYTES,
  });
}

export interface ValidMatchV2Public {
  bidUseTag: bigint;
  askUseTag: bigint;
  /** 32-byte addresses. */
  marketId: Uint8Array;
  baseMint: Uint8Array;
  quoteMint: Uint8Array;
  priceScale: bigint;
  feeBps: bigint;
  feeOwnerCommitment: bigint;
  /** The last slot the settlement may land in: both orders expire after it. */
  settleBySlot: bigint;
  /** All six output commitments, in MATCH_OUTPUT_SLOTS order (none is ever 0). */
  outputs: readonly [bigint, bigint, bigint, bigint, bigint, bigint];
  memoHash: bigint;
}

/** The public signals in circuit order (`VALID_MATCH_V2_PUBLIC_INPUTS`). */
export function validMatchV2PublicSignals(p: ValidMatchV2Public): bigint[] {
  const market = marketToFields(p.marketId);
  const base = mintToFields(p.baseMint);
  const quote = mintToFields(p.quoteMint);
  return [
    p.bidUseTag,
    p.askUseTag,
    market.marketLo,
    market.marketHi,
    base.mintLo,
    base.mintHi,
    quote.mintLo,
    quote.mintHi,
    p.priceScale,
    p.feeBps,
    p.feeOwnerCommitment,
    p.settleBySlot,
    ...p.outputs,
    p.memoHash,
  ];
}
