/**
 * The settlement v2 circuits proved for real with their committed dev keys: the owner's VALID_INPUT
 * v2 for one order, the match (VALID_MATCH v2, no paths), the engine's VALID_LOCK for the bid's
 * change note under a root that includes it, and VALID_SPEND v2. Each proof verifies against its
 * committed verification key, and fails once any public signal is changed.
 */
import {
  MerkleTree,
  NOTE_MEMO_BYTES,
  bytesToSnarkjsProof,
  deriveNote,
  ownerCommitment,
  spendChangeMemoHash,
} from '@nightjar/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadVerificationKey, type CircuitName } from '../src/artifacts.js';
import { NoteProver } from '../src/prover.js';
import { snarkjs, terminateCurve } from './helpers.js';
import { ASK, ASK_KEY, BASE_MINT, BID, BID_KEY, QUOTE_MINT } from './match-fixture.js';
import { PARTIAL, matchV2Params, terms } from './match-v2-fixture.js';

const PROOF_TIMEOUT_MS = 240_000;

async function verifies(circuit: CircuitName, proof: Uint8Array, signals: bigint[]): Promise<boolean> {
  return snarkjs.groth16.verify(
    await loadVerificationKey(circuit),
    signals.map((v) => v.toString()),
    bytesToSnarkjsProof(proof),
  );
}

/** The proof verifies with its signals and with none of them changed by one. */
const CHANGE_MEMO = Uint8Array.from({ length: NOTE_MEMO_BYTES }, (_, i) => (i * 13) & 0xff);

async function expectBound(circuit: CircuitName, proof: Uint8Array, signals: bigint[]): Promise<void> {
  expect(await verifies(circuit, proof, signals)).toBe(true);
  for (let i = 0; i < signals.length; i++) {
    const forged = signals.map((v, j) => (j === i ? v + 1n : v));
    expect(await verifies(circuit, proof, forged), `${circuit} signal ${i}`).toBe(false);
  }
}

describe('NoteProver: settlement v2 proofs with the committed dev keys', () => {
  const prover = new NoteProver();
  const tree = new MerkleTree();
  const bidNote = deriveNote({
    mint: QUOTE_MINT,
    amount: PARTIAL.bid.amount,
    ownerCommitment: ownerCommitment(BID_KEY),
    noteInnerHash: BID.inner,
  });
  tree.append(7n);
  const bidLeaf = tree.append(bidNote.noteCommitment);

  beforeAll(() => prover.start(), PROOF_TIMEOUT_MS);
  afterAll(async () => {
    await prover.close();
    await terminateCurve();
  });

  it(
    'VALID_INPUT v2 binds the note to one order; VALID_MATCH v2 settles it; VALID_LOCK locks its change',
    async () => {
      const input = await prover.proveValidInputV2({
        mint: QUOTE_MINT,
        amount: PARTIAL.bid.amount,
        spendingKey: BID_KEY,
        noteInnerHash: BID.inner,
        path: { siblings: tree.proof(bidLeaf).siblings, leafIndex: bidLeaf },
        merkleRoot: tree.root,
        order: terms(0, PARTIAL.bid.order),
      });
      expect(input.publicInputs).toEqual([input.derived.useTag, tree.root, bidNote.nullifier]);
      await expectBound('valid_input_v2', input.proof, input.publicInputs);

      const match = await prover.proveValidMatchV2({
        ...matchV2Params(PARTIAL),
        bid: { ...matchV2Params(PARTIAL).bid, useTag: input.derived.useTag },
      });
      expect(match.publicSignals[0]).toBe(input.derived.useTag);
      expect(match.outputs).toHaveLength(6);
      await expectBound('valid_match_v2', match.proof, match.publicSignals);

      // The bid's change note lands in the tree; the engine locks it for the remainder.
      const change = match.outputs[1]!;
      for (const out of match.outputs) tree.append(out.commitment);
      const changeLeaf = bidLeaf + 2;
      const lock = await prover.proveValidLock({
        mint: QUOTE_MINT,
        amount: change.amount,
        ownerCommitment: ownerCommitment(BID_KEY),
        parentInner: BID.inner,
        remainder: match.bid.remainder,
        path: { siblings: tree.proof(changeLeaf).siblings, leafIndex: changeLeaf },
        merkleRoot: tree.root,
      });
      expect(lock.publicInputs).toEqual([lock.derived.useTag, tree.root, change.nullifier]);
      expect(lock.derived.noteCommitment).toBe(change.commitment);
      await expectBound('valid_lock', lock.proof, lock.publicInputs);
      // A lock proof is not an input proof: the keys differ.
      expect(await verifies('valid_input_v2', lock.proof, lock.publicInputs)).toBe(false);
    },
    PROOF_TIMEOUT_MS,
  );

  it(
    'VALID_SPEND v2 pays part of a note and keeps the rest as change',
    async () => {
      const askNote = deriveNote({
        mint: BASE_MINT,
        amount: 5_000n,
        ownerCommitment: ownerCommitment(ASK_KEY),
        noteInnerHash: ASK.inner,
      });
      const leaf = tree.append(askNote.noteCommitment);
      const spend = await prover.proveValidSpendV2({
        mint: BASE_MINT,
        noteAmount: 5_000n,
        spendingKey: ASK_KEY,
        noteInnerHash: ASK.inner,
        path: { siblings: tree.proof(leaf).siblings, leafIndex: leaf },
        merkleRoot: tree.root,
        amount: 1_234n,
        recipient: Uint8Array.from({ length: 32 }, (_, i) => 200 - i),
        change: { treeId: 2, memo: CHANGE_MEMO },
      });
      expect(spend.change.amount).toBe(5_000n - 1_234n);
      expect(spend.publicInputs[7]).toBe(spend.change.commitment);
      // The 9th signal binds the change's shard and memo: the proof is refused with another of either.
      expect(spend.publicInputs[8]).toBe(spendChangeMemoHash({ treeId: 2, memo: CHANGE_MEMO }));
      const junk = new Uint8Array(NOTE_MEMO_BYTES).fill(0xee);
      for (const other of [{ treeId: 2, memo: junk }, { treeId: 3, memo: CHANGE_MEMO }, undefined]) {
        const signals = [...spend.publicInputs.slice(0, 8), spendChangeMemoHash(other)];
        expect(await verifies('valid_spend_v2', spend.proof, signals)).toBe(false);
      }
      await expectBound('valid_spend_v2', spend.proof, spend.publicInputs);
    },
    PROOF_TIMEOUT_MS,
  );
});
