/**
 * VALID_MATCH circuit, through the committed witness calculator and r1cs: honest matches satisfy
 * every constraint and expose the public inputs in the contract's order; each attack of the
 * README's soundness table is a forged input that the circuit rejects (circom asserts every
 * constraint while computing the witness, so a forged input cannot even produce a witness).
 */
import { VALID_MATCH_PUBLIC_INPUTS, validMatchPublicSignals } from '@nightjar/crypto';
import { FIELD_MODULUS as R } from '@nightjar/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CIRCUITS } from '../src/artifacts.js';
import { validMatchWitness } from '../src/match-witness.js';
import {
  assertAt,
  calculateWitness,
  getWire,
  num2BitsAssert,
  publicWire,
  r1csSatisfied,
  setWire,
  terminateCurve,
} from './helpers.js';
import {
  ASK,
  ATTACKER,
  BID,
  FEE_OWNER,
  forgeInput,
  matchParams,
  PARTIAL_FILL,
  rawCommitment,
  rawNullifier,
  type Forgery,
  type MatchSetup,
} from './match-fixture.js';

const F = 'valid_match.circom';
const LINE = {
  slot: assertAt('MatchOutput', F, 'slot === (1 - z.out) * c.out'),
  relockNf: assertAt('Relock', F, 'relock * (relock - nf.out) === 0'),
  relockZero: assertAt('Relock', F, 'relock * change_is_zero === 0'),
  root: assertAt('SpentNote', F, 'tree.root === root'),
  nullifier: assertAt('SpentNote', F, 'nf.out === nullifier'),
  bidConservation: assertAt('ValidMatch', F, 'bid_amount === quote + bid_fee_amount + bid_change_amount'),
  askConservation: assertAt('ValidMatch', F, 'ask_amount === quantity + ask_fee_amount + ask_change_amount'),
  quoteEq: assertAt('ValidMatch', F, 'qp === quote * price_scale + quote_rem'),
  quoteRemLt: assertAt('ValidMatch', F, 'remLt.out === 1'),
  quantityNonZero: assertAt('ValidMatch', F, 'quantity * quantity_inv === 1'),
  feeEq: assertAt('FeeFloor', F, 'num === fee * 10000 + rem'),
  feeRemLt: assertAt('FeeFloor', F, 'remLt.out === 1'),
  u64: num2BitsAssert('U64', 'bits.in <== in', F),
  feeRem14: num2BitsAssert('FeeFloor', 'remBits.in <== rem', F),
  boolean: assertAt('MerkleRoot', 'note.circom', 'path_indices[i] * (path_indices[i] - 1) === 0'),
};

/** Partial fill on both sides with relocks: quote 7500, bid fee 18, ask fee 7 (see the witness tests). */
const PARTIAL: Forgery = {
  bidAmount: 10_000n,
  askAmount: 5_000n,
  quantity: 3_000n,
  price: 2_500_000n,
  priceScale: 1_000_000n,
  feeBps: 25n,
  bidRelock: true,
  askRelock: true,
};

const HONEST: Record<string, MatchSetup> = {
  'partial fill, relock on each side': PARTIAL_FILL,
  'full fill (no change on either side)': {
    quantity: 3_000n,
    price: 2_500_000n,
    bid: { ...BID, amount: 7_518n },
    ask: { ...ASK, amount: 3_007n },
  },
  'zero fee': {
    quantity: 4_000n,
    price: 1_500_000n,
    feeBps: 0n,
    bid: { ...BID, amount: 6_000n },
    ask: { ...ASK, amount: 4_000n },
  },
  'zero trade-out quote (q * p < price_scale)': {
    quantity: 3n,
    price: 100n,
    bid: { ...BID, amount: 50n },
    ask: { ...ASK, amount: 10n },
  },
  'largest u64 amounts and price': {
    quantity: (1n << 64n) - 1n,
    price: (1n << 64n) - 1n,
    priceScale: (1n << 64n) - 1n,
    feeBps: 0n,
    bid: { ...BID, amount: (1n << 64n) - 1n },
    ask: { ...ASK, amount: (1n << 64n) - 1n },
  },
};

const reject = (f: Forgery) => calculateWitness('valid_match', forgeInput(f).input);

