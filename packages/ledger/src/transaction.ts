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
  U64_MAX,
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

/** The envelope's shape (before its signature is checked); a message naming the first fault, or undefined. */
export function checkEnvelope(tx: unknown): string | undefined {
  if (typeof tx !== 'object' || tx === null) return 'transaction must be an object';
  const t = tx as Record<string, unknown>;
  for (const key of Object.keys(t))
    if (!['signer', 'nonce', 'instruction', 'signature'].includes(key)) return `unknown field ${key}`;
  if (!parseAddress(t.signer)) return 'signer must be a Base58 address';
  if (typeof t.nonce !== 'string' || !/^(0|[1-9][0-9]{0,19})$/.test(t.nonce) || BigInt(t.nonce) > U64_MAX)
    return 'nonce must be a canonical u64 decimal string';
  if (typeof t.signature !== 'string' || !/^[0-9a-f]{128}$/.test(t.signature))
    return 'signature must be 128 lowercase hex characters';
  const ins = t.instruction as Record<string, unknown> | null;
  if (
    typeof ins !== 'object' ||
    ins === null ||
    typeof ins.name !== 'string' ||
    typeof ins.args !== 'object' ||
    ins.args === null ||
    Array.isArray(ins.args)
  ) {
    return 'instruction must be {name, args}';
  }
  return undefined;
}
