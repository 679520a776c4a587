/** The signing helper: the digest is bound to the chain, and a fresh signer's grinding finds the work. */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  leadingZeroBits,
  signTransaction,
  transactionDigest,
  verifyTransactionSignature,
  type Instruction,
} from '../src/index.js';

const chainA = { chain_id: 'aa'.repeat(32), fresh_signer_work_bits: 10 };
const chainB = { chain_id: 'bb'.repeat(32), fresh_signer_work_bits: 10 };
// Keys out of order and a nested array: the ground digest must be the canonical one.
const instruction: Instruction = { name: 'deposit', args: { z: 'é', a: [{ y: 1, b: 'x' }], tree_id: 0 } };

describe('signTransaction', () => {
  it('a fresh signer’s nonce is ground from the one given until the digest has the work', () => {
    const tx = signTransaction(Uint8Array.from(randomBytes(32)), 5n, instruction, chainA, { fresh: true });
    expect(BigInt(tx.nonce)).toBeGreaterThanOrEqual(5n);
    const digest = transactionDigest(chainA.chain_id, tx.signer, tx.nonce, instruction);
    expect(leadingZeroBits(digest)).toBeGreaterThanOrEqual(10);
    expect(verifyTransactionSignature(tx, chainA.chain_id)).toBe(true);
  });

  it('a signature holds for the chain it was made for only', () => {
    const tx = signTransaction(Uint8Array.from(randomBytes(32)), 1n, instruction, chainA);
    expect(tx.nonce).toBe('1');
    expect(verifyTransactionSignature(tx, chainA.chain_id)).toBe(true);
    expect(verifyTransactionSignature(tx, chainB.chain_id)).toBe(false);
  });

  it('counts leading zero bits', () => {
    expect(leadingZeroBits(Uint8Array.from([0, 0x10, 0xff]))).toBe(11);
    expect(leadingZeroBits(new Uint8Array(4))).toBe(32);
  });
});
