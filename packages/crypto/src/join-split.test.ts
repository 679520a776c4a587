import { createHash } from 'node:crypto';
import { FIELD_MODULUS, bytesToHex } from '@nightjar/protocol';
import { buildPoseidon } from 'circomlibjs';
import { describe, expect, it } from 'vitest';
import { seededBytes, seededFieldElements } from '../test/helpers/seeded.js';
import {
  JOIN_SPLIT_INNER_DOMAIN,
  JOIN_SPLIT_MAX_INPUTS,
  JOIN_SPLIT_MAX_OUTPUTS,
  JOIN_SPLIT_MEMO_DOMAIN,
  JOIN_SPLIT_NO_SHARD,
  VALID_JOIN_SPLIT_PUBLIC_INPUTS,
  joinSplitMemoHash,
  joinSplitOutputInner,
  validJoinSplitPublicSignals,
} from './join-split.js';
import { NOTE_MEMO_BYTES } from './note-memo.js';
import { NoteDomain, outputInner, OutputRole } from './notes.js';
import { poseidon } from './poseidon.js';

const valueRange = expect.objectContaining({ code: 'VALUE_OUT_OF_RANGE' });

describe('joinSplitOutputInner', () => {
  it('is Poseidon(7, parent, j) for every slot j, for edge and random parents', () => {
    const parents = [0n, 1n, FIELD_MODULUS - 1n, ...seededFieldElements('js-parent', 4)];
    for (const parent of parents)
      for (let j = 0; j < JOIN_SPLIT_MAX_OUTPUTS; j++)
        expect(joinSplitOutputInner(parent, j), `${parent} / ${j}`).toBe(poseidon([7n, parent, BigInt(j)]));
    expect(JOIN_SPLIT_INNER_DOMAIN).toBe(7n);
  });

  it('uses a domain no DESIGN 3 formula uses, so an output inner is no match output inner', () => {
    expect(Object.values(NoteDomain)).not.toContain(JOIN_SPLIT_INNER_DOMAIN);
    const parent = seededFieldElements('js-domain', 1)[0]!;
    const inners = Array.from({ length: JOIN_SPLIT_MAX_OUTPUTS }, (_, j) => joinSplitOutputInner(parent, j));
    expect(new Set(inners).size).toBe(JOIN_SPLIT_MAX_OUTPUTS);
    for (const role of Object.values(OutputRole)) expect(inners).not.toContain(outputInner(parent, role));
  });

  it("agrees with circomlibjs (the circuits' Poseidon) and pins two vectors", async () => {
    const built = await buildPoseidon();
    const reference = (inputs: bigint[]) => built.F.toObject(built(inputs)) as bigint;
    for (const parent of seededFieldElements('js-circomlib', 3))
      for (let j = 0; j < JOIN_SPLIT_MAX_OUTPUTS; j++)
        expect(joinSplitOutputInner(parent, j)).toBe(reference([7n, parent, BigInt(j)]));
    const hex = (x: bigint) => x.toString(16).padStart(64, '0');
    expect(hex(joinSplitOutputInner(1n, 0))).toBe(
      '0bcecc907e2635aa68f6e8f4aad0ecb23182c0da37c2c2ac8556a3937c230dcc',
    );
    expect(hex(joinSplitOutputInner(123456789n, 7))).toBe(
      '282456576250de2f8259ed9950f03a5ba20a38375624fd45ea9f10c2bb443f0f',
    );
    // Argument order matters: Poseidon(7, j, parent) is something else.
    expect(joinSplitOutputInner(5n, 3)).not.toBe(poseidon([7n, 3n, 5n]));
  });

  it('refuses an index outside 0..7 and a parent outside the field', () => {
    for (const index of [-1, JOIN_SPLIT_MAX_OUTPUTS, 1.5, Number.NaN])
      expect(() => joinSplitOutputInner(1n, index), String(index)).toThrow(valueRange);
    expect(() => joinSplitOutputInner(FIELD_MODULUS, 0)).toThrow(
      expect.objectContaining({ code: 'FIELD_ELEMENT_INVALID' }),
    );
    expect(() => joinSplitOutputInner(-1n, 0)).toThrow(
      expect.objectContaining({ code: 'FIELD_ELEMENT_INVALID' }),
    );
  });
});

