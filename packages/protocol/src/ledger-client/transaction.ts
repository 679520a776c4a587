/**
 * The transaction envelope: `{signer, nonce, instruction, signature}`, where `signature` is
 * Ed25519 by `signer` over the digest SHA-256(`ledger-tx-v2` ‖ chain id (32 bytes) ‖ RFC 8785 JSON
 * of `[signer, nonce, instruction]`). DESIGN 6 says `ledger-tx-v1` and no chain id: the chain id
 * (fixed at genesis, chain-id.ts) binds a transaction to the one ledger it was signed for
 * (docs/ledger.md, "Transactions").
 *
 * A signer with no landed successful transaction (a fresh one) also pays a small proof of work: it
 * chooses its nonce so that the digest starts with the chain's `fresh_signer_work_bits` zero bits.
 * `signTransaction` does both, so every client signs through it.
 */
import { createHash, type Hash } from 'node:crypto';
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
} from '../index.js';
import type { ChainInfo, Instruction, Transaction } from './types.js';

// canonicalize is CommonJS whose typings declare an ES default export; load it as what it is.
const canonicalize = createRequire(import.meta.url)('canonicalize') as (value: unknown) => string | undefined;

const DOMAIN = Buffer.from('ledger-tx-v2', 'ascii');
/** The most work a chain may ask of a fresh signer (2^24 hashes is already seconds). */
export const MAX_FRESH_SIGNER_WORK_BITS = 24;

function chainIdBytes(chainId: string): Buffer {
  if (!/^[0-9a-f]{64}$/.test(chainId)) throw new TypeError('chain_id must be 64 lowercase hex characters');
  return Buffer.from(chainId, 'hex');
}

function canonicalJson(value: unknown): string {
  const json = canonicalize(value);
  if (json === undefined) throw new TypeError('instruction is not serialisable');
  return json;
}

export function transactionDigest(
  chainId: string,
  signer: string,
  nonce: string,
  instruction: Instruction,
): Uint8Array {
  return Uint8Array.from(
    createHash('sha256')
      .update(DOMAIN)
      .update(chainIdBytes(chainId))
      .update(canonicalJson([signer, nonce, instruction]), 'utf8')
      .digest(),
  );
}

/** How many leading zero bits `digest` has (the work a fresh signer's transaction carries). */
export function leadingZeroBits(digest: Uint8Array): number {
  let bits = 0;
  for (const byte of digest) {
    if (byte !== 0) return bits + Math.clz32(byte) - 24;
    bits += 8;
  }
  return bits;
}

export interface SignOptions {
  /**
   * The signer has no landed successful transaction on this chain: the nonce is ground upward from
   * `nonce` until the digest carries the chain's work (about 2^bits hashes; 15 bits ≈ 0.1–0.3 s).
   */
  fresh?: boolean;
}

/**
 * Signs an instruction as the holder of `seed` for the chain `chain` (from `getChain` or
 * `getVault`; `chainInfo` caches it per client); the signer address is its public key in Base58.
 * A fresh signer's nonce is `nonce` or the first above it whose digest carries the work: read
 * the nonce used off the result.
 */
export function signTransaction(
  seed: Uint8Array,
  nonce: bigint,
  instruction: Instruction,
  chain: ChainInfo,
  options: SignOptions = {},
): Transaction {
  const signer = addressToBase58(ed25519PublicKey(seed));
  const { nonce: chosen, digest } = options.fresh
    ? grindNonce(chain, signer, nonce, instruction)
    : { nonce, digest: transactionDigest(chain.chain_id, signer, nonce.toString(), instruction) };
  return { signer, nonce: chosen.toString(), instruction, signature: bytesToHex(ed25519Sign(seed, digest)) };
}

/**
 * The first nonce from `from` whose digest has the chain's work. The canonical JSON of
 * `[signer, nonce, instruction]` is `["<signer>","<nonce>",<instruction>]` (a Base58 signer and a
 * decimal nonce need no escaping), so the hash of everything before the nonce is taken once and
 * copied for each try.
 */
function grindNonce(
  chain: ChainInfo,
  signer: string,
  from: bigint,
  instruction: Instruction,
): { nonce: bigint; digest: Uint8Array } {
  const bits = chain.fresh_signer_work_bits;
  if (!Number.isInteger(bits) || bits < 0 || bits > MAX_FRESH_SIGNER_WORK_BITS)
    throw new TypeError(`fresh_signer_work_bits must be an integer in 0..${MAX_FRESH_SIGNER_WORK_BITS}`);
  const head: Hash = createHash('sha256')
    .update(DOMAIN)
    .update(chainIdBytes(chain.chain_id))
    .update(`[${JSON.stringify(signer)},"`, 'utf8');
  const tail = `",${canonicalJson(instruction)}]`;
  for (let nonce = from; nonce <= U64_MAX; nonce++) {
    const digest = head
      .copy()
      .update(nonce.toString() + tail, 'utf8')
      .digest();
    if (leadingZeroBits(digest) >= bits) return { nonce, digest: Uint8Array.from(digest) };
  }
  throw new RangeError('no nonce left to grind');
}

/** Strict verification (small-order keys refused) over the digest for `chainId`. Never throws. */
export function verifyTransactionSignature(tx: Transaction, chainId: string): boolean {
  try {
    return signatureHolds(tx, transactionDigest(chainId, tx.signer, tx.nonce, tx.instruction));
  } catch {
    return false;
  }
}

/** Whether `tx.signature` is the signer's over `digest` (computed once by the ledger). Never throws. */
export function signatureHolds(tx: Transaction, digest: Uint8Array): boolean {
  const key = parseAddress(tx.signer);
  if (!key || typeof tx.signature !== 'string' || !/^[0-9a-f]{128}$/.test(tx.signature)) return false;
  try {
    return ed25519VerifyStrict(key, digest, hexToBytes(tx.signature));
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