describe('VALID_MATCH circuit: honest matches', () => {
  afterAll(terminateCurve);

  it.each(Object.entries(HONEST))(
    '%s: satisfies the r1cs, public wires = validMatchPublicSignals',
    async (_label, setup) => {
      const w = validMatchWitness(matchParams(setup).params);
      const wtns = await calculateWitness('valid_match', w.input);
      expect(await r1csSatisfied('valid_match', wtns)).toBe(true);
      const names = CIRCUITS.valid_match.publicInputs;
      expect(names).toEqual([...VALID_MATCH_PUBLIC_INPUTS]);
      expect(names.map((n) => getWire(wtns, publicWire('valid_match', n)))).toEqual(
        validMatchPublicSignals(w.publicInputs),
      );
    },
    60_000,
  );

  it('the forged-input builder reproduces validMatchWitness exactly when nothing is forged', () => {
    const w = validMatchWitness(
      matchParams(HONEST['partial fill, relock on each side'] as MatchSetup).params,
    );
    expect(forgeInput(PARTIAL).input).toEqual(w.input);
  });

  it('a partial fill without relocks is fine too (relock slots 0)', async () => {
    const wtns = await reject({ ...PARTIAL, bidRelock: false, askRelock: false });
    expect(await r1csSatisfied('valid_match', wtns)).toBe(true);
  });
});

