/**
 * Genuine proofs for tests and benchmarks that need them end to end: VALID_INPUT proofs of notes
 * against the engine's mirror of the tree, and the ledger's real Groth16 verifier over the
 * circuits' verification keys (as `nightjar start` builds it).
 */
import { loadVerificationKey, type NoteProver } from '@nightjar/circuits';
import { createGroth16Verifier, type LedgerProofVerifier } from '@nightjar/ledger';
import { bytesToHex, parseAddress } from '@nightjar/protocol';
import type { Note, TestVenue } from './harness.js';

/** The ledger's proof checks with the committed dev verification keys. */
export async function realLedgerVerifier(): Promise<LedgerProofVerifier> {
  return createGroth16Verifier({
    valid_spend: await loadVerificationKey('valid_spend'),
    valid_match: await loadVerificationKey('valid_match'),
    valid_join_split: await loadVerificationKey('valid_join_split'),
  });
}

/**
 * Wraps a verifier to record every verdict it gives (how many proofs the ledger checked, and that
 * they passed) and the time each call took.
 */
export function recordingVerifier(inner: LedgerProofVerifier): {
  verifier: LedgerProofVerifier;
  verdicts: boolean[];
  callMs: { proofs: number; ms: number }[];
} {
  const verdicts: boolean[] = [];
  const callMs: { proofs: number; ms: number }[] = [];
  const verifier: LedgerProofVerifier = {
    async verify(circuit, proof, publicInputs) {
      const t0 = performance.now();
      const ok = await inner.verify(circuit, proof, publicInputs);
      callMs.push({ proofs: 1, ms: performance.now() - t0 });
      verdicts.push(ok);
      return ok;
    },
    async verifyBatch(circuit, items) {
      const t0 = performance.now();
      const oks = inner.verifyBatch
        ? await inner.verifyBatch(circuit, items)
        : await Promise.all(items.map((i) => inner.verify(circuit, i.proof, i.publicInputs)));
      callMs.push({ proofs: items.length, ms: performance.now() - t0 });
      verdicts.push(...oks);
      return oks;
    },
  };
  return { verifier, verdicts, callMs };
}

/**
 * Proves VALID_INPUT for each note against the current root of its shard in the engine's mirror
 * (the notes must be finalized there). Returns the proofs as hex, in the notes' order.
 */
export async function proveNotes(venue: TestVenue, prover: NoteProver, notes: Note[]): Promise<string[]> {
  const trees = venue.engine.context.trees;
  const proofs = await Promise.all(
    notes.map((n) => {
      const shard = trees.shard(n.treeId)!;
      const index = shard.indexOf(BigInt('0x' + n.commitment));
      if (index === undefined) throw new Error(`note ${n.commitment} is not in shard ${n.treeId}`);
      return prover.proveValidInput({
        note: {
          mint: parseAddress(n.mint)!,
          amount: n.amount,
          spendingKey: n.spendingKey,
          noteInnerHash: BigInt('0x' + n.innerHash),
        },
        path: shard.proof(index),
      });
    }),
  );
  return proofs.map((p) => bytesToHex(p.proof));
}
