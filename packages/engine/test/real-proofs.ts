/**
 * Genuine proofs for tests and benchmarks that need them end to end: VALID_INPUT proofs of notes
 * against the engine's mirror of the tree, and the ledger's real Groth16 verifier over the
 * circuits' verification keys (as `nightjar start` builds it).
 */
import { loadVerificationKey, type NoteProver } from '@nightjar/circuits';
import { createGroth16Verifier, type LedgerProofVerifier } from '@nightjar/ledger';
import { bytesToHex, parseAddress } from '@nightjar/protocol';
import { circuitTerms } from '../src/settlement/order-terms.js';
import type { Note, TestVenue } from './harness.js';

/** The ledger's proof checks with the committed dev verification keys. */
export async function realLedgerVerifier(): Promise<LedgerProofVerifier> {
  return createGroth16Verifier({
    valid_spend: await loadVerificationKey('valid_spend'),
    valid_input_v2: await loadVerificationKey('valid_input_v2'),
    valid_lock: await loadVerificationKey('valid_lock'),
    valid_match_v2: await loadVerificationKey('valid_match_v2'),
    valid_join_split_v2: await loadVerificationKey('valid_join_split_v2'),
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

/** The order fields a VALID_INPUT v2 proof binds (DESIGN 3's order digest), as a client signs them. */
export interface ProvedOrder {
  side: 'bid' | 'ask';
  amount: bigint;
  price_limit: bigint;
  min_fill_size?: bigint;
  expiry_slot: bigint;
  order_id: string;
}

/**
 * Proves VALID_INPUT v2 for each note and the order it backs, against the current root of its
 * shard in the engine's mirror (the notes must be finalized there). Returns the proofs as hex, in
 * the notes' order.
 */
export async function proveNotes(
  venue: TestVenue,
  prover: NoteProver,
  notes: { note: Note; order: ProvedOrder }[],
): Promise<string[]> {
  const trees = venue.engine.context.trees;
  const market = venue.engine.context.markets.list().find((m) => m.symbol === 'SOL-USDC')!.market_id;
  const proofs = await Promise.all(
    notes.map(({ note: n, order: o }) => {
      const shard = trees.shard(n.treeId)!;
      const index = shard.indexOf(BigInt('0x' + n.commitment));
      if (index === undefined) throw new Error(`note ${n.commitment} is not in shard ${n.treeId}`);
      return prover.proveValidInputV2({
        mint: parseAddress(n.mint)!,
        amount: n.amount,
        spendingKey: n.spendingKey,
        noteInnerHash: BigInt('0x' + n.innerHash),
        path: shard.proof(index),
        order: circuitTerms(market, o.side, o.order_id, {
          amount: o.amount.toString(),
          priceLimit: o.price_limit.toString(),
          minFillSize: (o.min_fill_size ?? 0n).toString(),
          expirySlot: o.expiry_slot.toString(),
        }),
      });
    }),
  );
  return proofs.map((p) => bytesToHex(p.proof));
}