describe('VALID_MATCH circuit: attacks', () => {
  let honest: Uint8Array;
  beforeAll(async () => {
    honest = await reject(PARTIAL);
  });
  afterAll(terminateCurve);

  it('field wrap-around: a change of (amount - out) mod r fails its 64-bit range check', async () => {
    // The bid note holds 7000 but owes 7500 + 18: its change is -518, i.e. r - 518.
    await expect(reject({ ...PARTIAL, bidAmount: 7_000n, bidRelock: false })).rejects.toThrow(LINE.u64);
    await expect(reject({ ...PARTIAL, askAmount: 3_000n, askRelock: false })).rejects.toThrow(LINE.u64);
  });

  it('more value out than in: an output above what the input pays for', async () => {
    // The bid's trade-out commits to q + 1 base units.
    await expect(reject({ ...PARTIAL, slotAmount: { 0: 3_001n } })).rejects.toThrow(LINE.slot);
    // A larger change than amount - quote - fee, every slot consistent with it.
    await expect(reject({ ...PARTIAL, bidChange: 2_483n })).rejects.toThrow(LINE.bidConservation);
    await expect(reject({ ...PARTIAL, askChange: 1_994n })).rejects.toThrow(LINE.askConservation);
    // A quote above floor(q * p / price_scale), paid for by a smaller bid change: the remainder
    // turns negative (wraps) and fails its range check.
    await expect(
      reject({ ...PARTIAL, quote: 7_501n, quoteRem: -1_000_000n, bidChange: 2_481n }),
    ).rejects.toThrow(LINE.u64);
    // ...or a remainder of price_scale or more.
    await expect(
      reject({ ...PARTIAL, quote: 7_499n, quoteRem: 1_000_000n, bidChange: 2_483n }),
    ).rejects.toThrow(LINE.quoteRemLt);
    // A quote that does not satisfy q * p = quote * price_scale + rem at all.
    await expect(reject({ ...PARTIAL, quote: 7_501n, quoteRem: 0n, bidChange: 2_481n })).rejects.toThrow(
      LINE.quoteEq,
    );
  });

  it('fee diverted into fee notes: a fee above the floor, or fee notes to another owner', async () => {
    // Fee 19 instead of 18, with the change one smaller so the bid note still balances.
    await expect(
      reject({ ...PARTIAL, bidFee: 19n, bidFeeRem: 7_500n * 25n - 190_000n, bidChange: 2_481n }),
    ).rejects.toThrow(LINE.feeRem14);
    await expect(reject({ ...PARTIAL, bidFee: 19n, bidFeeRem: 0n, bidChange: 2_481n })).rejects.toThrow(
      LINE.feeEq,
    );
    // An ask fee of 6 with a remainder of 15000 (>= 10000, < 2^14).
    await expect(
      reject({ ...PARTIAL, askFee: 6n, askFeeRem: 3_000n * 25n - 60_000n, askChange: 1_994n }),
    ).rejects.toThrow(LINE.feeRemLt);
    await expect(reject({ ...PARTIAL, askFee: 8n, askFeeRem: 0n, askChange: 1_992n })).rejects.toThrow(
      LINE.feeEq,
    );
    // A fee note committed to an owner other than fee_owner_commitment.
    await expect(reject({ ...PARTIAL, slotOwner: { 2: ATTACKER } })).rejects.toThrow(LINE.slot);
    await expect(reject({ ...PARTIAL, slotOwner: { 5: ATTACKER } })).rejects.toThrow(LINE.slot);
    // The bid fee note committed with a larger amount than the fee the circuit derives.
    await expect(reject({ ...PARTIAL, slotAmount: { 2: 100n } })).rejects.toThrow(LINE.slot);
  });

  it('output to a foreign owner: trade-out or change committed to another owner', async () => {
    for (const slot of [0, 1, 3, 4] as const) {
      await expect(reject({ ...PARTIAL, slotOwner: { [slot]: ATTACKER } }), `slot ${slot}`).rejects.toThrow(
        LINE.slot,
      );
    }
    // Swapping the owners of the two sides' outputs is foreign too.
    await expect(reject({ ...PARTIAL, slotOwner: { 0: FEE_OWNER } })).rejects.toThrow(LINE.slot);
  });

  it("forged relock: a victim note's nullifier, or a relock of an absent change note", async () => {
    const victim = forgeInput(PARTIAL).input.nullifier_ask as string;
    await expect(reject({ ...PARTIAL, bidRelock: BigInt(victim) })).rejects.toThrow(LINE.relockNf);
    // The nullifier of another note in the tree (any value but the change note's own).
    const stranger = rawNullifier(rawCommitment({ mintLo: 1n, mintHi: 2n }, 5n, ATTACKER, 9n), 9n);
    await expect(reject({ ...PARTIAL, askRelock: stranger })).rejects.toThrow(LINE.relockNf);
    // Change 0: even the zero-value change note's own nullifier may not be relocked.
    const full = { ...PARTIAL, bidAmount: 7_518n, bidRelock: false };
    const { commitments, inners } = forgeInput(full);
    const zeroChangeNf = rawNullifier(commitments[1] as bigint, inners[1] as bigint);
    await expect(reject({ ...full, bidRelock: zeroChangeNf })).rejects.toThrow(LINE.relockZero);
  });

  it('consumed nullifier of a note not in the tree: wrong root, wrong path, wrong nullifier', async () => {
    const { input } = forgeInput(PARTIAL);
    const calc = (patch: Record<string, unknown>) => calculateWitness('valid_match', { ...input, ...patch });
    await expect(calc({ root_bid: '12345' })).rejects.toThrow(LINE.root);
    await expect(calc({ root_ask: '7' })).rejects.toThrow(LINE.root);
    const path = [...(input.ask_path_elements as string[])];
    path[0] = '999';
    await expect(calc({ ask_path_elements: path })).rejects.toThrow(LINE.root);
    // The bid note's amount is part of its commitment: a larger one (its change balanced) is
    // another note, not in the tree.
    await expect(calc({ bid_amount: '10001', bid_change_amount: '2483' })).rejects.toThrow(LINE.root);
    // The right note, but a nullifier that is not its own.
    await expect(calc({ nullifier_bid: input.nullifier_ask })).rejects.toThrow(LINE.nullifier);
    const indices = [...(input.bid_path_indices as string[])];
    indices[0] = '2';
    await expect(calc({ bid_path_indices: indices })).rejects.toThrow(LINE.boolean);
  });

  it('dropping a non-zero output (slot 0), or a zero-value output with a commitment', async () => {
    for (const slot of [0, 1, 2, 3, 4, 5] as const) {
      await expect(reject({ ...PARTIAL, slotValue: { [slot]: 0n } }), `slot ${slot}`).rejects.toThrow(
        LINE.slot,
      );
    }
    const full = { ...PARTIAL, bidAmount: 7_518n, bidRelock: false };
    const { commitments } = forgeInput(full);
    await expect(reject({ ...full, slotValue: { 1: commitments[1] as bigint } })).rejects.toThrow(LINE.slot);
  });

  it('q = 0, price_scale = 0 and out-of-range trade values are rejected', async () => {
    await expect(reject({ ...PARTIAL, quantity: 0n, bidRelock: false, askRelock: false })).rejects.toThrow(
      LINE.quantityNonZero,
    );
    await expect(
      reject({ ...PARTIAL, priceScale: 0n, quote: 0n, quoteRem: 7_500_000_000n, bidRelock: false }),
    ).rejects.toThrow(LINE.quoteRemLt);
    // A price of 2^64 (with a matching quote) fails the price's range check.
    await expect(reject({ ...PARTIAL, price: 1n << 64n })).rejects.toThrow(LINE.u64);
  });

  it('R1CS: the honest witness stops satisfying the constraints when any public input changes', async () => {
    for (const name of CIRCUITS.valid_match.publicInputs) {
      const wire = publicWire('valid_match', name);
      const tampered = setWire(honest, wire, (getWire(honest, wire) + 1n) % R);
      expect(await r1csSatisfied('valid_match', tampered), name).toBe(false);
    }
  }, 300_000);
});
