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

/** Every key directory has these: order intake verifies VALID_INPUT v2, withdrawals VALID_SPEND v2. */
type RequiredCircuit = 'valid_input_v2' | 'valid_spend_v2';
/**
 * The settlement circuits (VALID_LOCK, VALID_MATCH v2, VALID_JOIN_SPLIT v2): a key directory
 * without them loads, and a verifier that needs one must refuse to run without it.
 */
type OptionalCircuit = Exclude<CircuitName, RequiredCircuit>;
const REQUIRED: readonly CircuitName[] = ['valid_input_v2', 'valid_spend_v2'];

export interface CircuitKeySet {
  /** Absolute directory the keys were read from. */
  dir: string;
  /** True when the manifest marks the keys as coming from a dev ceremony. */
  devOnly: boolean;
  /**
   * An optional circuit's key is there when the directory's manifest lists it (the committed dev
   * keys list them all); a verifier that settles matches must refuse to run without theirs.
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
        'whoever ran it can forge every proof the venue checks. Outside dev mode pass ' +
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
  // A key directory may lack the optional keys (a verifier that needs one refuses to run).
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

/**
 * What `/info` shows of a key set: the pinned hashes of the keys the venue verifies with, and
 * whether they are dev-only. The field names predate settlement v2: `valid_input` is VALID_INPUT
 * v2's key, `valid_spend`, `valid_match` and `valid_join_split` the v2 keys of those statements.
 */
export function circuitKeysInfo(set: CircuitKeySet): CircuitKeysInfo {
  const { valid_lock: lock, valid_match_v2: match, valid_join_split_v2: joinSplit } = set.vkeySha256;
  return {
    dev_only: set.devOnly,
    valid_input_vkey_sha256: set.vkeySha256.valid_input_v2,
    valid_spend_vkey_sha256: set.vkeySha256.valid_spend_v2,
    ...(lock === undefined ? {} : { valid_lock_vkey_sha256: lock }),
    ...(match === undefined ? {} : { valid_match_vkey_sha256: match }),
    ...(joinSplit === undefined ? {} : { valid_join_split_vkey_sha256: joinSplit }),
  };
}
