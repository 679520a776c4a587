/**
 * Sealing for the prover queue (DESIGN 11): a job's witness is encrypted once under a fresh
 * ChaCha20-Poly1305 content key, and that key is sealed with crypto's ECIES (`sealMemo`, info
 * `nightjar-prover-job-v1`) to each attested worker's X25519 key; a result is sealed the same way
 * to the engine's per-boot result key (info `nightjar-prover-result-v1`). The queue only ever
 * holds ciphertext.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { openMemo, sealMemo, sealedMemoBytes } from '@nightjar/crypto';
import type { AttestedWorker } from './types.js';

export const JOB_SEAL_INFO = 'nightjar-prover-job-v1';
export const RESULT_SEAL_INFO = 'nightjar-prover-result-v1';

const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class JobSealError extends Error {
  override readonly name = 'JobSealError';
}

export interface SealedJob {
  sealedPayload: Uint8Array;
  /** Worker id → the content key sealed to that worker (base64). */
  sealedKeys: Record<string, string>;
}

/** nonce ‖ ciphertext ‖ tag under `key`. */
function encrypt(key: Uint8Array, plaintext: Uint8Array): Uint8Array {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('chacha20-poly1305', key, nonce, { authTagLength: TAG_BYTES });
  return Buffer.concat([nonce, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
}

function decrypt(key: Uint8Array, sealed: Uint8Array): Uint8Array {
  if (sealed.length < NONCE_BYTES + TAG_BYTES) throw new JobSealError('sealed body is too short');
  try {
    const nonce = sealed.subarray(0, NONCE_BYTES);
    const decipher = createDecipheriv('chacha20-poly1305', key, nonce, { authTagLength: TAG_BYTES });
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    const body = sealed.subarray(NONCE_BYTES, sealed.length - TAG_BYTES);
    return new Uint8Array(Buffer.concat([decipher.update(body), decipher.final()]));
  } catch (cause) {
    throw new JobSealError('sealed body does not decrypt', { cause });
  }
}

function openKey(info: string, privateKey: Uint8Array, sealedKey: Uint8Array): Uint8Array {
  try {
    return openMemo(info, privateKey, sealedKey, KEY_BYTES);
  } catch (cause) {
    throw new JobSealError('the content key does not open with this key', { cause });
  }
}

/** Encrypts `payload` once and seals its key to every worker given. */
export function sealJob(
  payload: Uint8Array,
  workers: readonly Pick<AttestedWorker, 'workerId' | 'sealingPublicKey'>[],
): SealedJob {
  const key = randomBytes(KEY_BYTES);
  const sealedKeys: Record<string, string> = {};
  for (const w of workers)
    sealedKeys[w.workerId] = Buffer.from(sealMemo(JOB_SEAL_INFO, w.sealingPublicKey, key)).toString('base64');
  return { sealedPayload: encrypt(key, payload), sealedKeys };
}

/** A worker opens a job it claimed with its sealing private key. */
export function openJob(
  sealedPayload: Uint8Array,
  sealedKey: Uint8Array,
  privateKey: Uint8Array,
): Uint8Array {
  return decrypt(openKey(JOB_SEAL_INFO, privateKey, sealedKey), sealedPayload);
}

/** sealed content key ‖ encrypted result, to the engine's result key. */
export function sealResult(result: Uint8Array, enginePublicKey: Uint8Array): Uint8Array {
  const key = randomBytes(KEY_BYTES);
  const sealedKey = sealMemo(RESULT_SEAL_INFO, enginePublicKey, key);
  return Buffer.concat([sealedKey, encrypt(key, result)]);
}

export function openResult(sealed: Uint8Array, enginePrivateKey: Uint8Array): Uint8Array {
  const keyLength = sealedMemoBytes(KEY_BYTES);
  if (sealed.length < keyLength) throw new JobSealError('sealed result is too short');
  const key = openKey(RESULT_SEAL_INFO, enginePrivateKey, sealed.subarray(0, keyLength));
  return decrypt(key, sealed.subarray(keyLength));
}
