/**
 * VALID_LOCK through its compiled witness calculator and r1cs: the engine's lock proof for a
 * partially filled order's change note. The change a VALID_MATCH v2 witness creates, appended to
 * a tree, locks with VALID_LOCK, and its use tag opens in the remainder's next match; no other
 * note locks (a trade-out, a fee note, a deposit), nor a change note under terms other than its
 * remainder's, nor a remainder with nothing left.
 */
import {
  MerkleTree,
  VALID_LOCK_PUBLIC_INPUTS,
  changeOutputInner,
  depositInner,
  deriveNote,
  noteUseTag,
  orderDigest,
  ownerCommitment,
  type OrderTerms,
} from '@nightjar/crypto';
import { describe, expect, it } from 'vitest';

import { validLockWitness, type ValidLockParams } from '../src/lock-witness.js';
import { validMatchV2Witness, type ValidMatchV2Witness } from '../src/match-witness-v2.js';
import { SettlementWitnessError, noteInTree, termSignals } from '../src/witness-v2.js';
import { assertAt, getWire, setWire } from './helpers.js';
import {
  ASK,
  ASK_KEY,
  BASE,
  BASE_MINT,
  BID,
  BID_KEY,
  FEE_OWNER,
  QUOTE,
  QUOTE_MINT,
} from './match-fixture.js';
import { BID_ORDER, PARTIAL, matchV2Params, type MatchV2Setup } from './match-v2-fixture.js';
import { COMPILE_TIMEOUT_MS, circuitV2Suite, r1csSatisfiedV2, witnessV2 } from './v2-helpers.js';

const LIB = 'settlement_v2.circom';
const LINE = {
  root: assertAt('NoteInTree', LIB, 'tree.root === merkle_root'),
  nonZero: assertAt('NonZero', LIB, 'in * inv === 1'),
};

/** A match's six outputs appended to a tree after a deposit, as `settle_batch` appends them. */
function settle(setup: MatchV2Setup): { match: ValidMatchV2Witness; tree: MerkleTree; deposit: bigint } {
  const match = validMatchV2Witness(matchV2Params(setup));
  const tree = new MerkleTree();
  const deposit = deriveNote({
    mint: QUOTE_MINT,
    amount: 777n,
    ownerCommitment: ownerCommitment(BID_KEY),
    noteInnerHash: depositInner(5n, 6n),
  }).noteCommitment;
  tree.append(deposit);
  for (const o of match.outputs) tree.append(o.commitment);
  return { match, tree, deposit };
}

const { match, tree } = settle(PARTIAL);
const leaf = (slot: number) => ({ siblings: tree.proof(slot + 1).siblings, leafIndex: slot + 1 });

/** VALID_LOCK of the bid's change note (slot 1) for its remainder. */
const bidLock = (remainder: OrderTerms = match.bid.remainder): ValidLockParams => ({
  mint: QUOTE_MINT,
  amount: match.outputs[1]!.amount,
  ownerCommitment: ownerCommitment(BID_KEY),
  parentInner: BID.inner,
  path: leaf(1),
  merkleRoot: tree.root,
  remainder,
});
const askLock: ValidLockParams = {
  mint: BASE_MINT,
  amount: match.outputs[4]!.amount,
  ownerCommitment: ownerCommitment(ASK_KEY),
  parentInner: ASK.inner,
  path: leaf(4),
  merkleRoot: tree.root,
  remainder: match.ask.remainder,
};

const run = (input: Record<string, unknown>) => witnessV2('valid_lock', input);

/** A lock input for any leaf of `t`, written without the builder's checks (for forgeries). */
function rawLockInput(
  t: MerkleTree,
  index: number,
  note: { mint: { mintLo: bigint; mintHi: bigint }; amount: bigint; owner: bigint; parentInner: bigint },
  remainder: OrderTerms,
): Record<string, unknown> {
  const inner = changeOutputInner(note.parentInner, orderDigest(remainder));
  const opened = noteInTree({
    mint: { lo: note.mint.mintLo, hi: note.mint.mintHi },
    amount: note.amount,
    owner: note.owner,
    inner,
    path: { siblings: t.proof(index).siblings, leafIndex: index },
  });
  return {
    merkle_root: t.root.toString(),
    nullifier: opened.nullifier.toString(),
    note_commitment: t.proof(index).leaf.toString(),
    mint_lo: note.mint.mintLo.toString(),
    mint_hi: note.mint.mintHi.toString(),
    amount: note.amount.toString(),
    owner_commitment: note.owner.toString(),
    parent_inner: note.parentInner.toString(),
    ...opened.signals,
    ...termSignals(remainder),
  };
}