describe('joinSplitMemoHash', () => {
  /** Shards of a 1 → 3 split into shards 0, 2 and 1 (slots 0, 1, 3; slot 2 empty). */
  const SHARDS = [0, 2, undefined, 1, undefined, undefined, undefined, undefined];
  const shardBytes = Uint8Array.from([0, 2, 0xff, 1, 0xff, 0xff, 0xff, 0xff]);

  it('is SHA-256(domain ‖ one shard byte per slot ‖ memo) with its first byte zeroed (independent re-derivation)', () => {
    for (let i = 0; i < 4; i++) {
      const memo = seededBytes('js-memo', i, NOTE_MEMO_BYTES);
      const digest = createHash('sha256')
        .update(Buffer.from(JOIN_SPLIT_MEMO_DOMAIN))
        .update(shardBytes)
        .update(memo)
        .digest();
      digest[0] = 0;
      expect(joinSplitMemoHash(memo, SHARDS)).toBe(BigInt('0x' + digest.toString('hex')));
    }
    expect(JOIN_SPLIT_MEMO_DOMAIN).toBe('nightjar-join-split-memo-v1');
    expect(JOIN_SPLIT_NO_SHARD).toBe(0xff);
  });

  it('pins a vector: the empty memo, every output in shard 0', () => {
    const digest = createHash('sha256')
      .update('nightjar-join-split-memo-v1')
      .update(new Uint8Array(8))
      .digest();
    expect(joinSplitMemoHash(new Uint8Array(0), Array(8).fill(0)).toString(16).padStart(64, '0')).toBe(
      '00' + digest.toString('hex').slice(2),
    );
  });

  it('is below 2^248 (so below r, a valid public input) for many memos', () => {
    for (let i = 0; i < 256; i++) {
      const h = joinSplitMemoHash(seededBytes('js-range', i, NOTE_MEMO_BYTES), SHARDS);
      expect(h < 1n << 248n).toBe(true);
      expect(h < FIELD_MODULUS).toBe(true);
    }
  });

  it('changes when any one byte of the memo changes, or when it is truncated or extended', () => {
    const memo = seededBytes('js-flip', 0, NOTE_MEMO_BYTES);
    const base = joinSplitMemoHash(memo, SHARDS);
    const seen = new Set<bigint>([base]);
    for (let i = 0; i < memo.length; i++) {
      const tampered = Uint8Array.from(memo);
      tampered[i] = tampered[i]! ^ (1 << (i % 8));
      const h = joinSplitMemoHash(tampered, SHARDS);
      expect(h, `byte ${i}`).not.toBe(base);
      seen.add(h);
    }
    expect(seen.size).toBe(memo.length + 1);
    expect(joinSplitMemoHash(memo.subarray(0, memo.length - 1), SHARDS)).not.toBe(base);
    expect(joinSplitMemoHash(Uint8Array.from([...memo, 0]), SHARDS)).not.toBe(base);
    // Deterministic: the same bytes give the same hash (a copy, not the same buffer).
    expect(joinSplitMemoHash(Uint8Array.from(memo), SHARDS)).toBe(base);
    // Hashing does not modify the caller's memo.
    expect(bytesToHex(memo)).toBe(bytesToHex(seededBytes('js-flip', 0, NOTE_MEMO_BYTES)));
  });

  it("changes when any output moves to another shard or a slot's presence changes (a copy cannot re-route outputs)", () => {
    const memo = seededBytes('js-shards', 0, NOTE_MEMO_BYTES);
    const base = joinSplitMemoHash(memo, SHARDS);
    for (let j = 0; j < 8; j++) {
      const moved = [...SHARDS];
      moved[j] = moved[j] === undefined ? 0 : (moved[j]! + 1) % 4;
      expect(joinSplitMemoHash(memo, moved), `slot ${j}`).not.toBe(base);
    }
  });

  it('refuses a shard list that is not 8 slots of 0..254', () => {
    const memo = new Uint8Array(4);
    expect(() => joinSplitMemoHash(memo, [0])).toThrow(
      expect.objectContaining({ code: 'VALUE_OUT_OF_RANGE' }),
    );
    for (const bad of [-1, 255, 1.5])
      expect(() => joinSplitMemoHash(memo, [bad, ...Array(7).fill(undefined)])).toThrow(
        expect.objectContaining({ code: 'VALUE_OUT_OF_RANGE' }),
      );
  });
});

describe('validJoinSplitPublicSignals', () => {
  const [r0, r1, n0, n1, c0, c3, m] = seededFieldElements('js-signals', 7) as [
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  const outputs = [c0, 0n, 0n, c3, 0n, 0n, 0n, 0n];

  it('lists the documented 17 public inputs in circuit order', () => {
    expect([...VALID_JOIN_SPLIT_PUBLIC_INPUTS]).toEqual([
      'merkle_roots[0]',
      'merkle_roots[1]',
      'merkle_roots[2]',
      'merkle_roots[3]',
      'nullifiers[0]',
      'nullifiers[1]',
      'nullifiers[2]',
      'nullifiers[3]',
      'output_commitments[0]',
      'output_commitments[1]',
      'output_commitments[2]',
      'output_commitments[3]',
      'output_commitments[4]',
      'output_commitments[5]',
      'output_commitments[6]',
      'output_commitments[7]',
      'memo_hash',
    ]);
    expect(JOIN_SPLIT_MAX_INPUTS).toBe(4);
    expect(JOIN_SPLIT_MAX_OUTPUTS).toBe(8);
  });

  it('roots, then nullifiers (unused input slots 0), then the 8 output slots, then the memo hash', () => {
    const signals = validJoinSplitPublicSignals({
      inputs: [
        { merkleRoot: r0, nullifier: n0 },
        { merkleRoot: r1, nullifier: n1 },
      ],
      outputs,
      memoHash: m,
    });
    expect(signals).toEqual([r0, r1, 0n, 0n, n0, n1, 0n, 0n, ...outputs, m]);
    expect(signals).toHaveLength(VALID_JOIN_SPLIT_PUBLIC_INPUTS.length);
    const four = validJoinSplitPublicSignals({
      inputs: [r0, r1, n0, n1].map((x, i) => ({ merkleRoot: x, nullifier: BigInt(i + 1) })),
      outputs,
      memoHash: m,
    });
    expect(four.slice(0, 8)).toEqual([r0, r1, n0, n1, 1n, 2n, 3n, 4n]);
  });

  it('refuses 0 or 5 inputs and any output count but 8', () => {
    const input = { merkleRoot: r0, nullifier: n0 };
    expect(() => validJoinSplitPublicSignals({ inputs: [], outputs, memoHash: m })).toThrow(valueRange);
    expect(() => validJoinSplitPublicSignals({ inputs: Array(5).fill(input), outputs, memoHash: m })).toThrow(
      valueRange,
    );
    for (const n of [0, 1, 7, 9])
      expect(() =>
        validJoinSplitPublicSignals({ inputs: [input], outputs: Array<bigint>(n).fill(0n), memoHash: m }),
      ).toThrow(valueRange);
  });
});
