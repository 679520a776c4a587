/**
 * The cryptographic part of admitting one order, as one job for a verifier worker: the note
 * opening re-derives the signed commitment (1006), the trading-key signature verifies (1102), and
 * the VALID_INPUT v2 proof verifies for that note and this very order (1011): its public inputs
 * [use_tag, merkle_root, nullifier] are recomputed here from the note and the order's own terms
 * (use_tag = Poseidon(8, commitment, inner, order digest), DESIGN 3), so a proof made for one
 * order fails for any other. The engine's main thread only parses and applies the cheap rules;
 * this runs off it, so intake scales with cores (the digest's nine-input Poseidon included).
 *
 * Each step is optional (the caller runs only the steps that come before a cheap failure, as the
 * spec's order demands) and the steps run in the spec's order: the first that fails is reported.
 * Proofs of every order in a job that got that far are verified as one batch.
 *
 * Wire form: one fixed-size record per order ({@link ORDER_RECORD_BYTES}) and one
 * {@link ORDER_RESULT_BYTES} result (status, then the nullifier and use tag when the proof step ran).
 */
import { ed25519VerifyStrict } from '@nightjar/protocol';
import { noteCommitment, noteNullifier, openingHash } from '../notes.js';
import { SettlementDomain, assertOrderTerms, noteUseTag, type OrderTerms } from '../order-digest.js';
import { poseidon9Unchecked } from '../poseidon-fast.js';
import type { Groth16Verifier, ProofItem } from './mcl-verifier.js';
import { FIELD_ELEMENT_BYTES, PROOF_BYTES, SCALAR_FIELD_MODULUS } from './proof-format.js';

/** A field element: a bigint, or its 32 big-endian bytes (cheaper when it arrived as hex). */
export type FieldInput = bigint | Uint8Array;

/** The collateral note of an order. */
export interface OrderNote {
  ownerCommitment: FieldInput;
  innerHash: FieldInput;
  /** The collateral mint, 32 bytes (split into hi/lo as DESIGN.md section 1 says). */
  mint: Uint8Array;
  /** The note's value: `collateral_amount`, else the required collateral. */
  amount: bigint;
  commitment: FieldInput;
}

export interface OrderCheckItem {
  /** The collateral note; needed by the opening and proof steps (a cancel checks only a signature). */
  note?: OrderNote;
  /** Run the 1006 step: the opening must re-derive `note.commitment`. */
  opening?: boolean;
  /** Run the 1102 step: strict Ed25519 over the canonical body's digest. */
  signature?: { publicKey: Uint8Array; digest: Uint8Array; signature: Uint8Array };
  /**
   * Run the 1011 step: VALID_INPUT v2 for [use_tag, merkleRoot, nullifier], the nullifier and the
   * use tag recomputed from the note and `order` (the order's own terms, DESIGN 3 "order digest").
   */
  proof?: { proof: Uint8Array; merkleRoot: FieldInput; order: OrderTerms };
}

export type OrderCheckStep = 'opening' | 'signature' | 'proof';

export type OrderCheckOutcome =
  | {
      ok: true;
      /** Both set when the proof step ran: the note's nullifier and its use tag for this order. */
      nullifier: bigint | undefined;
      useTag: bigint | undefined;
    }
  | { ok: false; failed: OrderCheckStep };

const FLAG_OPENING = 1;
const FLAG_SIGNATURE = 2;
const FLAG_PROOF = 4;

