/**
 * Genuine proofs for tests and benchmarks that need them end to end: orders carrying VALID_INPUT
 * v2 proofs for their own terms, against the engine's mirror of the tree, and the ledger's real Groth16 verifier over the
 * circuits' verification keys (as `nightjar start` builds it).
 */
import { loadVerificationKey, type NoteProver } from '@nightjar/circuits';
import { createGroth16Verifier, type LedgerProofVerifier } from '@nightjar/ledger';
import { bytesToHex, parseAddress, type PlaceOrderBody } from '@nightjar/protocol';
import { orderTermsOf } from '../src/orders/crypto-checks.js';
import type { Note, TestVenue, Trader } from '@nightjar/testkit';

/** The ledger's proof checks with the committed dev verification keys. */
export async function realLedgerVerifier(): Promise<LedgerProofVerifier> {
  return createGroth16Verifier({
    valid_spend_v2: await loadVerificationKey('valid_spend_v2'),
    valid_input_v2: await loadVerificationKey('valid_input_v2'),
    valid_lock: await loadVerificationKey('valid_lock'),
    valid_match_v2: await loadVerificationKey('valid_match_v2'),
    valid_join_split_v2: await loadVerificationKey('valid_join_split_v2'),
  });
}

/**
 * Wraps a verifier to record every verdict it gives (how many proofs the ledger checked, and that
 * they passed), of which circuit, and the time each call took.
 */
export function recordingVerifier(inner: LedgerProofVerifier): {
  verifier: LedgerProofVerifier;
  verdicts: boolean[];
  /** Each verdict as `circuit:ok|refused`, in order. */
  checks: string[];
  callMs: { proofs: number; ms: number }[];
} {
  const verdicts: boolean[] = [];
  const checks: string[] = [];
  const callMs: { proofs: number; ms: number }[] = [];
  const record = (circuit: string, oks: boolean[]) => {
    verdicts.push(...oks);
    checks.push(...oks.map((ok) => `${circuit}:${ok ? 'ok' : 'refused'}`));
  };
  const verifier: LedgerProofVerifier = {
    async verify(circuit, proof, publicInputs) {
      const t0 = performance.now();
      const ok = await inner.verify(circuit, proof, publicInputs);
      callMs.push({ proofs: 1, ms: performance.now() - t0 });
      record(circuit, [ok]);
      return ok;
    },
    async verifyBatch(circuit, items) {
      const t0 = performance.now();
      const oks = inner.verifyBatch
        ? await inner.verifyBatch(circuit, items)
        : await Promise.all(items.map((i) => inner.verify(circuit, i.proof, i.publicInputs)));
      callMs.push({ proofs: items.length, ms: performance.now() - t0 });
      record(circuit, oks);
      return oks;
    },
  };
  return { verifier, verdicts, checks, callMs };
}

/**
 * A signed order over `note` (as `Trader.order` builds it, `fields` applied) carrying a genuine
 * VALID_INPUT v2 proof for exactly this order's terms, against its `merkle_root` (by default the
 * shard's current root in the engine's mirror, where the note must be finalized). A given
 * `trading_key_signature` is kept, else the body is signed after the proof is in.
 */
export async function provedOrder(
  venue: TestVenue,
  trader: Trader,
  prover: Pick<NoteProver, 'proveValidInputV2'>,
  note: Note,
  fields: Partial<PlaceOrderBody> = {},
): Promise<PlaceOrderBody> {
  const body = trader.order(note, { ...fields, trading_key_signature: fields.trading_key_signature ?? '' });
  const shard = venue.engine.context.trees.shard(note.treeId)!;
  const index = shard.indexOf(BigInt('0x' + note.commitment));
  if (index === undefined) throw new Error(`note ${note.commitment} is not in shard ${note.treeId}`);
  const market = venue.engine.context.markets.list().find((m) => m.symbol === body.symbol)!;
  const r = await prover.proveValidInputV2({
    mint: parseAddress(note.mint)!,
    amount: note.amount,
    spendingKey: note.spendingKey,
    noteInnerHash: BigInt('0x' + note.innerHash),
    path: shard.proof(index),
    merkleRoot: BigInt('0x' + body.merkle_root),
    order: orderTermsOf(body, market.market_id),
  });
  body.valid_input_proof = bytesToHex(r.proof);
  return fields.trading_key_signature === undefined ? trader.sign(body) : body;
}

/**
 * `provedOrder` for several orders at once (the prover's workers run them side by side); the
 * bodies are built, so their arrival nonces taken, in the array's order.
 */
export function provedOrders(
  venue: TestVenue,
  prover: Pick<NoteProver, 'proveValidInputV2'>,
  orders: { trader: Trader; note: Note; fields?: Partial<PlaceOrderBody> }[],
): Promise<PlaceOrderBody[]> {
  return Promise.all(orders.map((o) => provedOrder(venue, o.trader, prover, o.note, o.fields)));
}
