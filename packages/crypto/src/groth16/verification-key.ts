/**
 * Groth16 verification keys: snarkjs `verification_key.json` to a typed key (shape and coordinate
 * ranges; curve membership is checked when the key is prepared, prepared-key.ts) and back.
 */
import { ProofFormatError, VerificationKeyError } from './errors.js';
import {
  g1FromJson,
  g1ToJson,
  g2FromJson,
  g2ToJson,
  isG1Infinity,
  isG2Infinity,
  type G1Point,
  type G2Point,
} from './proof-format.js';

/** snarkjs `verification_key.json` (Groth16). Extra fields (e.g. vk_alphabeta_12) are ignored. */
export interface SnarkjsVerificationKey {
  protocol: string;
  curve: string;
  nPublic: number;
  vk_alpha_1: string[];
  vk_beta_2: string[][];
  vk_gamma_2: string[][];
  vk_delta_2: string[][];
  IC: string[][];
  [extra: string]: unknown;
}

/** A parsed Groth16 verification key. `ic.length === nPublic + 1`. */
export interface VerificationKey {
  nPublic: number;
  alpha: G1Point;
  beta: G2Point;
  gamma: G2Point;
  delta: G2Point;
  ic: G1Point[];
}

function vkError(err: unknown): never {
  if (err instanceof ProofFormatError) {
    throw new VerificationKeyError(
      err.code === 'GROTH16_COORDINATE_OUT_OF_RANGE'
        ? 'GROTH16_COORDINATE_OUT_OF_RANGE'
        : 'GROTH16_MALFORMED_JSON',
      `verification key: ${err.message}`,
    );
  }
  throw err;
}

/**
 * Parses snarkjs `verification_key.json` (Groth16, bn128) into a typed key. Checks shape and
 * coordinate ranges; curve membership is checked when the key is prepared for verification.
 */
export function parseVerificationKey(json: unknown): VerificationKey {
  if (typeof json !== 'object' || json === null) {
    throw new VerificationKeyError('GROTH16_MALFORMED_JSON', 'verification key: expected an object');
  }
  const o = json as Record<string, unknown>;
  if (o.protocol !== undefined && o.protocol !== 'groth16') {
    throw new VerificationKeyError(
      'GROTH16_INVALID_VERIFICATION_KEY',
      'verification key: protocol is not groth16',
    );
  }
  if (o.curve !== undefined && o.curve !== 'bn128' && o.curve !== 'bn254') {
    throw new VerificationKeyError(
      'GROTH16_INVALID_VERIFICATION_KEY',
      'verification key: curve is not bn128',
    );
  }
  const nPublic = o.nPublic;
  if (typeof nPublic !== 'number' || !Number.isInteger(nPublic) || nPublic < 0 || nPublic > 1024) {
    throw new VerificationKeyError('GROTH16_MALFORMED_JSON', 'verification key: bad nPublic');
  }
  if (!Array.isArray(o.IC) || o.IC.length !== nPublic + 1) {
    throw new VerificationKeyError(
      'GROTH16_MALFORMED_JSON',
      'verification key: IC must have nPublic + 1 points',
    );
  }
  try {
    const vk: VerificationKey = {
      nPublic,
      alpha: g1FromJson(o.vk_alpha_1, 'vk_alpha_1'),
      beta: g2FromJson(o.vk_beta_2, 'vk_beta_2'),
      gamma: g2FromJson(o.vk_gamma_2, 'vk_gamma_2'),
      delta: g2FromJson(o.vk_delta_2, 'vk_delta_2'),
      ic: (o.IC as unknown[]).map((p, i) => g1FromJson(p, `IC[${i}]`)),
    };
    if (isG1Infinity(vk.alpha) || isG2Infinity(vk.beta) || isG2Infinity(vk.gamma) || isG2Infinity(vk.delta)) {
      throw new VerificationKeyError(
        'GROTH16_INVALID_VERIFICATION_KEY',
        'verification key: alpha, beta, gamma and delta must not be the point at infinity',
      );
    }
    return vk;
  } catch (err) {
    return vkError(err);
  }
}

/** A typed key back to snarkjs' JSON shape (without vk_alphabeta_12). */
export function verificationKeyToSnarkjs(vk: VerificationKey): SnarkjsVerificationKey {
  return {
    protocol: 'groth16',
    curve: 'bn128',
    nPublic: vk.nPublic,
    vk_alpha_1: g1ToJson(vk.alpha),
    vk_beta_2: g2ToJson(vk.beta),
    vk_gamma_2: g2ToJson(vk.gamma),
    vk_delta_2: g2ToJson(vk.delta),
    IC: vk.ic.map(g1ToJson),
  };
}
