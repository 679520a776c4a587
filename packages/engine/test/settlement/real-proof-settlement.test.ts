/**
 * One full fill with genuine VALID_INPUT proofs on both sides of the seam: the engine's intake
 * verifies them in its worker pool, and the ledger's `lock_notes` re-verifies them with the real
 * Groth16 verifier before locking the notes. Nothing here is a stand-in for a proof check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadVerificationKey, NoteProver } from '@nightjar/circuits';
import { deriveNote } from '@nightjar/crypto';
import { fieldToHex, parseAddress } from '@nightjar/protocol';
import type { BusEvent } from '../../src/event-bus.js';
import { SOL, startTestVenue, Trader, USDC, type Note, type TestVenue } from '../harness.js';
import { proveNotes, realLedgerVerifier, recordingVerifier } from '../real-proofs.js';

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
      validInputKey: await loadVerificationKey('valid_input'),
      verifierWorkers: 1,
      ledgerVerifier: recorded.verifier,
    });
  }, 30_000);
  afterAll(async () => {
    await prover.close();
    await v?.close();
  });

  it('a full fill: intake and lock_notes both verify genuine proofs; the notes are spent', async () => {
    const { token } = await v.newAccount();
    const [alice, bob] = [v.trader(), v.trader()];
    const usdc = await alice.depositNow(USDC, Trader.required('bid', ONE_SOL, PRICE));
    const sol = await bob.depositNow(SOL, Trader.required('ask', ONE_SOL, PRICE), 1);
    await v.advance(32);
    await v.engine.context.trees.checkAgainstChain();
    const [usdcProof, solProof] = await proveNotes(v, prover, [usdc, sol]);

    const events: BusEvent[] = [];
    const off = v.engine.events.subscribe((e) => events.push(e));
    const kinds = (orderId: string) =>
      events.flatMap((e) => (e.channel === 'orders' && e.body.order_id === orderId ? [e.body.kind] : []));

    const bid = alice.order(usdc, { amount: ONE_SOL, price_limit: PRICE, valid_input_proof: usdcProof });
    const ask = bob.order(sol, { amount: ONE_SOL, price_limit: PRICE, valid_input_proof: solProof });
    for (const body of [bid, ask]) {
      const r = await v.client.send('/orders', { token, body });
      expect(r.status, r.text).toBe(202);
    }
    expect(ledgerVerdicts).toEqual([]);

    const deadline = performance.now() + 15_000;
    while (!(kinds(bid.order_id).includes('fully_filled') && kinds(ask.order_id).includes('fully_filled'))) {
      if (performance.now() > deadline) throw new Error(`no fill: ${JSON.stringify(kinds(bid.order_id))}`);
      await v.advance(1);
      await new Promise((r) => setTimeout(r, 20));
    }
    off();
    expect(kinds(bid.order_id)).toEqual(['pending_settlement', 'fully_filled']);
    expect(kinds(ask.order_id)).toEqual(['pending_settlement', 'fully_filled']);

    // The ledger checked exactly the two proofs (one lock_notes for both inputs) and both passed.
    expect(ledgerVerdicts).toEqual([true, true]);
    const m = v.engine.context.settlement.metricsSnapshot?.() as {
      counters: Record<string, number>;
    };
    expect(m.counters).toMatchObject({ lock_transactions: 1, settle_transactions: 1, matches_confirmed: 1 });
    for (const note of [usdc, sol])
      expect((await v.ledger.getNoteStatus({ nullifier: nullifierOf(note) })).state).toBe('spent');
    const s = await v.ledger.getSolvency();
    for (const mint of s.mints) expect(mint.vault_balance).toBe(mint.outstanding_note_value);
  }, 30_000);
});
