import { randomBytes } from 'node:crypto';
import {
  bigIntToBytes,
  ed25519PublicKey,
  ed25519Sign,
  FIELD_MODULUS,
  mintToFields,
} from '@nightjar/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadToy7Fixture, loadValidInputV2Fixture } from '../../test/fixtures/groth16/index.js';
import { noteCommitment, noteNullifier, openingHash } from '../notes.js';
import { noteUseTag, orderDigest, type OrderTerms } from '../order-digest.js';
import { AdaptiveBatcher } from './adaptive-batcher.js';
import {
  decodeOrderResults,
  encodeOrderCheck,
  finishOrderChecks,
  ORDER_RECORD_BYTES,
  prepareOrderChecks,
  type OrderCheckItem,
  type OrderNote,
} from './order-check.js';

const mint = Uint8Array.from(randomBytes(32));
const { mintHi, mintLo } = mintToFields(mint);
const seed = Uint8Array.from(randomBytes(32));
const digest = Uint8Array.from(randomBytes(32));
const signature = { publicKey: ed25519PublicKey(seed), digest, signature: ed25519Sign(seed, digest) };

function note(amount = 1000n): OrderNote & { commitment: bigint; innerHash: bigint } {
  const ownerCommitment = 11n;
  const innerHash = 22n;
  const commitment = noteCommitment({
    mintLo,
    mintHi,
    amount,
    openingHash: openingHash(ownerCommitment, innerHash),
  });
  return { ownerCommitment, innerHash, mint, amount, commitment };
}

function prepare(checks: OrderCheckItem[]) {
  const records = new Uint8Array(checks.length * ORDER_RECORD_BYTES);
  checks.forEach((c, i) => encodeOrderCheck(c, records, i * ORDER_RECORD_BYTES));
  return prepareOrderChecks(records, checks.length);
}

const terms: OrderTerms = {
  marketLo: (1n << 128n) - 1n,
  marketHi: 0xabcdefn,
  side: 1,
  amount: (1n << 64n) - 1n,
  priceLimit: 150_000_000n,
  minFillSize: 7n,
  expirySlot: 123_456n,
  orderId: (1n << 128n) - 2n,
};

