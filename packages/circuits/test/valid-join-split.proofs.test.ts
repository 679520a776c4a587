/**
 * Real VALID_JOIN_SPLIT proofs through the NoteProver worker pool: a 1 → 8 split and a 4 → 1
 * merge verify with the crypto package's verifier (what the ledger runs) and with snarkjs, against
 * the committed vkey, and stop verifying when any public input changes. Two proofs.
 */
import {
  Groth16Verifier,
  VALID_JOIN_SPLIT_PUBLIC_INPUTS,
  bytesToSnarkjsProof,
  joinSplitMemoHash,
  validJoinSplitPublicSignals,
} from '@nightjar/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CIRCUITS, loadVerificationKey } from '../src/artifacts.js';
import { NoteProver } from '../src/prover.js';
import { ProverInputError } from '../src/witness.js';
import { snarkjs, terminateCurve } from './helpers.js';
import { MEMO, ROOT, note, params, shardsOf, type Name } from './join-split-fixture.js';

type Proved = Awaited<ReturnType<NoteProver['proveValidJoinSplit']>>;

const CASES: Record<string, [Name[], bigint[]]> = {
  '1 → 8 split': [['a'], [1_000n, 2_000n, 500n, 1_500n, 700n, 300n, 1_200n, 800n]],
  '4 → 1 merge': [['a', 'b', 'c', 'd'], [13_000n]],
};

describe('NoteProver.proveValidJoinSplit (real proofs)', () => {
  const prover = new NoteProver({ workers: 1 });
  let verifier: Groth16Verifier;
  const proofs = new Map<string, Proved>();

  beforeAll(async () => {
    verifier = await Groth16Verifier.create(await loadVerificationKey('valid_join_split_v2'));
    for (const [label, [inputs, outputs]] of Object.entries(CASES)) {
      const t0 = performance.now();
      proofs.set(label, await prover.proveValidJoinSplit(params(inputs, outputs)));
      console.log(`VALID_JOIN_SPLIT proof (${label}): ${(performance.now() - t0).toFixed(0)} ms`);
    }
  }, 300_000);

  afterAll(async () => {
    await prover.close();
    await terminateCurve();
  });

  it.each(Object.keys(CASES))('%s: verifies with the crypto verifier and with snarkjs', async (label) => {
    const r = proofs.get(label)!;
    const [inputs, amounts] = CASES[label]!;
    expect(r.proof).toHaveLength(256);
    expect(r.publicInputs).toHaveLength(CIRCUITS.valid_join_split_v2.publicInputs.length);
    expect([...CIRCUITS.valid_join_split_v2.publicInputs]).toEqual([...VALID_JOIN_SPLIT_PUBLIC_INPUTS]);
    // What the ledger derives from the transaction's arguments (program/proof-checks.ts).
    const outputs = Array<bigint>(8).fill(0n);
    for (const o of r.outputs) outputs[o.slot] = o.commitment;
    expect(r.publicInputs).toEqual(
      validJoinSplitPublicSignals({
        inputs: r.inputs,
        outputs,
        memoHash: joinSplitMemoHash(MEMO, shardsOf(amounts)),
      }),
    );
    expect(r.inputs.map((i) => i.merkleRoot)).toEqual(inputs.map(() => ROOT));
    expect(r.outputs.map((o) => o.amount)).toEqual(amounts.filter((a) => a !== 0n));
    expect(r.inputs.map((i) => i.nullifier)).not.toContain(0n);
    expect(new Set(inputs.map((n) => note(n).commitment)).size).toBe(inputs.length);

    expect(verifier.verify(r.proof, r.publicInputs)).toBe(true);
    const vkey = await loadVerificationKey('valid_join_split_v2');
    expect(
      await snarkjs.groth16.verify(
        vkey,
        r.publicInputs.map((v) => v.toString()),
        bytesToSnarkjsProof(r.proof),
      ),
    ).toBe(true);
  });

  it('changing any one public input (memo hash, a nullifier, an output commitment, …) fails', () => {
    for (const label of Object.keys(CASES)) {
      const r = proofs.get(label)!;
      const names = CIRCUITS.valid_join_split_v2.publicInputs;
      for (let i = 0; i < r.publicInputs.length; i++) {
        const tampered = [...r.publicInputs];
        tampered[i] = tampered[i]! + 1n;
        expect(verifier.verify(r.proof, tampered), `${label}: ${names[i]}`).toBe(false);
      }
      // Another memo (the replay of issue 19: same proof, other memo bytes).
      const memo = Uint8Array.from(MEMO);
      memo[176] = memo[176]! ^ 0x80;
      const otherMemo = [...r.publicInputs];
      otherMemo[names.indexOf('memo_hash')] = joinSplitMemoHash(memo, shardsOf(CASES[label]![1]));
      expect(verifier.verify(r.proof, otherMemo), `${label}: other memo`).toBe(false);
    }
    // The split's output slots rotated, and one proof's signals with the other proof.
    const split = proofs.get('1 → 8 split')!;
    const rotated = [...split.publicInputs];
    const first = rotated.splice(8, 8);
    rotated.splice(8, 0, ...first.slice(1), first[0]!);
    expect(verifier.verify(split.proof, rotated)).toBe(false);
    // A victim's nullifier in an unused input slot of the split.
    const victim = [...split.publicInputs];
    victim[5] = proofs.get('4 → 1 merge')!.publicInputs[5]!;
    expect(verifier.verify(split.proof, victim)).toBe(false);
    expect(verifier.verify(split.proof, proofs.get('4 → 1 merge')!.publicInputs)).toBe(false);
  });

  it('refuses an unprovable request before proving, with ProverInputError', async () => {
    const err = await prover.proveValidJoinSplit(params(['a'], [8_001n])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProverInputError);
    expect(prover.queued + prover.running).toBe(0);
  });
});
