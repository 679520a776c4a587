/**
 * validMatchWitness without the circuit: DESIGN 4 arithmetic, DESIGN 3 output formulas (through
 * the crypto package), the public-input layout, and the typed errors for matches the circuit
 * would reject.
 */
import {
  CHANGE_SLOT,
  MATCH_OUTPUT_SLOTS,
  VALID_MATCH_PUBLIC_INPUTS,
  deriveNote,
  noteCommitment,
  noteNullifier,
  openingHash,
  outputInner,
  ownerCommitment,
  validMatchPublicSignals,
} from '@nightjar/crypto';
import { U64_MAX } from '@nightjar/protocol';
import { describe, expect, it } from 'vitest';

import { MatchWitnessError, validMatchWitness, type ValidMatchParams } from '../src/match-witness.js';
import {
  ASK,
  BASE,
  BASE_MINT,
  BID,
  FEE_OWNER,
  PARTIAL_FILL,
  QUOTE,
  QUOTE_MINT,
  matchParams,
} from './match-fixture.js';

function codeOf(params: ValidMatchParams): string | undefined {
  try {
    validMatchWitness(params);
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(MatchWitnessError);
    return (err as MatchWitnessError).code;
  }
}

describe('validMatchWitness', () => {
  it('partial fill on both sides: DESIGN 4 amounts, DESIGN 3 outputs, relock nullifiers', () => {
    // quote = floor(3000 * 2.5) = 7500; bid fee floor(7500 * 25 / 10000) = 18; ask fee floor(7.5) = 7.
    const { params, tree } = matchParams(PARTIAL_FILL);
    const w = validMatchWitness(params);
    expect(w.outputs.map((o) => [o.slot, o.amount])).toEqual([
      [0, 3000n],
      [1, 10_000n - 7500n - 18n],
      [2, 18n],
      [3, 7500n],
      [4, 5000n - 3000n - 7n],
      [5, 7n],
    ]);
    // Value is conserved per mint: the quote note's value = ask trade-out + bid change + bid fee.
    const amt = (slot: number) => w.outputs.find((o) => o.slot === slot)?.amount ?? 0n;
    expect(amt(3) + amt(1) + amt(2)).toBe(10_000n);
    expect(amt(0) + amt(4) + amt(5)).toBe(5_000n);

    const bidInput = deriveNote({
      mint: QUOTE_MINT,
      amount: 10_000n,
      ownerCommitment: ownerCommitment(BID.key),
      noteInnerHash: BID.inner,
    });
    const askInput = deriveNote({
      mint: BASE_MINT,
      amount: 5_000n,
      ownerCommitment: ownerCommitment(ASK.key),
      noteInnerHash: ASK.inner,
    });
    for (const o of w.outputs) {
      const spec = MATCH_OUTPUT_SLOTS[o.slot];
      const parent = spec.side === 'bid' ? BID.inner : ASK.inner;
      const owner = spec.role === 3 ? FEE_OWNER : ownerCommitment(spec.side === 'bid' ? BID.key : ASK.key);
      const mint = spec.mint === 'base' ? BASE : QUOTE;
      expect(o.inner).toBe(outputInner(parent, spec.role));
      expect(o.commitment).toBe(
        noteCommitment({ ...mint, amount: o.amount, openingHash: openingHash(owner, o.inner) }),
      );
      expect(o.nullifier).toBe(noteNullifier(o.commitment, o.inner));
    }
    const p = w.publicInputs;
    expect([p.rootBid, p.nullifierBid, p.rootAsk, p.nullifierAsk]).toEqual([
      tree.root,
      bidInput.nullifier,
      tree.root,
      askInput.nullifier,
    ]);
    expect(p.outputs).toEqual(w.outputs.map((o) => o.commitment));
    expect(p.bidRelockNullifier).toBe(w.outputs[CHANGE_SLOT.bid]?.nullifier);
    expect(p.askRelockNullifier).toBe(w.outputs[CHANGE_SLOT.ask]?.nullifier);
    // The circuit input carries the public signals under their names, in the contract's order.
    expect(VALID_MATCH_PUBLIC_INPUTS.map((n) => BigInt(w.input[n] as string))).toEqual(
      validMatchPublicSignals(p),
    );
  });

  it('full fill with zero fee: change and fee slots are 0, no relock', () => {
    const { params } = matchParams({
      quantity: 4_000n,
      price: 1_500_000n,
      feeBps: 0n,
      bid: { ...BID, amount: 6_000n },
      ask: { ...ASK, amount: 4_000n },
    });
    const w = validMatchWitness(params);
    expect(w.outputs.map((o) => o.slot)).toEqual([0, 3]);
    expect(w.publicInputs.outputs.map((c) => c !== 0n)).toEqual([true, false, false, true, false, false]);
    expect([w.publicInputs.bidRelockNullifier, w.publicInputs.askRelockNullifier]).toEqual([0n, 0n]);
  });

  it('a quote that floors to zero: no ask trade-out, the bid pays nothing but its fee (also 0)', () => {
    // q * p / price_scale = 3 * 100 / 1_000_000 < 1.
    const { params } = matchParams({
      quantity: 3n,
      price: 100n,
      bid: { ...BID, amount: 50n },
      ask: { ...ASK, amount: 10n },
    });
    const w = validMatchWitness(params);
    expect(w.input.quote).toBe('0');
    expect(w.input.quote_rem).toBe('300');
    expect(w.publicInputs.outputs[3]).toBe(0n);
    expect(w.outputs.map((o) => [o.slot, o.amount])).toEqual([
      [0, 3n],
      [1, 50n],
      [4, 7n],
    ]);
  });

  it('throws a typed error, with a stable code, for a match the circuit cannot prove', () => {
    const base = {
      quantity: 3_000n,
      price: 2_500_000n,
      bid: { ...BID, amount: 10_000n },
      ask: { ...ASK, amount: 5_000n },
    };
    const ok = matchParams(base).params;
    expect(codeOf(ok)).toBeUndefined();
    // The bid's note cannot pay quote + fee (7518), the ask's cannot pay q + fee (3007).
    expect(codeOf(matchParams({ ...base, bid: { ...BID, amount: 7_517n } }).params)).toBe(
      'insufficient_note',
    );
    expect(codeOf(matchParams({ ...base, ask: { ...ASK, amount: 3_006n } }).params)).toBe(
      'insufficient_note',
    );
    expect(codeOf(matchParams({ ...base, bid: { ...BID, amount: 7_518n } }).params)).toBeUndefined();
    // Relock needs a change note.
    expect(codeOf(matchParams({ ...base, bid: { ...BID, amount: 7_518n }, bidRelock: true }).params)).toBe(
      'relock_without_change',
    );
    expect(codeOf(matchParams({ ...base, ask: { ...ASK, amount: 3_007n }, askRelock: true }).params)).toBe(
      'relock_without_change',
    );
    expect(codeOf({ ...ok, quantity: 0n })).toBe('quantity_zero');
    expect(codeOf({ ...ok, priceScale: 0n })).toBe('price_scale_zero');
    expect(codeOf({ ...ok, quantity: U64_MAX + 1n })).toBe('u64');
    expect(codeOf({ ...ok, price: -1n })).toBe('u64');
    expect(codeOf({ ...ok, feeBps: 1n << 64n })).toBe('u64');
    expect(codeOf({ ...ok, bid: { ...ok.bid, amount: 1n << 64n } })).toBe('u64');
    // q * p / price_scale above 2^64.
    expect(codeOf({ ...ok, price: U64_MAX, priceScale: 1n })).toBe('quote_overflow');
    expect(codeOf({ ...ok, baseMint: new Uint8Array(31) })).toBe('mint');
    expect(codeOf({ ...ok, feeOwnerCommitment: -1n })).toBe('field');
    expect(codeOf({ ...ok, ask: { ...ok.ask, merkleRoot: ok.ask.merkleRoot + 1n } })).toBe('root_mismatch');
    expect(codeOf({ ...ok, ask: { ...ok.ask, path: { ...ok.ask.path, leafIndex: 5 } } })).toBe(
      'root_mismatch',
    );
    expect(codeOf({ ...ok, bid: { ...ok.bid, path: { ...ok.bid.path, siblings: [] } } })).toBe('path');
    expect(codeOf({ ...ok, bid: { ...ok.bid, path: { ...ok.bid.path, leafIndex: 1 << 20 } } })).toBe('path');

    const err = (() => {
      try {
        validMatchWitness(matchParams({ ...base, ask: { ...ASK, amount: 3_006n } }).params);
      } catch (e) {
        return e as MatchWitnessError;
      }
      return undefined;
    })();
    expect(err?.side).toBe('ask');
    expect(err?.name).toBe('MatchWitnessError');
  });
});
