/**
 * VALID_INPUT v2 through its compiled witness calculator and r1cs: the owner's lock proof for one
 * order. Honest notes and orders give [use_tag, merkle_root, nullifier] as the crypto formulas do;
 * forged inputs (terms out of range, another commitment, root or nullifier, a zero note) are
 * rejected, and a witness claiming another order's use tag does not satisfy the r1cs.
 */
import {
  MerkleTree,
  VALID_INPUT_V2_PUBLIC_INPUTS,
  deriveNote,
  noteUseTag,
  orderDigest,
  ownerCommitment,
  type OrderTerms,
} from '@nightjar/crypto';
import { describe, expect, it } from 'vitest';

import { validInputV2Witness, type ValidInputV2Params } from '../src/lock-witness.js';
import { SettlementWitnessError } from '../src/witness-v2.js';
import { assertAt, getWire, num2BitsAssert, setWire } from './helpers.js';
import { ASK, ASK_KEY, BASE_MINT, BID, BID_KEY, QUOTE_MINT } from './match-fixture.js';
import { ASK_ORDER, BID_ORDER, terms } from './match-v2-fixture.js';
import { circuitV2Suite, r1csSatisfiedV2, witnessV2 } from './v2-helpers.js';

const F = 'valid_input_v2.circom';
const LIB = 'settlement_v2.circom';
const LINE = {
  commitment: assertAt('ValidInputV2', F, 'note.commitment === note_commitment'),
  nullifier: assertAt('ValidInputV2', F, 'note.nullifier === nullifier'),
  root: assertAt('NoteInTree', LIB, 'tree.root === merkle_root'),
  nonZero: assertAt('NonZero', LIB, 'in * inv === 1'),
  side: assertAt('CheckedOrderDigest', LIB, 'side * (side - 1) === 0'),
  u64: num2BitsAssert('U64', 'bits.in <== in', LIB),
  u128: num2BitsAssert('U128', 'bits.in <== in', LIB),
};

const tree = new MerkleTree();
const bidNote = deriveNote({
  mint: QUOTE_MINT,
  amount: 10_000n,
  ownerCommitment: ownerCommitment(BID_KEY),
  noteInnerHash: BID.inner,
});
const askNote = deriveNote({
  mint: BASE_MINT,
  amount: 5_000n,
  ownerCommitment: ownerCommitment(ASK_KEY),
  noteInnerHash: ASK.inner,
});
for (const leaf of [11n, bidNote.noteCommitment, 12n, 13n, askNote.noteCommitment]) tree.append(leaf);

const bidParams = (order: OrderTerms = terms(0, BID_ORDER)): ValidInputV2Params => ({
  mint: QUOTE_MINT,
  amount: 10_000n,
  spendingKey: BID_KEY,
  noteInnerHash: BID.inner,
  path: { siblings: tree.proof(1).siblings, leafIndex: 1 },
  merkleRoot: tree.root,
  order,
});
const askParams: ValidInputV2Params = {
  mint: BASE_MINT,
  amount: 5_000n,
  spendingKey: ASK_KEY,
  noteInnerHash: ASK.inner,
  path: { siblings: tree.proof(4).siblings, leafIndex: 4 },
  order: terms(1, ASK_ORDER),
};
const MAX_TERMS: OrderTerms = {
  marketLo: (1n << 128n) - 1n,
  marketHi: (1n << 128n) - 1n,
  side: 1,
  amount: (1n << 64n) - 1n,
  priceLimit: (1n << 64n) - 1n,
  minFillSize: (1n << 64n) - 1n,
  expirySlot: (1n << 64n) - 1n,
  orderId: (1n << 128n) - 1n,
};

const run = (input: Record<string, unknown>) => witnessV2('valid_input_v2', input);
const forged = (patch: Record<string, string>) =>
  run({ ...validInputV2Witness(bidParams()).input, ...patch });

