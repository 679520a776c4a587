import {
  Groth16Verifier,
  MerkleTree,
  NOTE_MEMO_BYTES,
  bytesToSnarkjsProof,
  deriveNote,
  noteUseTag,
  orderDigest,
  ownerCommitment,
  type OrderTerms,
} from '@nightjar/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadVerificationKey, type CircuitName } from '../src/artifacts.js';
import type { ValidInputV2Params } from '../src/lock-witness.js';
import {
  NoteProver,
  ProverClosedError,
  ProverInputError,
  ProverQueueFullError,
  type LockProofResult,
} from '../src/prover.js';
import type { ValidSpendV2Params } from '../src/spend-witness-v2.js';
import type { ProvableNote } from '../src/witness.js';
import { snarkjs, terminateCurve } from './helpers.js';

const MINT = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
const NOTE: ProvableNote = {
  mint: MINT,
  amount: 123_456_789n,
  spendingKey: 0x2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2an,
  noteInnerHash: 0x7777777777777777777777777777777777777777777777777777777777777n,
};
const RECIPIENT = Uint8Array.from({ length: 32 }, (_, i) => 0xff - i);
const ORDER: OrderTerms = {
  marketLo: 0x1111n,
  marketHi: 0x2222n,
  side: 0,
  amount: 1_000n,
  priceLimit: 150n,
  minFillSize: 10n,
  expirySlot: 5_000n,
  orderId: 0x0123456789abcdef0123456789abcdefn,
};
const DERIVED = deriveNote({
  mint: MINT,
  amount: NOTE.amount,
  ownerCommitment: ownerCommitment(NOTE.spendingKey),
  noteInnerHash: NOTE.noteInnerHash,
});

function treeWithNote(): { tree: MerkleTree; index: number } {
  const tree = new MerkleTree();
  tree.append(11n);
  tree.append(22n);
  tree.append(33n);
  return { tree, index: tree.append(DERIVED.noteCommitment) };
}

async function verify(
  circuit: CircuitName,
  r: { proof: Uint8Array; publicInputs: bigint[] },
): Promise<boolean> {
  const vkey = await loadVerificationKey(circuit);
  return snarkjs.groth16.verify(
    vkey,
    r.publicInputs.map((v) => v.toString()),
    bytesToSnarkjsProof(r.proof),
  );
}

