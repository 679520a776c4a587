/**
 * Committed circuit artifacts (DEV-ONLY trusted setup, see README.md) and an integrity-checked
 * loader: every file is hashed with SHA-256 and compared with artifacts/manifest.json before use.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  VALID_INPUT_V2_PUBLIC_INPUTS,
  VALID_JOIN_SPLIT_PUBLIC_INPUTS,
  VALID_LOCK_PUBLIC_INPUTS,
  VALID_MATCH_V2_PUBLIC_INPUTS,
  VALID_SPEND_V2_PUBLIC_INPUTS,
  type SnarkjsVerificationKey,
} from '@nightjar/crypto';

/**
 * The circuits with committed artifacts. The `_v2` suffix marks the settlement-v2 statements
 * (issues 29 and 30, DESIGN 3 and 6) that replaced the first VALID_INPUT, VALID_MATCH,
 * VALID_JOIN_SPLIT and VALID_SPEND (withdrawals with change, issue 30).
 */
export type CircuitName =
  'valid_input_v2' | 'valid_lock' | 'valid_match_v2' | 'valid_spend_v2' | 'valid_join_split_v2';

export interface CircuitFiles {
  /** Circom template instantiated by the main component of circuits/<name>.circom. */
  readonly template: string;
  /** Public signals in proof order: the circuit's outputs first, then its public inputs. */
  readonly publicInputs: readonly string[];
  readonly wasm: string;
  readonly zkey: string;
  readonly vkey: string;
  readonly r1cs: string;
  /** The phase-1 file (powers of tau, prepared for phase 2) its zkey was set up from. */
  readonly ptau: string;
}

/** A circuit's committed files are named after it. */
function circuitFiles(
  name: CircuitName,
  template: string,
  publicInputs: readonly string[],
  ptau: string,
): CircuitFiles {
  return {
    template,
    publicInputs,
    wasm: `${name}.wasm`,
    zkey: `${name}.zkey`,
    vkey: `${name}.vkey.json`,
    r1cs: `${name}.r1cs`,
    ptau,
  };
}

export const CIRCUITS: Readonly<Record<CircuitName, CircuitFiles>> = {
  // The owner's note bound to one order by its use tag: what intake verifies and a lock carries.
  valid_input_v2: circuitFiles(
    'valid_input_v2',
    'ValidInputV2(20)',
    VALID_INPUT_V2_PUBLIC_INPUTS,
    'pot13_final.ptau',
  ),
  // The engine's lock of a settlement's change note for its order's remainder.
  valid_lock: circuitFiles('valid_lock', 'ValidLock(20)', VALID_LOCK_PUBLIC_INPUTS, 'pot13_final.ptau'),
  // 9.5k constraints: above power 13, so the power-15 file serves it.
  valid_match_v2: circuitFiles(
    'valid_match_v2',
    'ValidMatchV2()',
    VALID_MATCH_V2_PUBLIC_INPUTS,
    'pot15_final.ptau',
  ),
  // Withdrawals: any amount of one note, the rest to a change note bound with its shard and memo.
  valid_spend_v2: circuitFiles(
    'valid_spend_v2',
    'ValidSpendV2(20)',
    VALID_SPEND_V2_PUBLIC_INPUTS,
    'pot13_final.ptau',
  ),
  // Four depth-20 paths, pairwise-distinct inputs; validJoinSplitWitness builds its input.
  valid_join_split_v2: circuitFiles(
    'valid_join_split_v2',
    'ValidJoinSplitV2(20, 4, 8)',
    VALID_JOIN_SPLIT_PUBLIC_INPUTS,
    'pot15_final.ptau',
  ),
};

export const ARTIFACTS_DIR: string = fileURLToPath(new URL('../artifacts/', import.meta.url));
export const MANIFEST_FILE = 'manifest.json';
/**
 * The dev ceremony's first phase-1 output (prepared for phase 2), what `snarkjs zkey verify` checks
 * the power-13 circuits against; each circuit names its own in `CIRCUITS[name].ptau`.
 */
export const PTAU_FILE = 'pot13_final.ptau';
export const MANIFEST_PATH: string = join(ARTIFACTS_DIR, MANIFEST_FILE);

export interface ArtifactManifest {
  /** True for the committed keys (a single-machine dev ceremony); false only for a real ceremony's. */
  dev_only: boolean;
  warning: string;
  curve: 'bn128';
  protocol: 'groth16';
  /** Power of `PTAU_FILE`; a circuit set up from another phase-1 file says so in its `ptau`/`ptau_power`. */
  ptau_power: number;
  versions: { circom: string; circom2_npm: string; snarkjs: string; circomlib: string };
  circom_flags: string[];
  ceremony: Record<string, unknown>;
  circuits: Record<
    CircuitName,
    {
      source: string;
      /** scripts/circuit-sources.ts: the source and its local includes when the artifacts were built. */
      source_sha256?: string;
      template: string;
      constraints: number;
      wires: number;
      public_inputs: string[];
      private_inputs_count: number;
      /** Absent: `PTAU_FILE` at `ptau_power`. */
      ptau?: string;
      ptau_power?: number;
      files: { wasm: string; zkey: string; vkey: string; r1cs: string };
    }
  >;
  /** SHA-256 (lowercase hex) and size of every artifact, keyed by file name. */
  files: Record<string, { sha256: string; bytes: number }>;
}

