/**
 * Every key of a wallet, derived from one seed with HKDF-SHA256 (salt `nightjar-wallet-v1`,
 * one info label per key), so the seed alone rebuilds the wallet:
 *
 * | key | info | use |
 * |---|---|---|
 * | spending key | `spending-key` (64 bytes, reduced mod r) | owns every note (owner_commitment = Poseidon(1, sk)) |
 * | viewing key | `viewing-key` (32 bytes, X25519 private) | decrypts fill memos |
 * | trading key i | `trading-key/<i>` (32-byte Ed25519 seed) | signs orders and cancels |
 * | funding key | `funding-key` (32-byte Ed25519 seed) | the ledger account that funds deposits (withdrawals go to an address the user names) |
 * | deposit i | `deposit-secret/<i>` (64 bytes mod r), nonce i + 1 | inner = Poseidon(3, note_secret, nonce) |
 */
import { hkdfSync } from 'node:crypto';
import { depositInner, ownerCommitment, x25519PublicKeyFromPrivate } from '@nightjar/crypto';
import {
  addressToBase58,
  bytesToBigInt,
  bytesToHex,
  ed25519PublicKey,
  FIELD_MODULUS,
} from '@nightjar/protocol';

const SALT = Buffer.from('nightjar-wallet-v1', 'ascii');

function hkdf(seed: Uint8Array, info: string, length: number): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', seed, SALT, Buffer.from(info, 'ascii'), length));
}

/** 64 bytes reduced mod r: a uniform field element (bias below 2^-250). */
function fieldFrom(seed: Uint8Array, info: string): bigint {
  return bytesToBigInt(hkdf(seed, info, 64)) % FIELD_MODULUS;
}

/** An Ed25519 key: its 32-byte seed and public key (hex). */
export interface SigningKey {
  seed: Uint8Array;
  publicKey: string;
}

/** The keys of a wallet. */
export interface WalletKeys {
  spendingKey: bigint;
  ownerCommitment: bigint;
  viewingPrivateKey: Uint8Array;
  viewingPublicKey: Uint8Array;
  /** The default trading key (index 0). */
  trading: SigningKey;
  /** The ledger account (Base58) that funds deposits, and its seed (withdrawals never use it). */
  funding: { seed: Uint8Array; address: string };
}

/** Derives every key of a wallet from `seed` (at least 32 bytes). */
export function deriveWalletKeys(seed: Uint8Array): WalletKeys {
  if (seed.length < 32) throw new RangeError('a wallet seed must be at least 32 bytes');
  const spendingKey = fieldFrom(seed, 'spending-key');
  const viewingPrivateKey = hkdf(seed, 'viewing-key', 32);
  const funding = hkdf(seed, 'funding-key', 32);
  return {
    spendingKey,
    ownerCommitment: ownerCommitment(spendingKey),
    viewingPrivateKey,
    viewingPublicKey: x25519PublicKeyFromPrivate(viewingPrivateKey),
    trading: deriveTradingKey(seed, 0),
    funding: { seed: funding, address: addressToBase58(ed25519PublicKey(funding)) },
  };
}

/** Trading key number `index` of the wallet. */
export function deriveTradingKey(seed: Uint8Array, index: number): SigningKey {
  const s = hkdf(seed, `trading-key/${index}`, 32);
  return { seed: s, publicKey: bytesToHex(ed25519PublicKey(s)) };
}

/** The inner hash of deposit number `index` (0-based). */
export function depositNoteInner(seed: Uint8Array, index: number): bigint {
  return depositInner(fieldFrom(seed, `deposit-secret/${index}`), BigInt(index + 1));
}
