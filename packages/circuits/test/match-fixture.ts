/**
 * Settlement test fixtures: two parties (the bid pays in the quote mint, the ask in the base mint)
 * with their keys and note inners, a fee owner, an attacker, and raw note formulas with no range
 * checks, so that tests can commit to out-of-range (wrapped) amounts.
 */
import { ownerCommitment, poseidon } from '@nightjar/crypto';
import { FIELD_MODULUS as R, mintToFields } from '@nightjar/protocol';

export const BASE_MINT = Uint8Array.from({ length: 32 }, (_, i) => 0x10 + i);
export const QUOTE_MINT = Uint8Array.from({ length: 32 }, (_, i) => 0xa0 + i);
export const BID_KEY = 0x1111222233334444555566667777888899990000aaaabbbbccccddddeeeeffffn;
export const ASK_KEY = 0x0fedcba987654321fedcba987654321fedcba987654321fedcba987654321fn;
export const FEE_OWNER = ownerCommitment(0x5eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeen);
export const ATTACKER = ownerCommitment(0xbadbadbadbadbadbadbadbadbadbadbadbadbadbadbadbadbadbadbadbadn);

export interface Side {
  amount: bigint;
  key: bigint;
  inner: bigint;
}

export const BID: Side = {
  amount: 0n,
  key: BID_KEY,
  inner: 0x2222222222222222222222222222222222222222222222222222222222222222n % R,
};
export const ASK: Side = {
  amount: 0n,
  key: ASK_KEY,
  inner: 0x3333333333333333333333333333333333333333333333333333333333333333n % R,
};

/** Mint halves as the circuit takes them. */
export const BASE = mintToFields(BASE_MINT);
export const QUOTE = mintToFields(QUOTE_MINT);

/**
 * Poseidon(2, mint_lo, mint_hi, amount, Poseidon(6, owner, inner)) with no range checks, so that
 * tests can commit to out-of-range (wrapped) amounts.
 */
export function rawCommitment(
  mint: { mintLo: bigint; mintHi: bigint },
  amount: bigint,
  owner: bigint,
  inner: bigint,
): bigint {
  const a = ((amount % R) + R) % R;
  return poseidon([2n, mint.mintLo, mint.mintHi, a, poseidon([6n, owner, inner])]);
}

/** Poseidon(4, parent, role). */
export const rawInner = (parent: bigint, role: 1n | 2n | 3n): bigint => poseidon([4n, parent, role]);

/** x mod r as a decimal string (a negative x wraps, as the field does). */
export const fieldStr = (x: bigint): string => (((x % R) + R) % R).toString();