/** An artifact on disk does not match the manifest (or is missing from it). */
export class ArtifactIntegrityError extends Error {
  override readonly name = 'ArtifactIntegrityError';
  constructor(
    readonly file: string,
    readonly expectedSha256: string | undefined,
    readonly actualSha256: string | undefined,
    message?: string,
  ) {
    super(
      message ??
        `artifact ${file}: SHA-256 ${actualSha256 ?? '(unreadable)'} does not match the manifest ` +
          `(${expectedSha256 ?? 'not listed'}); rerun the ceremony or restore the committed file`,
    );
  }
}

export function sha256Hex(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Absolute paths of one circuit's artifacts. */
export function artifactPaths(circuit: CircuitName): {
  wasm: string;
  zkey: string;
  vkey: string;
  r1cs: string;
} {
  const c = CIRCUITS[circuit];
  return {
    wasm: join(ARTIFACTS_DIR, c.wasm),
    zkey: join(ARTIFACTS_DIR, c.zkey),
    vkey: join(ARTIFACTS_DIR, c.vkey),
    r1cs: join(ARTIFACTS_DIR, c.r1cs),
  };
}

let manifestPromise: Promise<ArtifactManifest> | undefined;

/** Reads and sanity-checks artifacts/manifest.json (cached). */
export function readManifest(dir: string = ARTIFACTS_DIR): Promise<ArtifactManifest> {
  const load = async (): Promise<ArtifactManifest> => {
    const raw = JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8')) as ArtifactManifest;
    if (typeof raw.dev_only !== 'boolean' || typeof raw.files !== 'object' || raw.files === null) {
      throw new ArtifactIntegrityError(MANIFEST_FILE, undefined, undefined, 'malformed artifacts manifest');
    }
    return raw;
  };
  if (dir !== ARTIFACTS_DIR) return load();
  manifestPromise ??= load().catch((err: unknown) => {
    manifestPromise = undefined;
    throw err;
  });
  return manifestPromise;
}

/**
 * Reads one artifact and checks its SHA-256 against the manifest. Throws ArtifactIntegrityError
 * on a mismatch or when the file is not listed. The returned bytes are the ones that were hashed,
 * so use them directly (do not reopen the file).
 */
export async function loadArtifact(file: string, dir: string = ARTIFACTS_DIR): Promise<Uint8Array> {
  const manifest = await readManifest(dir);
  const entry = manifest.files[file];
  if (!entry)
    throw new ArtifactIntegrityError(file, undefined, undefined, `artifact ${file} is not in the manifest`);
  let data: Uint8Array;
  try {
    data = new Uint8Array(await readFile(join(dir, file)));
  } catch (err) {
    throw new ArtifactIntegrityError(
      file,
      entry.sha256,
      undefined,
      `artifact ${file} cannot be read: ${(err as Error).message}`,
    );
  }
  const actual = sha256Hex(data);
  if (actual !== entry.sha256) throw new ArtifactIntegrityError(file, entry.sha256, actual);
  return data;
}

export interface CircuitArtifacts {
  circuit: CircuitName;
  wasm: Uint8Array;
  zkey: Uint8Array;
  vkey: SnarkjsVerificationKey;
}

const circuitCache = new Map<CircuitName, Promise<CircuitArtifacts>>();

/** Loads (once per process) and verifies the wasm, zkey and verification key of a circuit. */
export function loadCircuitArtifacts(circuit: CircuitName): Promise<CircuitArtifacts> {
  let p = circuitCache.get(circuit);
  if (!p) {
    const c = CIRCUITS[circuit];
    p = (async () => {
      const [wasm, zkey, vkeyBytes] = await Promise.all([
        loadArtifact(c.wasm),
        loadArtifact(c.zkey),
        loadArtifact(c.vkey),
      ]);
      const vkey = JSON.parse(new TextDecoder().decode(vkeyBytes)) as SnarkjsVerificationKey;
      if (vkey.nPublic !== c.publicInputs.length) {
        throw new ArtifactIntegrityError(
          c.vkey,
          undefined,
          undefined,
          `${c.vkey}: nPublic ${vkey.nPublic}, expected ${c.publicInputs.length}`,
        );
      }
      return { circuit, wasm, zkey, vkey };
    })();
    p.catch(() => circuitCache.delete(circuit));
    circuitCache.set(circuit, p);
  }
  return p;
}

/** Loads the verification key of a circuit (hash-checked). */
export async function loadVerificationKey(circuit: CircuitName): Promise<SnarkjsVerificationKey> {
  const bytes = await loadArtifact(CIRCUITS[circuit].vkey);
  return JSON.parse(new TextDecoder().decode(bytes)) as SnarkjsVerificationKey;
}

/** Checks every file listed in the manifest; resolves with the manifest, throws on the first mismatch. */
export async function verifyAllArtifacts(dir: string = ARTIFACTS_DIR): Promise<ArtifactManifest> {
  const manifest = await readManifest(dir);
  for (const file of Object.keys(manifest.files)) await loadArtifact(file, dir);
  return manifest;
}