describe('NoteProver (worker pool, real proofs)', () => {
  const prover = new NoteProver({ workers: 1 });
  const { tree, index } = treeWithNote();
  const path = tree.proof(index);
  const request = (over: Partial<ValidInputV2Params> = {}): ValidInputV2Params => ({
    mint: MINT,
    amount: NOTE.amount,
    spendingKey: NOTE.spendingKey,
    noteInnerHash: NOTE.noteInnerHash,
    path,
    order: ORDER,
    ...over,
  });
  const spendRequest = (over: Partial<ValidSpendV2Params> = {}): ValidSpendV2Params => ({
    mint: MINT,
    noteAmount: NOTE.amount,
    spendingKey: NOTE.spendingKey,
    noteInnerHash: NOTE.noteInnerHash,
    path,
    amount: 1_000n,
    recipient: RECIPIENT,
    change: { treeId: 2, memo: new Uint8Array(NOTE_MEMO_BYTES).fill(0x5a) },
    ...over,
  });
  let inputProof: LockProofResult;
  let provingMs: number;

  beforeAll(async () => {
    await prover.start();
    const t0 = performance.now();
    inputProof = await prover.proveValidInputV2(request({ merkleRoot: tree.root }));
    provingMs = performance.now() - t0;
  }, 60_000);

  afterAll(async () => {
    await prover.close();
    await terminateCurve();
  });

  it('VALID_INPUT v2: a 256-byte proof that verifies with snarkjs against the committed vkey', async () => {
    expect(inputProof.proof).toBeInstanceOf(Uint8Array);
    expect(inputProof.proof).toHaveLength(256);
    expect(await verify('valid_input_v2', inputProof)).toBe(true);
    console.log(`VALID_INPUT v2 proof (first, cold worker): ${provingMs.toFixed(0)} ms`);
  });

  it('VALID_INPUT v2: the proof does not verify for other public inputs', async () => {
    for (let i = 0; i < 3; i++) {
      const publicInputs = [...inputProof.publicInputs];
      publicInputs[i] = (publicInputs[i] as bigint) + 1n;
      expect(await verify('valid_input_v2', { ...inputProof, publicInputs }), `input ${i}`).toBe(false);
    }
  });

  it('VALID_SPEND v2: verifies, and is bound to its recipient, amount, change and change memo', async () => {
    const spend = await prover.proveValidSpendV2(spendRequest());
    expect(spend.proof).toHaveLength(256);
    expect(spend.publicInputs[4]).toBe(1_000n);
    expect(await verify('valid_spend_v2', spend)).toBe(true);
    for (const i of [4, 5, 6, 7, 8]) {
      const publicInputs = [...spend.publicInputs];
      publicInputs[i] = (publicInputs[i] as bigint) ^ 1n;
      expect(await verify('valid_spend_v2', { ...spend, publicInputs }), `input ${i}`).toBe(false);
    }
  }, 60_000);

  it('the proof bytes verify with the crypto package verifier (mcl) against the committed vkey', async () => {
    const verifier = await Groth16Verifier.create(await loadVerificationKey('valid_input_v2'));
    expect(verifier.verify(inputProof.proof, inputProof.publicInputs)).toBe(true);
    const wrong = [...inputProof.publicInputs];
    wrong[2] = (wrong[2] as bigint) + 1n;
    expect(verifier.verify(inputProof.proof, wrong)).toBe(false);
  });

  it('public inputs agree with the crypto package (deriveNote, MerkleTree, the order digest)', () => {
    expect(tree.leaf(index)).toBe(DERIVED.noteCommitment);
    const useTag = noteUseTag(DERIVED.noteCommitment, NOTE.noteInnerHash, orderDigest(ORDER));
    expect(inputProof.publicInputs).toEqual([useTag, tree.root, DERIVED.nullifier]);
  });

  it('rejects bad notes before proving, with a typed error', async () => {
    await expect(prover.proveValidInputV2(request({ amount: 0n }))).rejects.toBeInstanceOf(ProverInputError);
    await expect(prover.proveValidInputV2(request({ amount: 1n << 64n }))).rejects.toBeInstanceOf(
      ProverInputError,
    );
    await expect(
      prover.proveValidInputV2(
        request({ path: { siblings: path.siblings.slice(1), pathIndices: path.pathIndices } }),
      ),
    ).rejects.toBeInstanceOf(ProverInputError);
    await expect(
      prover.proveValidInputV2(request({ path: { ...path, leafIndex: index + 1 } })),
    ).rejects.toBeInstanceOf(ProverInputError);
    await expect(prover.proveValidInputV2(request({ merkleRoot: 1n }))).rejects.toBeInstanceOf(
      ProverInputError,
    );
    await expect(prover.proveValidSpendV2(spendRequest({ merkleRoot: 1n }))).rejects.toBeInstanceOf(
      ProverInputError,
    );
    expect(prover.queued + prover.running).toBe(0);
  });

  it('bounded queue: rejects beyond capacity, and close() rejects pending jobs', async () => {
    const small = new NoteProver({ workers: 1, maxQueue: 1 });
    const first = small.proveValidInputV2(request()); // runs (or waits for the worker)
    const second = small.proveValidInputV2(request()); // queued
    await expect(small.proveValidInputV2(request())).rejects.toBeInstanceOf(ProverQueueFullError);
    expect(small.queued).toBe(2);
    const closed = Promise.all([
      expect(first).rejects.toBeInstanceOf(ProverClosedError),
      expect(second).rejects.toBeInstanceOf(ProverClosedError),
    ]);
    await small.close();
    await closed;
    expect(small.queued + small.running).toBe(0);
    await expect(small.proveValidInputV2(request())).rejects.toBeInstanceOf(ProverClosedError);
  });
});