describe('order checks: opening, signature, then proof, first failure reported', () => {
  const proof = { proof: new Uint8Array(256).fill(3), merkleRoot: 99n, order: terms };

  it('passes a good opening and signature and hands the proof on with [use_tag, root, nullifier] of this order', () => {
    const n = note();
    const prepared = prepare([{ note: n, opening: true, signature, proof }]);
    expect(prepared.owners).toEqual([0]);
    const inputs = publicInputsOf(prepared.proofs[0]!.publicInputs as Uint8Array);
    const nullifier = noteNullifier(n.commitment, n.innerHash);
    const useTag = noteUseTag(n.commitment, n.innerHash, orderDigest(terms));
    expect(inputs).toEqual([useTag, 99n, nullifier]);
    const outcome = decodeOrderResults(finishOrderChecks(prepared, [true]), 1)[0];
    expect(outcome).toEqual({ ok: true, nullifier, useTag });
    expect(
      decodeOrderResults(finishOrderChecks(prepare([{ note: n, opening: true, proof }]), [false]), 1),
    ).toEqual([{ ok: false, failed: 'proof' }]);
  });

  it('stops at the first failing step, in the spec order, and skips steps that were not asked for', () => {
    const wrongAmount = { ...note(), amount: 1001n };
    const badSignature = { ...signature, signature: new Uint8Array(64).fill(1) };
    const prepared = prepare([
      { note: wrongAmount, opening: true, signature: badSignature, proof },
      { note: note(), opening: true, signature: badSignature, proof },
      { note: wrongAmount, opening: false, signature },
      { signature },
      { signature: badSignature },
    ]);
    expect(prepared.proofs).toHaveLength(0);
    expect(decodeOrderResults(finishOrderChecks(prepared, []), 5)).toEqual([
      { ok: false, failed: 'opening' },
      { ok: false, failed: 'signature' },
      { ok: true, nullifier: undefined, useTag: undefined },
      { ok: true, nullifier: undefined, useTag: undefined },
      { ok: false, failed: 'signature' },
    ]);
  });

  it('takes field elements as bytes too, and a record word >= r fails its order, not the job', () => {
    const n = note();
    const asBytes = { ...n, commitment: bigIntToBytes(n.commitment), innerHash: bigIntToBytes(n.innerHash) };
    const records = new Uint8Array(2 * ORDER_RECORD_BYTES);
    encodeOrderCheck({ note: asBytes, opening: true }, records, 0);
    encodeOrderCheck({ note: n, opening: true }, records, ORDER_RECORD_BYTES);
    // Corrupt the second record's inner hash to 0xff…ff (>= r), as no encoder would write it.
    records.fill(0xff, ORDER_RECORD_BYTES + 33, ORDER_RECORD_BYTES + 65);
    const prepared = prepareOrderChecks(records, 2);
    expect(decodeOrderResults(finishOrderChecks(prepared, []), 2)).toEqual([
      { ok: true, nullifier: undefined, useTag: undefined },
      { ok: false, failed: 'opening' },
    ]);
    const r = bigIntToBytes(FIELD_MODULUS);
    expect(() => encodeOrderCheck({ note: { ...n, commitment: r }, opening: true }, records, 0)).toThrow(
      RangeError,
    );
  });

  it('derives a different use tag for every other term of the order (the proof backs one order)', () => {
    const n = note();
    const tagOf = (order: OrderTerms) =>
      publicInputsOf(
        prepare([{ note: n, proof: { ...proof, order } }]).proofs[0]!.publicInputs as Uint8Array,
      )[0];
    const others: OrderTerms[] = [
      { ...terms, marketLo: 1n },
      { ...terms, marketHi: 1n },
      { ...terms, side: 0 },
      { ...terms, amount: 1n },
      { ...terms, priceLimit: 1n },
      { ...terms, minFillSize: 1n },
      { ...terms, expirySlot: 1n },
      { ...terms, orderId: 1n },
    ];
    const tags = new Set([tagOf(terms), ...others.map(tagOf)]);
    expect(tags.size).toBe(others.length + 1);
    for (const order of others)
      expect(tagOf(order)).toBe(noteUseTag(n.commitment, n.innerHash, orderDigest(order)));
  });

  it('fails the proof step of a record whose side byte no encoder writes', () => {
    const records = new Uint8Array(ORDER_RECORD_BYTES);
    const bid = new Uint8Array(ORDER_RECORD_BYTES);
    encodeOrderCheck({ note: note(), proof }, records, 0);
    encodeOrderCheck({ note: note(), proof: { ...proof, order: { ...terms, side: 0 } } }, bid, 0);
    // The one byte where an ask's record differs from the same bid's is the side byte.
    const side = records.findIndex((b, i) => b !== bid[i]);
    expect(records.filter((b, i) => b !== bid[i])).toEqual(Uint8Array.of(1));
    records[side] = 2;
    const prepared = prepareOrderChecks(records, 1);
    expect(prepared.proofs).toHaveLength(0);
    expect(decodeOrderResults(finishOrderChecks(prepared, []), 1)).toEqual([{ ok: false, failed: 'proof' }]);
  });

  it('refuses malformed checks when encoding', () => {
    const out = new Uint8Array(ORDER_RECORD_BYTES);
    expect(() => encodeOrderCheck({ opening: true }, out, 0)).toThrow(RangeError);
    expect(() => encodeOrderCheck({ note: { ...note(), commitment: -1n }, opening: true }, out, 0)).toThrow(
      RangeError,
    );
    expect(() =>
      encodeOrderCheck({ signature: { ...signature, digest: new Uint8Array(31) } }, out, 0),
    ).toThrow(RangeError);
    for (const order of [
      { ...terms, amount: 1n << 64n },
      { ...terms, orderId: 1n << 128n },
      { ...terms, side: 2 as 0 },
      { ...terms, expirySlot: -1n },
    ])
      expect(() => encodeOrderCheck({ note: note(), proof: { ...proof, order } }, out, 0)).toThrow(
        RangeError,
      );
  });
});

