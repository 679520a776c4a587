/**
 * A withdrawal signed by a one-time key (issue 30) is a fresh signer's transaction like a
 * join-split's: it carries the fresh signer's work, or it is refused before its proof is checked.
 */
import { randomBytes } from 'node:crypto';
import { NOTE_MEMO_BYTES } from '@nightjar/crypto';
import { addressToBase58, ed25519PublicKey } from '@nightjar/protocol';
import { describe, expect, it } from 'vitest';
import { leadingZeroBits, signTransaction, transactionDigest, type Instruction } from '../src/index.js';
import { GOOD_PROOF, makeNote, openDevLedger, SOL } from './harness.js';

const WORK_BITS = 8;

describe('withdraw from a one-time key', () => {
  it('needs the fresh signer’s work (refused before its proof), and lands with it', async () => {
    const { ledger, verifier } = await openDevLedger(WORK_BITS);
    try {
      const chain = await ledger.getChain();
      const funder = Uint8Array.from(randomBytes(32));
      const funderAddress = addressToBase58(ed25519PublicKey(funder));
      await ledger.requestAirdrop({ owner: funderAddress, mint: SOL, amount: '40' });
      const note = makeNote(SOL, 40n);
      const deposit: Instruction = {
        name: 'deposit',
        args: {
          tree_id: 0,
          mint: SOL,
          amount: '40',
          note_commitment: note.commitment,
          opening_hash: note.openingHash,
        },
      };
      await ledger.sendTransaction({
        transaction: signTransaction(funder, 1n, deposit, chain, { fresh: true }),
      });

      const withdraw: Instruction = {
        name: 'withdraw',
        args: {
          tree_id: 0,
          merkle_root: (await ledger.getTreeRoot({ tree_id: 0 })).merkle_root,
          nullifier: note.nullifier,
          mint: SOL,
          amount: '15',
          recipient: addressToBase58(Uint8Array.from(randomBytes(32))),
          change: {
            tree_id: 0,
            commitment: makeNote(SOL, 25n).commitment,
            memo: 'ab'.repeat(NOTE_MEMO_BYTES),
          },
          proof: GOOD_PROOF,
        },
      };
      // Without the work: refused (-32002) before any proof is verified.
      const lazySeed = Uint8Array.from(randomBytes(32));
      const lazyAddress = addressToBase58(ed25519PublicKey(lazySeed));
      let nonce = 1n;
      while (
        leadingZeroBits(transactionDigest(chain.chain_id, lazyAddress, String(nonce), withdraw)) >= WORK_BITS
      )
        nonce++;
      const calls = verifier.calls.length;
      await expect(
        ledger.sendTransaction({ transaction: signTransaction(lazySeed, nonce, withdraw, chain) }),
      ).rejects.toMatchObject({ code: -32002, message: expect.stringMatching(/zero bits/) });
      expect(verifier.calls.length).toBe(calls);

      // With it, as the SDK signs (a new key, nonce 1, the work ground): lands, paid by no funding key.
      const oneTime = signTransaction(Uint8Array.from(randomBytes(32)), 1n, withdraw, chain, { fresh: true });
      await ledger.sendTransaction({ transaction: oneTime });
      const rec = await ledger.getTransaction({ signature: oneTime.signature });
      expect(rec?.err).toBeNull();
      expect(oneTime.signer).not.toBe(funderAddress);
      expect(verifier.calls.at(-1)!.circuit).toBe('valid_spend_v2');
    } finally {
      await ledger.close();
    }
  });
});
