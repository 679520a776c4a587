/**
 * The transaction envelope: `{signer, nonce, instruction, signature}`, where `signature` is
 * Ed25519 by `signer` over SHA-256(`ledger-tx-v1` ‖ RFC 8785 JSON of `[signer, nonce, instruction]`).
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import {
  addressToBase58,
  bytesToHex,
  ed25519PublicKey,
  ed25519Sign,
  ed25519VerifyStrict,
  hexToBytes,
  parseAddress,
} from '@nightjar/protocol';
import type { Instruction, Transaction } from './types.js';

// canonicalize is CommonJS whose typings declare an ES default export; load it as what it is.
const canonicalize = createRequire(import.meta.url)('canonicalize') as (value: unknown) => string | undefined;

const DOMAIN = Buffer.from('ledger-tx-v1', 'ascii');

export function transactionDigest(signer: string, nonce: string, instruction: Instruction): Uint8Array {
  const json = canonicalize([signer, nonce, instruction]);
  if (json === undefined) throw new TypeError('instruction is not serialisable');
  return Uint8Array.from(createHash('sha256').update(DOMAIN).update(json, 'utf8').digest());
}

/** Signs an instruction as the holder of `seed`; the signer address is its public key in Base58. */
export function signTransaction(seed: Uint8Array, nonce: bigint, instruction: Instruction): Transaction {
  const signer = addressToBase58(ed25519PublicKey(seed));
  const nonceText = nonce.toString();
  const signature = bytesToHex(ed25519Sign(seed, transactionDigest(signer, nonceText, instruction)));
  return { signer, nonce: nonceText, instruction, signature };
}

/** Strict verification (small-order keys refused). Never throws. */
export function verifyTransactionSignature(tx: Transaction): boolean {
  const key = parseAddress(tx.signer);
  if (!key || typeof tx.signature !== 'string' || !/^[0-9a-f]{128}$/.test(tx.signature)) return false;
  try {
    return ed25519VerifyStrict(
      key,
      transactionDigest(tx.signer, tx.nonce, tx.instruction),
      hexToBytes(tx.signature),
    );
  } catch {
    return false;
  }
}
