/**
 * Consistent inputs for the proving benchmarks, built the way test/match-v2-fixture.ts builds
 * them: VALID_MATCH v2 (a partial fill on both sides of one market, memos bound) and VALID_LOCK
 * (the bid's change note from that match, in a tree, locked for the bid's remainder).
 */
import { FILL_MEMO_BYTES, MerkleTree, ownerCommitment, type OrderTerms } from '@nightjar/crypto';

import type { ValidLockParams } from '../src/lock-witness.js';
import {
  validMatchV2Witness,
  type MatchOrderTerms,
  type ValidMatchV2Params,
} from '../src/match-witness-v2.js';

/** A note and an order for the VALID_INPUT v2 benchmarks (proving.ts, native-prover.bench.ts). */
export const INPUT_NOTE = {
  mint: Uint8Array.from({ length: 32 }, (_, i) => 31 - i),
  amount: 5_000_000n,
  spendingKey: 0x1111111111111111111111111111111111111111111111111111111111111111n,
  noteInnerHash: 0x2222222222222222222222222222222222222222222222222222222222222222n,
};
export const INPUT_ORDER: OrderTerms = {
  marketLo: 1n,
  marketHi: 2n,
  side: 0,
  amount: 1_000n,
  priceLimit: 150n,
  minFillSize: 1n,
  expirySlot: 1_000_000n,
  orderId: 0x99n,
};

const BASE = Uint8Array.from({ length: 32 }, (_, i) => 0x10 + i);
const QUOTE = Uint8Array.from({ length: 32 }, (_, i) => 0xa0 + i);
const MARKET_ID = Uint8Array.from({ length: 32 }, (_, i) => 0x40 + 3 * i);
const BID_KEY = 0x1234n;
const ASK_KEY = 0x5678n;
const BID_INNER = 0x9999n;
const ASK_INNER = 0x7777n;
const bidOwner = ownerCommitment(BID_KEY);
const askOwner = ownerCommitment(ASK_KEY);
const feeOwner = ownerCommitment(0xfeen);

const BID_ORDER: MatchOrderTerms = {
  amount: 5_000n,
  priceLimit: 2_600_000n,
  minFillSize: 1_000n,
  expirySlot: 9_000n,
  orderId: 0x0102030405060708090a0b0c0d0e0f10n,
};
const ASK_ORDER: MatchOrderTerms = {
  amount: 4_000n,
  priceLimit: 2_400_000n,
  minFillSize: 500n,
  expirySlot: 8_000n,
  orderId: 0xf0e0d0c0b0a090807060504030201000n,
};

/**
 * VALID_MATCH v2: q 3,000 at 2.5 against a 10,000 quote note and a 5,000 base note, each side an
 * order filled partially (both change notes non-zero).
 */
export function validMatchV2Params(): ValidMatchV2Params {
  return {
    marketId: MARKET_ID,
    baseMint: BASE,
    quoteMint: QUOTE,
    priceScale: 1_000_000n,
    feeBps: 25n,
    feeOwnerCommitment: feeOwner,
    settleBySlot: 5_000n,
    quantity: 3_000n,
    price: 2_500_000n,
    bid: { amount: 10_000n, ownerCommitment: bidOwner, noteInnerHash: BID_INNER, order: BID_ORDER },
    ask: { amount: 5_000n, ownerCommitment: askOwner, noteInnerHash: ASK_INNER, order: ASK_ORDER },
    memos: {
      bid: new Uint8Array(FILL_MEMO_BYTES).fill(0xb1),
      ask: new Uint8Array(FILL_MEMO_BYTES).fill(0xa5),
      outputShards: [0, 1, 2, 3, 0, 1],
    },
  };
}

/** VALID_LOCK: the v2 match's bid change note, appended to a tree after a few other leaves. */
export function validLockParams(): ValidLockParams {
  const match = validMatchV2Witness(validMatchV2Params());
  const change = match.outputs[1];
  if (!change) throw new Error('the v2 match has no bid change output');
  const tree = new MerkleTree();
  for (const leaf of [11n, 22n, 33n]) tree.append(leaf);
  const leafIndex = tree.append(change.commitment);
  const remainder: OrderTerms = match.bid.remainder;
  return {
    mint: QUOTE,
    amount: change.amount,
    ownerCommitment: bidOwner,
    parentInner: BID_INNER,
    remainder,
    path: { siblings: tree.proof(leafIndex).siblings, leafIndex },
    merkleRoot: tree.root,
  };
}
