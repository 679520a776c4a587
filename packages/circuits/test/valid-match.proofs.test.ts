/**
 * Real VALID_MATCH proofs through the NoteProver worker pool: they verify with the crypto
 * package's verifier (what the ledger runs) and with snarkjs, against the committed vkey, and stop
 * verifying when any public input is changed. Proofs are slow, so there are three.
 */
import { Groth16Verifier, bytesToSnarkjsProof, validMatchPublicSignals } from '@nightjar/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CIRCUITS, loadVerificationKey } from '../src/artifacts.js';
import { MatchWitnessError } from '../src/match-witness.js';
import { NoteProver, type MatchProofResult } from '../src/prover.js';
import { snarkjs, terminateCurve } from './helpers.js';
import { ASK, ATTACKER, BID, matchParams, PARTIAL_FILL, type MatchSetup } from './match-fixture.js';

const CASES: Record<string, MatchSetup> = {
  'partial fill, relock on each side': PARTIAL_FILL,
  'full fill, zero fee': {
    quantity: 4_000n,
    price: 1_500_000n,
    feeBps: 0n,
    bid: { ...BID, amount: 6_000n },
    ask: { ...ASK, amount: 4_000n },
  },
  'zero trade-out quote': {
    quantity: 3n,
    price: 100n,
    bid: { ...BID, amount: 50n },
    ask: { ...ASK, amount: 10n },
  },
};

describe('NoteProver.proveValidMatch (real proofs)', () => {
  const prover = new NoteProver({ workers: 1 });
  let verifier: Groth16Verifier;
  const proofs = new Map<string, MatchProofResult>();

  beforeAll(async () => {
    verifier = await Groth16Verifier.create(await loadVerificationKey('valid_match'));
    for (const [label, setup] of Object.entries(CASES)) {
      const t0 = performance.now();
      proofs.set(label, await prover.proveValidMatch(matchParams(setup).params));
      console.log(`VALID_MATCH proof (${label}): ${(performance.now() - t0).toFixed(0)} ms`);
    }
  }, 600_000);

  afterAll(async () => {
    await prover.close();
    await terminateCurve();
  });

  it.each(Object.keys(CASES))('%s: verifies with the crypto verifier and with snarkjs', async (label) => {
    const r = proofs.get(label) as MatchProofResult;
    expect(r.proof).toHaveLength(256);
    expect(r.publicSignals).toEqual(validMatchPublicSignals(r.publicInputs));
    expect(r.publicSignals).toHaveLength(CIRCUITS.valid_match.publicInputs.length);
    expect(verifier.verify(r.proof, r.publicSignals)).toBe(true);
    const vkey = await loadVerificationKey('valid_match');
    expect(
      await snarkjs.groth16.verify(
        vkey,
        r.publicSignals.map((v) => v.toString()),
        bytesToSnarkjsProof(r.proof),
      ),
    ).toBe(true);
    // The outputs are the non-zero slots, and they are what the public slots commit to.
    for (const o of r.outputs) expect(r.publicInputs.outputs[o.slot]).toBe(o.commitment);
    const present = r.publicInputs.outputs.filter((c) => c !== 0n);
    expect(present).toHaveLength(r.outputs.length);
  });

  it('public input tampered: the proof fails for any changed signal (a fee owner of the attacker too)', () => {
    const r = proofs.get('partial fill, relock on each side') as MatchProofResult;
    const names = CIRCUITS.valid_match.publicInputs;
    for (let i = 0; i < r.publicSignals.length; i++) {
      const tampered = [...r.publicSignals];
      tampered[i] = (tampered[i] as bigint) + 1n;
      expect(verifier.verify(r.proof, tampered), names[i]).toBe(false);
    }
    // A fee owner other than the vault's, or relocks and outputs swapped between the sides.
    const feeOwner = [...r.publicSignals];
    feeOwner[names.indexOf('fee_owner_commitment')] = ATTACKER;
    expect(verifier.verify(r.proof, feeOwner)).toBe(false);
    const swapped = [...r.publicSignals];
    const bid = names.indexOf('bid_relock_nullifier');
    const ask = names.indexOf('ask_relock_nullifier');
    [swapped[bid], swapped[ask]] = [swapped[ask] as bigint, swapped[bid] as bigint];
    expect(verifier.verify(r.proof, swapped)).toBe(false);
    // Another match's proof does not verify for this match's signals.
    const other = proofs.get('full fill, zero fee') as MatchProofResult;
    expect(verifier.verify(other.proof, r.publicSignals)).toBe(false);
  });

  it('rejects an unprovable match before proving, with MatchWitnessError', async () => {
    const setup = CASES['partial fill, relock on each side'] as MatchSetup;
    const err = await prover
      .proveValidMatch(matchParams({ ...setup, bid: { ...BID, amount: 7_000n } }).params)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MatchWitnessError);
    expect((err as MatchWitnessError).code).toBe('insufficient_note');
    expect(prover.queued + prover.running).toBe(0);
  });
});