// Record layout: flags ‖ owner ‖ inner ‖ mint ‖ amount (u64 LE) ‖ commitment ‖ root ‖ key ‖ digest ‖
// sig ‖ terms ‖ proof; terms: market_hi ‖ market_lo (16 bytes BE each) ‖ side (1) ‖ amount ‖
// price_limit ‖ min_fill_size ‖ expiry_slot (u64 LE each) ‖ order_id (16 bytes BE).
const AT_OWNER = 1;
const AT_INNER = AT_OWNER + 32;
const AT_MINT = AT_INNER + 32;
const AT_AMOUNT = AT_MINT + 32;
const AT_COMMITMENT = AT_AMOUNT + 8;
const AT_ROOT = AT_COMMITMENT + 32;
const AT_KEY = AT_ROOT + 32;
const AT_DIGEST = AT_KEY + 32;
const AT_SIGNATURE = AT_DIGEST + 32;
const AT_TERMS = AT_SIGNATURE + 64;
const AT_MARKET_HI = AT_TERMS;
const AT_MARKET_LO = AT_MARKET_HI + 16;
const AT_SIDE = AT_MARKET_LO + 16;
const AT_TERM_AMOUNT = AT_SIDE + 1;
const AT_PRICE_LIMIT = AT_TERM_AMOUNT + 8;
const AT_MIN_FILL = AT_PRICE_LIMIT + 8;
const AT_EXPIRY = AT_MIN_FILL + 8;
const AT_ORDER_ID = AT_EXPIRY + 8;
const AT_PROOF = AT_ORDER_ID + 16;
export const ORDER_RECORD_BYTES = AT_PROOF + PROOF_BYTES;
/** Status byte ‖ nullifier ‖ use tag (32 bytes each, when the status is {@link PASSED_WITH_NULLIFIER}). */
export const ORDER_RESULT_BYTES = 1 + 32 + 32;
/** VALID_INPUT v2's public inputs: [use_tag, merkle_root, nullifier]. */
export const ORDER_CHECK_PUBLIC_INPUTS = 3;

const PASSED = 0;
const FAILED: Record<OrderCheckStep, number> = { opening: 1, signature: 2, proof: 3 };
const PASSED_WITH_NULLIFIER = 4;
const STATUS_STEPS: readonly (OrderCheckStep | undefined)[] = [undefined, 'opening', 'signature', 'proof'];

const MODULUS_BYTES = Buffer.from(SCALAR_FIELD_MODULUS.toString(16).padStart(64, '0'), 'hex');

function writeField(out: Uint8Array, at: number, value: FieldInput): void {
  if (value instanceof Uint8Array) {
    if (value.length !== 32 || Buffer.compare(value, MODULUS_BYTES) >= 0)
      throw new RangeError('not a field element');
    out.set(value, at);
    return;
  }
  if (value < 0n || value >= SCALAR_FIELD_MODULUS) throw new RangeError('not a field element');
  let v = value;
  for (let k = 31; k >= 0; k--) {
    out[at + k] = Number(v & 0xffn);
    v >>= 8n;
  }
}

function readWord(bytes: Uint8Array, at: number, length: number): bigint {
  return BigInt('0x' + Buffer.from(bytes.buffer, bytes.byteOffset + at, length).toString('hex'));
}

function writeUint(out: Uint8Array, at: number, length: number, value: bigint): void {
  let v = value;
  for (let k = length - 1; k >= 0; k--) {
    out[at + k] = Number(v & 0xffn);
    v >>= 8n;
  }
}

function encodeTerms(rec: Uint8Array, t: OrderTerms): void {
  try {
    assertOrderTerms(t);
  } catch (err) {
    throw new RangeError(`order terms: ${(err as Error).message}`);
  }
  writeUint(rec, AT_MARKET_HI, 16, t.marketHi);
  writeUint(rec, AT_MARKET_LO, 16, t.marketLo);
  rec[AT_SIDE] = t.side;
  const view = new DataView(rec.buffer, rec.byteOffset);
  view.setBigUint64(AT_TERM_AMOUNT, t.amount, true);
  view.setBigUint64(AT_PRICE_LIMIT, t.priceLimit, true);
  view.setBigUint64(AT_MIN_FILL, t.minFillSize, true);
  view.setBigUint64(AT_EXPIRY, t.expirySlot, true);
  writeUint(rec, AT_ORDER_ID, 16, t.orderId);
}

/**
 * The order digest of a record's terms (DESIGN 3), or undefined for a side byte no encoder writes.
 * Every other term is in range by its width; the digest is hashed here, unchecked, with the fast
 * nine-input Poseidon (the same hash as `orderDigest`).
 */
