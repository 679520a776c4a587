/**
 * The cryptographic part of admitting one order, as one job for a verifier worker: the note
 * opening re-derives the signed commitment (1006), the trading-key signature verifies (1102), and
 * the VALID_INPUT proof verifies for that note and mint (1011). The engine's main thread only
 * parses and applies the cheap rules; this runs off it, so intake scales with cores.
 *
 * Each step is optional (the caller runs only the steps that come before a cheap failure, as the
 * spec's order demands) and the steps run in the spec's order: the first that fails is reported.
 * Proofs of every order in a job that got that far are verified as one batch.
 *
 * Wire form: one fixed-size record per order ({@link ORDER_RECORD_BYTES}) and one
 * {@link ORDER_RESULT_BYTES} result (status, then the nullifier when the proof step ran).
 */
import { ed25519VerifyStrict } from '@nightjar/protocol';
import { noteCommitment, noteNullifier, openingHash } from '../notes.js';
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
  /** Run the 1011 step: VALID_INPUT for [merkleRoot, commitment, nullifier, mint_lo, mint_hi]. */
  proof?: { proof: Uint8Array; merkleRoot: FieldInput };
}

export type OrderCheckStep = 'opening' | 'signature' | 'proof';

export type OrderCheckOutcome =
  | { ok: true; /** Set when the proof step ran. */ nullifier: bigint | undefined }
  | { ok: false; failed: OrderCheckStep };

const FLAG_OPENING = 1;
const FLAG_SIGNATURE = 2;
const FLAG_PROOF = 4;

// Record layout: flags ‖ owner ‖ inner ‖ mint ‖ amount (u64 LE) ‖ commitment ‖ root ‖ key ‖ digest ‖ sig ‖ proof.
const AT_OWNER = 1;
const AT_INNER = AT_OWNER + 32;
const AT_MINT = AT_INNER + 32;
const AT_AMOUNT = AT_MINT + 32;
const AT_COMMITMENT = AT_AMOUNT + 8;
const AT_ROOT = AT_COMMITMENT + 32;
const AT_KEY = AT_ROOT + 32;
const AT_DIGEST = AT_KEY + 32;
const AT_SIGNATURE = AT_DIGEST + 32;
const AT_PROOF = AT_SIGNATURE + 64;
export const ORDER_RECORD_BYTES = AT_PROOF + PROOF_BYTES;
/** Status byte ‖ nullifier (32 bytes, when the status is {@link PASSED_WITH_NULLIFIER}). */
export const ORDER_RESULT_BYTES = 1 + 32;

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
    rec.set(exact(item.proof.proof, PROOF_BYTES, 'proof'), AT_PROOF);
  }
}

/** Decodes the results of `count` order checks. */
export function decodeOrderResults(bytes: Uint8Array, count: number): OrderCheckOutcome[] {
  const out: OrderCheckOutcome[] = [];
  for (let i = 0; i < count; i++) {
    const at = i * ORDER_RESULT_BYTES;
    const status = bytes[at]!;
    if (status === PASSED) out.push({ ok: true, nullifier: undefined });
    else if (status === PASSED_WITH_NULLIFIER) out.push({ ok: true, nullifier: readWord(bytes, at + 1, 32) });
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
 * fails is recorded), and the VALID_INPUT public inputs (with the nullifier) of every proof due.
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
      results[at] = PASSED_WITH_NULLIFIER;
      writeField(results, at + 1, noteNullifier(commitment, inner));
      const inputs = new Uint8Array(5 * FIELD_ELEMENT_BYTES);
      inputs.set(rec.subarray(AT_ROOT, AT_ROOT + 32), 0);
      inputs.set(rec.subarray(AT_COMMITMENT, AT_COMMITMENT + 32), 32);
      inputs.set(results.subarray(at + 1, at + ORDER_RESULT_BYTES), 64);
      writeField(inputs, 96, mintLo);
      writeField(inputs, 128, mintHi);
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
  if (verifier.nPublic !== 5) throw new RangeError('order checks need the VALID_INPUT key (5 public inputs)');
  const prepared = prepareOrderChecks(records, count);
  const valid = prepared.proofs.length > 0 ? verifier.verifyBatch(prepared.proofs) : [];
  return finishOrderChecks(prepared, valid);
}