describe('VALID_LOCK circuit', () => {
  circuitV2Suite('valid_lock', 7_636);

  it.each([
    ['the bid’s change note', bidLock()],
    ['the ask’s change note', askLock],
  ])('honest: %s locks for its remainder, [use_tag, root, nullifier]', async (_label, params) => {
    const w = validLockWitness(params);
    const wtns = await run(w.input);
    expect(await r1csSatisfiedV2('valid_lock', wtns)).toBe(true);
    expect(VALID_LOCK_PUBLIC_INPUTS.map((_, i) => getWire(wtns, i + 1))).toEqual(w.publicInputs);
    const slot = params === askLock ? 4 : 1;
    const change = match.outputs[slot]!;
    expect(w.publicInputs).toEqual([
      noteUseTag(change.commitment, change.inner, orderDigest(params.remainder)),
      tree.root,
      change.nullifier,
    ]);
  });

  it(
    'the locked use tag opens in the remainder’s next match, with no new client proof',
    async () => {
      const lock = validLockWitness(bidLock());
      const change = match.outputs[1]!;
      const next = validMatchV2Witness({
        ...matchV2Params(PARTIAL),
        // 1,000 more at 2.4: quote 2,400 + fee 6 from the change note of 2,482.
        quantity: 1_000n,
        price: 2_400_000n,
        bid: {
          amount: change.amount,
          ownerCommitment: ownerCommitment(BID_KEY),
          noteInnerHash: change.inner,
          order: { ...BID_ORDER, amount: match.bid.remainder.amount },
          useTag: lock.derived.useTag,
        },
      });
      expect(next.bid.useTag).toBe(lock.derived.useTag);
      const wtns = await witnessV2('valid_match_v2', next.input);
      expect(await r1csSatisfiedV2('valid_match_v2', wtns)).toBe(true);
    },
    COMPILE_TIMEOUT_MS,
  );

  it('rejects a note that is not a change note: a trade-out, a fee note, a deposit', async () => {
    const bidOwner = ownerCommitment(BID_KEY);
    const notes = [
      { index: 1, mint: BASE, amount: match.outputs[0]!.amount, owner: bidOwner },
      { index: 3, mint: QUOTE, amount: match.outputs[2]!.amount, owner: FEE_OWNER },
      { index: 0, mint: QUOTE, amount: 777n, owner: bidOwner },
    ];
    for (const n of notes) {
      const input = rawLockInput(tree, n.index, { ...n, parentInner: BID.inner }, match.bid.remainder);
      await expect(run(input), `leaf ${n.index}`).rejects.toThrow(LINE.root);
    }
  });

  it('rejects a change note locked under terms other than its remainder’s', async () => {
    const bid = match.bid.remainder;
    const others: OrderTerms[] = [
      { ...bid, amount: BID_ORDER.amount }, // the whole order again
      { ...bid, priceLimit: bid.priceLimit + 1n },
      { ...bid, minFillSize: 0n },
      { ...bid, expirySlot: bid.expirySlot + 1n },
      { ...bid, side: 1 },
    ];
    const note = {
      mint: QUOTE,
      amount: match.outputs[1]!.amount,
      owner: ownerCommitment(BID_KEY),
      parentInner: BID.inner,
    };
    for (const remainder of others)
      await expect(run(rawLockInput(tree, 2, note, remainder))).rejects.toThrow(LINE.root);
    // The builder checks the same thing against the root it is given.
    expect(() => validLockWitness(bidLock(others[0]))).toThrow(
      expect.objectContaining({ code: 'root_mismatch' }),
    );
  });

  it('rejects a fully filled order’s change: nothing left to lock it for', async () => {
    // q = the whole order, the note worth more than it pays: change > 0, remainder amount 0.
    const full = settle({ ...PARTIAL, bid: { ...PARTIAL.bid, order: { ...BID_ORDER, amount: 3_000n } } });
    const remainder = full.match.bid.remainder;
    expect(remainder.amount).toBe(0n);
    const note = {
      mint: QUOTE,
      amount: full.match.outputs[1]!.amount,
      owner: ownerCommitment(BID_KEY),
      parentInner: BID.inner,
    };
    await expect(run(rawLockInput(full.tree, 2, note, remainder))).rejects.toThrow(LINE.nonZero);
    const refused = () =>
      validLockWitness({
        ...bidLock(remainder),
        amount: note.amount,
        path: { siblings: full.tree.proof(2).siblings, leafIndex: 2 },
      });
    expect(refused).toThrow(SettlementWitnessError);
    expect(refused).toThrow(expect.objectContaining({ code: 'remainder_empty' }));
  });

  it('a witness claiming another use tag fails the r1cs', async () => {
    const wtns = await run(validLockWitness(bidLock()).input);
    expect(await r1csSatisfiedV2('valid_lock', setWire(wtns, 1, getWire(wtns, 1) + 1n))).toBe(false);
  });
});