function recordOrderDigest(rec: Uint8Array): bigint | undefined {
  const side = rec[AT_SIDE]!;
  if (side !== 0 && side !== 1) return undefined;
  const view = new DataView(rec.buffer, rec.byteOffset);
  return poseidon9Unchecked([
    SettlementDomain.orderDigest,
    readWord(rec, AT_MARKET_LO, 16),
    readWord(rec, AT_MARKET_HI, 16),
    BigInt(side),
    view.getBigUint64(AT_TERM_AMOUNT, true),
    view.getBigUint64(AT_PRICE_LIMIT, true),
    view.getBigUint64(AT_MIN_FILL, true),
    view.getBigUint64(AT_EXPIRY, true),
    readWord(rec, AT_ORDER_ID, 16),
  ]);
}

function exact(bytes: Uint8Array, length: number, what: string): Uint8Array {
  if (bytes.length !== length) throw new RangeError(`${what} must be ${length} bytes`);
  return bytes;
}

function wordsAreFields(rec: Uint8Array): boolean {
  for (const at of [AT_OWNER, AT_INNER, AT_COMMITMENT, AT_ROOT])
    if (Buffer.compare(rec.subarray(at, at + 32), MODULUS_BYTES) >= 0) return false;
  return true;
}

/** Encodes one order check into `out` at `at` (a record of {@link ORDER_RECORD_BYTES}). */
export function encodeOrderCheck(item: OrderCheckItem, out: Uint8Array, at: number): void {
  const rec = out.subarray(at, at + ORDER_RECORD_BYTES);
  rec.fill(0);
  const { note } = item;
  if (note === undefined && (item.opening || item.proof))
    throw new RangeError('the opening and proof steps need the note');
  rec[0] =
    (item.opening ? FLAG_OPENING : 0) | (item.signature ? FLAG_SIGNATURE : 0) | (item.proof ? FLAG_PROOF : 0);
  if (note !== undefined) {
    writeField(rec, AT_OWNER, note.ownerCommitment);
    writeField(rec, AT_INNER, note.innerHash);
    rec.set(exact(note.mint, 32, 'mint'), AT_MINT);
    new DataView(rec.buffer, rec.byteOffset).setBigUint64(AT_AMOUNT, note.amount, true);
    writeField(rec, AT_COMMITMENT, note.commitment);
  }
  if (item.signature) {
    rec.set(exact(item.signature.publicKey, 32, 'public key'), AT_KEY);
    rec.set(exact(item.signature.digest, 32, 'digest'), AT_DIGEST);
    rec.set(exact(item.signature.signature, 64, 'signature'), AT_SIGNATURE);
  }
  if (item.proof) {
    writeField(rec, AT_ROOT, item.proof.merkleRoot);
    encodeTerms(rec, item.proof.order);
    rec.set(exact(item.proof.proof, PROOF_BYTES, 'proof'), AT_PROOF);
  }
}

/** Decodes the results of `count` order checks. */
export function decodeOrderResults(bytes: Uint8Array, count: number): OrderCheckOutcome[] {
  const out: OrderCheckOutcome[] = [];
  for (let i = 0; i < count; i++) {
    const at = i * ORDER_RESULT_BYTES;
    const status = bytes[at]!;
    if (status === PASSED) out.push({ ok: true, nullifier: undefined, useTag: undefined });
    else if (status === PASSED_WITH_NULLIFIER)
      out.push({ ok: true, nullifier: readWord(bytes, at + 1, 32), useTag: readWord(bytes, at + 33, 32) });
    else out.push({ ok: false, failed: STATUS_STEPS[status] ?? 'proof' });
  }
  return out;
}

/** Orders whose opening and signature passed and whose proofs are still to be verified. */
export interface PreparedOrderChecks {
  /** Encoded results so far (failures set; passes await their proof). */
  results: Uint8Array;
  /** The proofs still due, with their public inputs. */
  proofs: ProofItem[];
  /** Which order each of `proofs` belongs to. */
  owners: number[];
}

