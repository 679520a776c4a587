import { createHash } from 'node:crypto';
import { FIELD_MODULUS } from '@nightjar/protocol';
import { buildPoseidon } from 'circomlibjs';
import { describe, expect, it } from 'vitest';
import { seededBytes, seededFieldElements } from '../test/helpers/seeded.js';
import { FILL_MEMO_BYTES } from './memo.js';
import { NOTE_MEMO_BYTES } from './note-memo.js';
import { NoteDomain } from './notes.js';
import {
  SettlementDomain,
  changeOutputInner,
  marketToFields,
  noteUseTag,
  orderDigest,
  orderIdToField,
  remainderDigest,
  withdrawalChangeInner,
  type OrderTerms,
} from './order-digest.js';
import { poseidon } from './poseidon.js';
import {
  MATCH_MEMO_DOMAIN,
  SPEND_MEMO_DOMAIN,
  matchMemoHash,
  spendChangeMemoHash,
  validMatchV2PublicSignals,
  VALID_MATCH_V2_PUBLIC_INPUTS,
  VALID_SPEND_V2_PUBLIC_INPUTS,
} from './valid-match-v2.js';

const valueRange = expect.objectContaining({ code: 'VALUE_OUT_OF_RANGE' });
const U64_MAX = (1n << 64n) - 1n;
const U128_MAX = (1n << 128n) - 1n;

const TERMS: OrderTerms = {
  marketLo: 0x1112131415161718191a1b1c1d1e1f20n,
  marketHi: 0x0102030405060708090a0b0c0d0e0f10n,
  side: 1,
  amount: 4_000n,
  priceLimit: 2_400_000n,
  minFillSize: 500n,
  expirySlot: 8_000n,
  orderId: 0xf0e0d0c0b0a090807060504030201000n,
};

describe('orderDigest', () => {
  it('is circomlib Poseidon(10, market_lo, market_hi, side, amount, price_limit, min_fill, expiry, order_id)', async () => {
    const built = await buildPoseidon();
    const reference = (inputs: bigint[]) => built.F.toObject(built(inputs)) as bigint;
    const max: OrderTerms = {
      ...TERMS,
      marketLo: U128_MAX,
      marketHi: U128_MAX,
      orderId: U128_MAX,
      amount: U64_MAX,
    };
    for (const t of [TERMS, { ...TERMS, side: 0 as const }, max]) {
      const fields = [
        t.marketLo,
        t.marketHi,
        BigInt(t.side),
        t.amount,
        t.priceLimit,
        t.minFillSize,
        t.expirySlot,
        t.orderId,
      ];
      expect(orderDigest(t)).toBe(reference([10n, ...fields]));
    }
    expect(SettlementDomain).toEqual({ useTag: 8n, withdrawalChange: 9n, orderDigest: 10n });
  });

  it('changes with every term', () => {
    const base = orderDigest(TERMS);
    const changed: Partial<OrderTerms>[] = [
      { marketLo: TERMS.marketLo + 1n },
      { marketHi: TERMS.marketHi + 1n },
      { side: 0 },
      { amount: TERMS.amount - 1n },
      { priceLimit: TERMS.priceLimit + 1n },
      { minFillSize: TERMS.minFillSize + 1n },
      { expirySlot: TERMS.expirySlot + 1n },
      { orderId: TERMS.orderId + 1n },
    ];
    expect(new Set([base, ...changed.map((c) => orderDigest({ ...TERMS, ...c }))]).size).toBe(
      changed.length + 1,
    );
  });

  it('refuses terms the circuits would reject', () => {
    const bad: Partial<OrderTerms>[] = [
      { side: 2 as 0 },
      { amount: U64_MAX + 1n },
      { priceLimit: -1n },
      { minFillSize: U64_MAX + 1n },
      { expirySlot: U64_MAX + 1n },
      { orderId: U128_MAX + 1n },
      { marketLo: U128_MAX + 1n },
      { marketHi: -1n },
    ];
    for (const b of bad)
      expect(
        () => orderDigest({ ...TERMS, ...b }),
        JSON.stringify(b, (_, v) => String(v)),
      ).toThrow(valueRange);
  });

  it('remainderDigest is the digest with the amount left, and refuses a fill above it', () => {
    expect(remainderDigest(TERMS, 1_000n)).toBe(orderDigest({ ...TERMS, amount: 3_000n }));
    expect(remainderDigest(TERMS, TERMS.amount)).toBe(orderDigest({ ...TERMS, amount: 0n }));
    expect(() => remainderDigest(TERMS, TERMS.amount + 1n)).toThrow(valueRange);
  });
});