describe('VALID_INPUT v2 circuit', () => {
  circuitV2Suite('valid_input_v2', 7_581);

  it.each([
    ['a bid', bidParams()],
    ['an ask', askParams],
    ['the largest terms', bidParams(MAX_TERMS)],
  ])('honest: %s gives [use_tag, merkle_root, nullifier] as the formulas do', async (_label, params) => {
    const w = validInputV2Witness(params);
    const wtns = await run(w.input);
    expect(await r1csSatisfiedV2('valid_input_v2', wtns)).toBe(true);
    // use_tag is the one output (wire 1), then the public inputs in declaration order.
    const wires = VALID_INPUT_V2_PUBLIC_INPUTS.map((_, i) => getWire(wtns, i + 1));
    expect(wires).toEqual(w.publicInputs);
    const note = params === askParams ? askNote : bidNote;
    expect(w.publicInputs).toEqual([
      noteUseTag(note.noteCommitment, params.noteInnerHash, orderDigest(params.order)),
      tree.root,
      note.nullifier,
    ]);
  });

  it('takes exactly the input signals DESIGN 3 names, so any client can prove', () => {
    const names = Object.keys(validInputV2Witness(bidParams()).input).sort();
    const design =
      'merkle_root, note_commitment, nullifier, mint_lo, mint_hi, amount, spending_key, note_inner_hash, ' +
      'path_elements, path_indices, order_side, order_amount, order_price_limit, order_min_fill_size, ' +
      'order_expiry_slot, order_id, market_lo, market_hi';
    expect(names).toEqual(design.split(', ').sort());
  });

  it('binds exactly one order: a witness claiming another order’s use tag fails the r1cs', async () => {
    const wtns = await run(validInputV2Witness(bidParams()).input);
    const others: OrderTerms[] = [
      terms(1, BID_ORDER),
      terms(0, { ...BID_ORDER, priceLimit: BID_ORDER.priceLimit + 1n }),
      terms(0, { ...BID_ORDER, amount: BID_ORDER.amount + 1n }),
    ];
    for (const order of others) {
      const tag = noteUseTag(bidNote.noteCommitment, BID.inner, orderDigest(order));
      expect(await r1csSatisfiedV2('valid_input_v2', setWire(wtns, 1, tag))).toBe(false);
    }
  });

  it('rejects order terms out of range', async () => {
    await expect(forged({ order_side: '2' })).rejects.toThrow(LINE.side);
    await expect(forged({ order_amount: (1n << 64n).toString() })).rejects.toThrow(LINE.u64);
    await expect(forged({ order_price_limit: (1n << 64n).toString() })).rejects.toThrow(LINE.u64);
    await expect(forged({ order_expiry_slot: (1n << 64n).toString() })).rejects.toThrow(LINE.u64);
    await expect(forged({ order_id: (1n << 128n).toString() })).rejects.toThrow(LINE.u128);
    await expect(forged({ market_lo: (1n << 128n).toString() })).rejects.toThrow(LINE.u128);
  });

  it('rejects another commitment, nullifier or root, a zero note, another owner', async () => {
    await expect(forged({ note_commitment: askNote.noteCommitment.toString() })).rejects.toThrow(
      LINE.commitment,
    );
    await expect(forged({ nullifier: askNote.nullifier.toString() })).rejects.toThrow(LINE.nullifier);
    await expect(forged({ merkle_root: '12345' })).rejects.toThrow(LINE.root);
    await expect(forged({ amount: '0' })).rejects.toThrow(LINE.nonZero);
    await expect(forged({ spending_key: ASK_KEY.toString() })).rejects.toThrow(LINE.root);
  });

  it('the builder refuses what the circuit would, with a stable code', () => {
    const code = (p: ValidInputV2Params) => {
      try {
        validInputV2Witness(p);
      } catch (err) {
        expect(err).toBeInstanceOf(SettlementWitnessError);
        return (err as SettlementWitnessError).code;
      }
      return 'accepted';
    };
    expect(code({ ...bidParams(), amount: 0n })).toBe('amount_zero');
    expect(code({ ...bidParams(), amount: 9_999n })).toBe('root_mismatch');
    expect(code(bidParams({ ...terms(0, BID_ORDER), orderId: 1n << 128n }))).toBe('order_terms');
    expect(code(bidParams({ ...terms(0, BID_ORDER), side: 2 as 0 }))).toBe('order_terms');
    expect(code({ ...bidParams(), path: { siblings: [], leafIndex: 1 } })).toBe('path');
    expect(code({ ...bidParams(), spendingKey: -1n })).toBe('field');
    expect(code({ ...bidParams(), mint: new Uint8Array(31) })).toBe('mint');
  });
});