describe('order checks through the worker-pool batcher, with a real VALID_INPUT v2 proof', () => {
  let batcher: AdaptiveBatcher;
  const real = loadValidInputV2Fixture();
  const realCheck = (order: OrderTerms = real.order): OrderCheckItem => ({
    note: real.note,
    opening: true,
    signature,
    proof: { proof: real.proof, merkleRoot: real.merkleRoot, order },
  });
  beforeAll(async () => {
    batcher = await AdaptiveBatcher.create({
      keys: { VALID_INPUT: real.vk, VALID_SPEND: loadToy7Fixture().vk },
      size: 1,
      defaultKeyId: 'VALID_INPUT',
    });
  });
  afterAll(async () => {
    await batcher.close();
  });

  it('accepts the proof for the order it was made for, with its nullifier and use tag', async () => {
    expect(await batcher.checkOrder(realCheck())).toEqual({
      ok: true,
      nullifier: real.publicInputs[2],
      useTag: real.publicInputs[0],
    });
  });

  it('refuses the same proof for any other order: price, amount, order id, side, expiry, min fill, market', async () => {
    const o = real.order;
    const others: OrderTerms[] = [
      { ...o, priceLimit: o.priceLimit + 1n },
      { ...o, amount: o.amount * 2n },
      { ...o, orderId: o.orderId ^ 1n },
      { ...o, side: o.side === 0 ? 1 : 0 },
      { ...o, expirySlot: o.expirySlot + 1000n },
      { ...o, minFillSize: 0n },
      { ...o, marketLo: o.marketLo + 1n },
    ];
    const outcomes = await Promise.all(others.map((order) => batcher.checkOrder(realCheck(order))));
    expect(outcomes).toEqual(others.map(() => ({ ok: false, failed: 'proof' })));
    // Another root than the one proved: refused too.
    expect(
      await batcher.checkOrder({ ...realCheck(), proof: { ...realCheck().proof!, merkleRoot: 5n } }),
    ).toEqual({ ok: false, failed: 'proof' });
  });

  it('runs many orders as batched worker jobs, each with its own outcome', async () => {
    const fixtureProof = real.proof;
    const checks: OrderCheckItem[] = [];
    for (let i = 0; i < 40; i++) {
      const kind = i % 4;
      checks.push(
        kind === 0
          ? { note: note(), opening: true, signature }
          : kind === 1
            ? { note: { ...note(), amount: 5n }, opening: true, signature }
            : kind === 2
              ? { signature: { ...signature, publicKey: new Uint8Array(32) } }
              : // A genuine proof, but for another note than this one: the proof step fails.
                {
                  note: note(),
                  opening: true,
                  signature,
                  proof: { proof: fixtureProof, merkleRoot: real.merkleRoot, order: real.order },
                },
      );
    }
    const outcomes = await Promise.all(checks.map((c) => batcher.checkOrder(c)));
    outcomes.forEach((o, i) => {
      const expected = [
        { ok: true, nullifier: undefined, useTag: undefined },
        { ok: false, failed: 'opening' },
        { ok: false, failed: 'signature' },
        { ok: false, failed: 'proof' },
      ][i % 4];
      expect(o).toEqual(expected);
    });
    expect(batcher.stats().largestBatch).toBeGreaterThan(1);
    // The fixture proof itself is fine: the failure above was the binding to the order's note.
    expect(await batcher.verify(fixtureProof, real.publicInputs)).toBe(true);
  });

  it('refuses order checks under a key that is not VALID_INPUT-shaped', async () => {
    await expect(batcher.checkOrder({ signature }, 'VALID_SPEND')).rejects.toMatchObject({
      code: 'GROTH16_UNKNOWN_KEY',
    });
  });
});

function publicInputsOf(bytes: Uint8Array): bigint[] {
  const out: bigint[] = [];
  for (let i = 0; i < bytes.length; i += 32)
    out.push(BigInt('0x' + Buffer.from(bytes.subarray(i, i + 32)).toString('hex')));
  return out;
}