describe('use tag, change and withdrawal inners', () => {
  it('are Poseidon(8, commitment, inner, digest), Poseidon(4, parent, 2, digest), Poseidon(9, inner)', () => {
    const [c, inner, digest] = seededFieldElements('use-tag', 3) as [bigint, bigint, bigint];
    expect(noteUseTag(c, inner, digest)).toBe(poseidon([8n, c, inner, digest]));
    expect(changeOutputInner(inner, digest)).toBe(poseidon([NoteDomain.outputInner, inner, 2n, digest]));
    expect(withdrawalChangeInner(inner)).toBe(poseidon([9n, inner]));
    expect(() => noteUseTag(FIELD_MODULUS, inner, digest)).toThrow(
      expect.objectContaining({ code: 'FIELD_ELEMENT_INVALID' }),
    );
  });

  it('a change inner never equals a trade-out or fee inner of the same parent', () => {
    const [parent, digest] = seededFieldElements('change-inner', 2) as [bigint, bigint];
    const change = changeOutputInner(parent, digest);
    expect(change).not.toBe(poseidon([4n, parent, 1n]));
    expect(change).not.toBe(poseidon([4n, parent, 2n]));
    expect(change).not.toBe(poseidon([4n, parent, 3n]));
  });
});

describe('order id and market fields', () => {
  it('reads the order id big-endian and splits the market like a mint', () => {
    const id = Uint8Array.from({ length: 16 }, (_, i) => i + 1);
    expect(orderIdToField(id)).toBe(0x0102030405060708090a0b0c0d0e0f10n);
    expect(() => orderIdToField(new Uint8Array(15))).toThrow(valueRange);
    const market = Uint8Array.from({ length: 32 }, (_, i) => i);
    expect(marketToFields(market)).toEqual({
      marketHi: 0x000102030405060708090a0b0c0d0e0fn,
      marketLo: 0x101112131415161718191a1b1c1d1e1fn,
    });
    expect(() => marketToFields(new Uint8Array(33))).toThrow(valueRange);
  });
});

describe('matchMemoHash', () => {
  const bid = seededBytes('memo-bid', 0, FILL_MEMO_BYTES);
  const ask = seededBytes('memo-ask', 0, FILL_MEMO_BYTES);
  const shards = [0, 1, 2, 3, 4, 255];

  it('is SHA-256(domain ‖ six shard bytes ‖ bid memo ‖ ask memo) with its first byte zeroed', () => {
    const digest = createHash('sha256')
      .update(MATCH_MEMO_DOMAIN)
      .update(Uint8Array.from(shards))
      .update(bid)
      .update(ask)
      .digest();
    digest[0] = 0;
    const h = matchMemoHash(bid, ask, shards);
    expect(h).toBe(BigInt('0x' + digest.toString('hex')));
    expect(h < FIELD_MODULUS).toBe(true);
  });

  it('binds each memo, their order and every shard', () => {
    const base = matchMemoHash(bid, ask, shards);
    expect(matchMemoHash(ask, bid, shards)).not.toBe(base);
    expect(matchMemoHash(bid, ask, [1, 0, 2, 3, 4, 255])).not.toBe(base);
    const tampered = Uint8Array.from(ask);
    tampered[FILL_MEMO_BYTES - 1] = tampered[FILL_MEMO_BYTES - 1]! ^ 1;
    expect(matchMemoHash(bid, tampered, shards)).not.toBe(base);
  });

  it('refuses memos of another length and shards that are not six bytes', () => {
    expect(() => matchMemoHash(bid.subarray(1), ask, shards)).toThrow(valueRange);
    expect(() => matchMemoHash(bid, ask, shards.slice(1))).toThrow(valueRange);
    expect(() => matchMemoHash(bid, ask, [0, 1, 2, 3, 4, 256])).toThrow(valueRange);
  });
});

