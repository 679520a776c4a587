/**
 * One full fill with genuine proofs end to end: the clients' VALID_INPUT proofs, which the engine's
 * intake verifies in its worker pool, and the match's VALID_MATCH proof, which the engine's prover
 * makes in worker threads, its verifier workers check, and the ledger's `settle_batch` verifies
 * with the real Groth16 verifier before anything lands (locks carry no proof). Nothing here is a
 * stand-in for a proof or a proof check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadVerificationKey, NoteProver } from '@nightjar/circuits';
import { deriveNote } from '@nightjar/crypto';
import { fieldToHex, parseAddress, type PlaceOrderBody } from '@nightjar/protocol';
import type { BusEvent } from '../../src/event-bus.js';
import { NoteMatchProver } from '../../src/settlement/match-prover.js';
import { SOL, startTestVenue, Trader, USDC, type Note, type TestVenue } from '../harness.js';
import { provedOrders, realLedgerVerifier, recordingVerifier } from '../real-proofs.js';

const ONE_SOL = 1_000_000_000n;
const PRICE = 150_000_000n;

function nullifierOf(note: Note): string {
  const d = deriveNote({
    mint: parseAddress(note.mint)!,
    amount: note.amount,
    ownerCommitment: BigInt('0x' + note.ownerCommitment),
    noteInnerHash: BigInt('0x' + note.innerHash),
  });
  return fieldToHex(d.nullifier);
}

describe('settlement with real proofs', () => {
  let v: TestVenue;
  let prover: NoteProver;
  /** Every verdict the ledger's verifier gave. */
  let ledgerVerdicts: boolean[];
  beforeAll(async () => {
    prover = new NoteProver({ workers: 2 });
    await prover.start();
    const recorded = recordingVerifier(await realLedgerVerifier());
    ledgerVerdicts = recorded.verdicts;
    v = await startTestVenue({
      settle: true,
      verifyInputProof: undefined,
      validInputKey: await loadVerificationKey('valid_input_v2'),
      verifierWorkers: 1,
      // The real prover (sharing this test's NoteProver) and the engine's own verifier workers.
      matchProver: new NoteMatchProver({ prover }),
      matchVerifier: undefined,
      validMatchKey: await loadVerificationKey('valid_match'),
      ledgerVerifier: recorded.verifier,
    });
  });
  afterAll(async () => {
    await prover.close();
    await v?.close();
  });

  it('a full fill: intake verifies genuine VALID_INPUT proofs, settle_batch a genuine VALID_MATCH proof', async () => {
    const { token } = await v.newAccount();
    const [alice, bob] = [v.trader(), v.trader()];
    const usdc = await alice.depositNow(USDC, Trader.required('bid', ONE_SOL, PRICE));
    const sol = await bob.depositNow(SOL, Trader.required('ask', ONE_SOL, PRICE), 1);
    await v.advance(32);
    await v.engine.context.trees.checkAgainstChain();

    const events: BusEvent[] = [];
    const off = v.engine.events.subscribe((e) => events.push(e));
    const kinds = (orderId: string) =>
      events.flatMap((e) => (e.channel === 'orders' && e.body.order_id === orderId ? [e.body.kind] : []));

    const [bid, ask] = (await provedOrders(v, prover, [
      { trader: alice, note: usdc, fields: { amount: ONE_SOL, price_limit: PRICE } },
      { trader: bob, note: sol, fields: { amount: ONE_SOL, price_limit: PRICE } },
    ])) as [PlaceOrderBody, PlaceOrderBody];
    for (const body of [bid, ask]) {
      const r = await v.client.send('/orders', { token, body });
      expect(r.status, r.text).toBe(202);
    }
    expect(ledgerVerdicts).toEqual([]);

    // The test's clock runs a slot per ~20 ms, not 400 ms: it stands still while the match waits
    // for its proof (seconds on two shared cores), so the locks keep their slots as in production.
    const proving = () =>
      (v.engine.context.settlement.metricsSnapshot?.() as { queue_depth: Record<string, number> }).queue_depth
        .proving ?? 0;
    const deadline = performance.now() + 90_000;
    while (!(kinds(bid.order_id).includes('fully_filled') && kinds(ask.order_id).includes('fully_filled'))) {
      if (performance.now() > deadline) throw new Error(`no fill: ${JSON.stringify(kinds(bid.order_id))}`);
      if (proving() === 0) await v.advance(1);
      await new Promise((r) => setTimeout(r, 20));
    }
    off();
    expect(kinds(bid.order_id)).toEqual(['pending_settlement', 'fully_filled']);
    expect(kinds(ask.order_id)).toEqual(['pending_settlement', 'fully_filled']);

    // The ledger checked exactly one proof, the match's, and it passed; the engine proved it once
    // and its local verifier accepted it before it was sent.
    expect(ledgerVerdicts).toEqual([true]);
    const m = v.engine.context.settlement.metricsSnapshot?.() as {
      counters: Record<string, number>;
      stage_latency: Record<string, { count: number; p50_ms: number }>;
    };
    expect(m.counters).toMatchObject({
      lock_transactions: 1,
      settle_transactions: 1,
      matches_confirmed: 1,
      proofs_failed: 0,
      proofs_refused_by_local_verifier: 0,
    });
    expect(m.stage_latency.prove?.count).toBe(1);
    expect(m.stage_latency.verify?.count).toBe(1);
    for (const note of [usdc, sol])
      expect((await v.ledger.getNoteStatus({ nullifier: nullifierOf(note) })).state).toBe('spent');
    const s = await v.ledger.getSolvency();
    for (const mint of s.mints) expect(mint.vault_balance).toBe(mint.outstanding_note_value);
  });
});
