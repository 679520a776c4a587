/**
 * The verification keys a verifier (ledger, engine) runs with, and whether it may run with them.
 * The committed keys come from a one-machine dev ceremony (manifest `dev_only: true`): whoever ran
 * it could forge proofs. Outside dev mode they are refused; the operator passes the directory of a
 * real ceremony's result instead (a manifest pinning each file's SHA-256, and the verification keys).
 */
import { resolve } from 'node:path';
import type { SnarkjsVerificationKey } from '@nightjar/crypto';
import type { CircuitKeysInfo } from '@nightjar/protocol';
import {
  ARTIFACTS_DIR,
  ArtifactIntegrityError,
  CIRCUITS,
  loadArtifact,
  readManifest,
  sha256Hex,
  type CircuitName,
} from './artifacts.js';

/** Every key directory has these. */
type RequiredCircuit = 'valid_input' | 'valid_spend';
/** Circuits added later: a key directory from before them has no such key. */
type OptionalCircuit = Exclude<CircuitName, RequiredCircuit>;
const REQUIRED: readonly CircuitName[] = ['valid_input', 'valid_spend'];

export interface CircuitKeySet {
  /** Absolute directory the keys were read from. */
  dir: string;
  /** True when the manifest marks the keys as coming from a dev ceremony. */
  devOnly: boolean;
  /**
   * VALID_MATCH's key is there when the directory's manifest lists it (the committed dev keys
   * do); a verifier that settles matches must refuse to run without it.
   */
  keys: Record<RequiredCircuit, SnarkjsVerificationKey> &
    Partial<Record<OptionalCircuit, SnarkjsVerificationKey>>;
  /** SHA-256 (hex) of each verification key file, as the manifest pins it. */
  vkeySha256: Record<RequiredCircuit, string> & Partial<Record<OptionalCircuit, string>>;
}

/** Dev-ceremony keys offered to a verifier outside dev mode. */
export class DevOnlyKeysError extends Error {
  override readonly name = 'DevOnlyKeysError';
  constructor(readonly dir: string) {
    super(
      `the circuit keys in ${dir} come from the DEV-ONLY ceremony (manifest.json "dev_only": true): ` +
        'whoever ran it can forge VALID_INPUT and VALID_SPEND proofs. Outside dev mode pass ' +
        '--circuit-keys DIR with the verification keys of a real ceremony ' +
        '(packages/circuits/README.md, "Running a real ceremony").',
    );
  }
}

/**
 * Reads the manifest and the verification keys of `dir` (the committed artifacts by default),
 * each checked against the SHA-256 the manifest pins. Throws DevOnlyKeysError before reading a
 * key when the manifest says dev-only and `allowDevOnly` is false.
 */
export async function loadCircuitKeys(options: {
  dir?: string;
  allowDevOnly: boolean;
}): Promise<CircuitKeySet> {
  const dir = options.dir === undefined ? ARTIFACTS_DIR : resolve(options.dir);
  const manifest = await readManifest(dir);
  const devOnly = manifest.dev_only !== false;
  if (devOnly && !options.allowDevOnly) throw new DevOnlyKeysError(dir);
  const keys = {} as CircuitKeySet['keys'];
  const vkeySha256 = {} as CircuitKeySet['vkeySha256'];
  // A key directory from before VALID_MATCH or VALID_JOIN_SPLIT existed lacks their keys.
  const names = (Object.keys(CIRCUITS) as CircuitName[]).filter(
    (n) => REQUIRED.includes(n) || manifest.files[CIRCUITS[n].vkey] !== undefined,
  );
  for (const name of names) {
    const file = CIRCUITS[name].vkey;
    const bytes = await loadArtifact(file, dir);
    const vkey = JSON.parse(new TextDecoder().decode(bytes)) as SnarkjsVerificationKey;
    if (vkey.nPublic !== CIRCUITS[name].publicInputs.length)
      throw new ArtifactIntegrityError(file, undefined, undefined, `${file}: nPublic ${vkey.nPublic}`);
    keys[name] = vkey;
    vkeySha256[name] = sha256Hex(bytes);
  }
  // A copy of the committed dev keys under a manifest that no longer says so is still dev-only.
  if (!options.allowDevOnly) {
    const committed = await readManifest();
    const pinned = (n: CircuitName) => committed.files[CIRCUITS[n].vkey]?.sha256;
    if (committed.dev_only && names.some((n) => pinned(n) === vkeySha256[n])) throw new DevOnlyKeysError(dir);
  }
  return { dir, devOnly, keys, vkeySha256 };
}

/** What `/info` shows of a key set: the pinned hashes, and whether they are dev-only. */
export function circuitKeysInfo(set: CircuitKeySet): CircuitKeysInfo {
  return {
    dev_only: set.devOnly,
    valid_input_vkey_sha256: set.vkeySha256.valid_input,
    valid_spend_vkey_sha256: set.vkeySha256.valid_spend,
    ...(set.vkeySha256.valid_match === undefined
      ? {}
      : { valid_match_vkey_sha256: set.vkeySha256.valid_match }),
    ...(set.vkeySha256.valid_join_split === undefined
      ? {}
      : { valid_join_split_vkey_sha256: set.vkeySha256.valid_join_split }),
  };
}