describe('spendChangeMemoHash (VALID_SPEND v2 change_memo_hash)', () => {
  const memo = seededBytes('spend-memo', 0, NOTE_MEMO_BYTES);

  it('is SHA-256(domain ‖ shard byte ‖ change memo) with its first byte zeroed; 0 without change', () => {
    const digest = createHash('sha256')
      .update(SPEND_MEMO_DOMAIN)
      .update(Uint8Array.of(7))
      .update(memo)
      .digest();
    digest[0] = 0;
    const h = spendChangeMemoHash({ treeId: 7, memo });
    expect(h).toBe(BigInt('0x' + digest.toString('hex')));
    expect(h < FIELD_MODULUS).toBe(true);
    expect(spendChangeMemoHash(undefined)).toBe(0n);
    // The last public input, so the first eight keep their positions.
    expect(VALID_SPEND_V2_PUBLIC_INPUTS.at(-1)).toBe('change_memo_hash');
    expect(VALID_SPEND_V2_PUBLIC_INPUTS.indexOf('change_commitment')).toBe(7);
  });

  it('binds the shard and every memo byte, and is not a match memo hash', () => {
    const base = spendChangeMemoHash({ treeId: 1, memo });
    expect(spendChangeMemoHash({ treeId: 0, memo })).not.toBe(base);
    const tampered = Uint8Array.from(memo);
    tampered[NOTE_MEMO_BYTES - 1] = tampered[NOTE_MEMO_BYTES - 1]! ^ 1;
    expect(spendChangeMemoHash({ treeId: 1, memo: tampered })).not.toBe(base);
    expect(SPEND_MEMO_DOMAIN).not.toBe(MATCH_MEMO_DOMAIN);
  });

  it('refuses a memo of another length and a shard outside 0..255', () => {
    expect(() => spendChangeMemoHash({ treeId: 1, memo: memo.subarray(1) })).toThrow(valueRange);
    expect(() => spendChangeMemoHash({ treeId: 1, memo: seededBytes('m', 0, FILL_MEMO_BYTES) })).toThrow(
      valueRange,
    );
    expect(() => spendChangeMemoHash({ treeId: 256, memo })).toThrow(valueRange);
    expect(() => spendChangeMemoHash({ treeId: -1, memo })).toThrow(valueRange);
  });
});

describe('validMatchV2PublicSignals', () => {
  it('lays the values out in VALID_MATCH_V2_PUBLIC_INPUTS order', () => {
    const market = Uint8Array.from({ length: 32 }, (_, i) => i);
    const base = Uint8Array.from({ length: 32 }, (_, i) => 0x40 + i);
    const quote = Uint8Array.from({ length: 32 }, (_, i) => 0x80 + i);
    const signals = validMatchV2PublicSignals({
      bidUseTag: 1n,
      askUseTag: 2n,
      marketId: market,
      baseMint: base,
      quoteMint: quote,
      priceScale: 3n,
      feeBps: 4n,
      feeOwnerCommitment: 5n,
      settleBySlot: 6n,
      outputs: [7n, 8n, 9n, 10n, 11n, 12n],
      memoHash: 13n,
    });
    const byName = Object.fromEntries(VALID_MATCH_V2_PUBLIC_INPUTS.map((n, i) => [n, signals[i]]));
    expect(signals).toHaveLength(VALID_MATCH_V2_PUBLIC_INPUTS.length);
    expect(byName).toMatchObject({
      bid_use_tag: 1n,
      ask_use_tag: 2n,
      market_lo: marketToFields(market).marketLo,
      market_hi: marketToFields(market).marketHi,
      price_scale: 3n,
      fee_bps: 4n,
      fee_owner_commitment: 5n,
      settle_by_slot: 6n,
      bid_trade_out: 7n,
      ask_fee: 12n,
      memo_hash: 13n,
    });
  });
});