/**
 * First phase of `count` encoded order checks: opening and signature per order (the first that
 * fails is recorded), and the VALID_INPUT v2 public inputs [use_tag, merkle_root, nullifier] of
 * every proof due, recomputed from the record's note and order terms.
 */
export function prepareOrderChecks(records: Uint8Array, count: number): PreparedOrderChecks {
  if (records.length !== count * ORDER_RECORD_BYTES) throw new RangeError('order job has the wrong size');
  const results = new Uint8Array(count * ORDER_RESULT_BYTES);
  const proofs: ProofItem[] = [];
  const owners: number[] = [];
  for (let i = 0; i < count; i++) {
    const rec = records.subarray(i * ORDER_RECORD_BYTES, (i + 1) * ORDER_RECORD_BYTES);
    const at = i * ORDER_RESULT_BYTES;
    const flags = rec[0]!;
    // A word >= r cannot come from encodeOrderCheck; refuse it here rather than fail the whole job.
    if (!wordsAreFields(rec)) {
      results[at] = FAILED.opening;
      continue;
    }
    const inner = readWord(rec, AT_INNER, 32);
    const mintHi = readWord(rec, AT_MINT, 16);
    const mintLo = readWord(rec, AT_MINT + 16, 16);
    const commitment = readWord(rec, AT_COMMITMENT, 32);
    if (flags & FLAG_OPENING) {
      const amount = new DataView(rec.buffer, rec.byteOffset).getBigUint64(AT_AMOUNT, true);
      const opened = openingHash(readWord(rec, AT_OWNER, 32), inner);
      if (noteCommitment({ mintLo, mintHi, amount, openingHash: opened }) !== commitment) {
        results[at] = FAILED.opening;
        continue;
      }
    }
    if (
      flags & FLAG_SIGNATURE &&
      !ed25519VerifyStrict(
        rec.subarray(AT_KEY, AT_KEY + 32),
        rec.subarray(AT_DIGEST, AT_DIGEST + 32),
        rec.subarray(AT_SIGNATURE, AT_SIGNATURE + 64),
      )
    ) {
      results[at] = FAILED.signature;
      continue;
    }
    if (flags & FLAG_PROOF) {
      const digest = recordOrderDigest(rec);
      if (digest === undefined) {
        results[at] = FAILED.proof;
        continue;
      }
      results[at] = PASSED_WITH_NULLIFIER;
      writeField(results, at + 1, noteNullifier(commitment, inner));
      writeField(results, at + 33, noteUseTag(commitment, inner, digest));
      const inputs = new Uint8Array(ORDER_CHECK_PUBLIC_INPUTS * FIELD_ELEMENT_BYTES);
      inputs.set(results.subarray(at + 33, at + 65), 0);
      inputs.set(rec.subarray(AT_ROOT, AT_ROOT + 32), 32);
      inputs.set(results.subarray(at + 1, at + 33), 64);
      proofs.push({ proof: rec.subarray(AT_PROOF, AT_PROOF + PROOF_BYTES), publicInputs: inputs });
      owners.push(i);
    }
  }
  return { results, proofs, owners };
}

/** Second phase: records the proof verdicts (one per `prepared.proofs`) and returns the results. */
export function finishOrderChecks(prepared: PreparedOrderChecks, valid: readonly boolean[]): Uint8Array {
  valid.forEach((ok, j) => {
    if (!ok) prepared.results[prepared.owners[j]! * ORDER_RESULT_BYTES] = FAILED.proof;
  });
  return prepared.results;
}

/** Both phases in a worker: every proof still due is verified as one batch. */
export function runOrderChecks(verifier: Groth16Verifier, records: Uint8Array, count: number): Uint8Array {
  if (verifier.nPublic !== ORDER_CHECK_PUBLIC_INPUTS)
    throw new RangeError('order checks need the VALID_INPUT v2 key (3 public inputs)');
  const prepared = prepareOrderChecks(records, count);
  const valid = prepared.proofs.length > 0 ? verifier.verifyBatch(prepared.proofs) : [];
  return finishOrderChecks(prepared, valid);
}
