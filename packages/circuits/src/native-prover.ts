/**
 * Native Groth16 prover (C++ addon in ../native, built by node-gyp at install). Same proofs as
 * snarkjs' groth16.prove, about an order of magnitude cheaper; the addon parses a .zkey once into
 * a NativeGroth16Key and proves on libuv's thread pool, so the caller's event loop stays free.
 * When the addon did not build, nativeProverAvailable() is false and callers keep snarkjs.
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';

import { FIELD_MODULUS } from '@nightjar/protocol';

/** What the compiled addon exports (native/addon.cpp). */
export interface NativeAddon {
  loadKey(zkey: Uint8Array): { handle: unknown; nVars: number; nPublic: number; domainSize: number };
  prove(
    handle: unknown,
    witness: Uint8Array,
    rand: Uint8Array,
    threads: number,
  ): Promise<{
    proof: Uint8Array;
    times: NativeProofTimes;
  }>;
}

/** Seconds spent per phase of one proof (inside the addon). */
export interface NativeProofTimes {
  build: number;
  /** The three polynomial chains and the witness MSMs (they share the threads). */
  ntt: number;
  /** The H MSM. */
  msm: number;
  total: number;
}

export type AddonLoader = () => NativeAddon;

export type NativeProverErrorCode =
  | 'NATIVE_UNAVAILABLE'
  | 'NATIVE_ARGUMENT'
  | 'ZKEY_INVALID'
  | 'ZKEY_TRUNCATED'
  | 'ZKEY_NOT_GROTH16'
  | 'ZKEY_NOT_BN254'
  | 'WITNESS_LENGTH'
  | 'WITNESS_RANGE'
  | 'PROOF_DEGENERATE'
  | 'PROVER_INTERNAL';

/** Every failure of the native prover (bad key, bad witness, missing addon). */
export class NativeProverError extends Error {
  override readonly name = 'NativeProverError';
  constructor(
    readonly code: NativeProverErrorCode,
    message: string,
  ) {
    super(message);
  }
}

function asNativeError(err: unknown): NativeProverError {
  if (err instanceof NativeProverError) return err;
  const e = err as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? (e.code as NativeProverErrorCode) : 'PROVER_INTERNAL';
  return new NativeProverError(code, typeof e.message === 'string' ? e.message : String(err));
}

/** Loads build/Release/nightjar_prover.node next to this package. */
export const defaultAddonLoader: AddonLoader = () =>
  createRequire(import.meta.url)('../build/Release/nightjar_prover.node') as NativeAddon;

let defaultAddon: NativeAddon | null | undefined;

/** The addon, or undefined when it cannot be loaded (not built, wrong platform). */
export function loadNativeAddon(loader: AddonLoader = defaultAddonLoader): NativeAddon | undefined {
  if (loader !== defaultAddonLoader) {
    try {
      return loader();
    } catch {
      return undefined;
    }
  }
  if (defaultAddon === undefined) {
    try {
      defaultAddon = loader();
    } catch {
      defaultAddon = null;
    }
  }
  return defaultAddon ?? undefined;
}

/** Whether the addon loaded. */
export function nativeProverAvailable(loader?: AddonLoader): boolean {
  return loadNativeAddon(loader) !== undefined;
}

export type ProverBackend = 'native' | 'snarkjs';

/**
 * Which Groth16 prover to use: the addon when it loads, else snarkjs. NIGHTJAR_PROVER=snarkjs
 * forces the fallback (for comparisons, or to rule the addon out).
 */
export function selectProverBackend(
  options: { loader?: AddonLoader; env?: Record<string, string | undefined> } = {},
): ProverBackend {
  const env = options.env ?? process.env;
  if (env.NIGHTJAR_PROVER === 'snarkjs') return 'snarkjs';
  return nativeProverAvailable(options.loader) ? 'native' : 'snarkjs';
}

/** A parsed proving key, held by the addon in its internal form and reused for every proof. */
export class NativeGroth16Key {
  private constructor(
    readonly addon: NativeAddon,
    readonly handle: unknown,
    readonly nVars: number,
    readonly nPublic: number,
    readonly domainSize: number,
  ) {}

  /** Parses and checks a snarkjs groth16 .zkey; throws NativeProverError (ZKEY_*) when malformed. */
  static load(zkeyBytes: Uint8Array, loader?: AddonLoader): NativeGroth16Key {
    const addon = loadNativeAddon(loader);
    if (!addon) throw new NativeProverError('NATIVE_UNAVAILABLE', 'the native prover addon is not built');
    let k: ReturnType<NativeAddon['loadKey']>;
    try {
      k = addon.loadKey(zkeyBytes);
    } catch (err) {
      throw asNativeError(err);
    }
    return new NativeGroth16Key(addon, k.handle, k.nVars, k.nPublic, k.domainSize);
  }
}

export interface NativeProofResult {
  /** 256 bytes: A.x ‖ A.y ‖ B.x.c1 ‖ B.x.c0 ‖ B.y.c1 ‖ B.y.c0 ‖ C.x ‖ C.y, 32-byte big-endian. */
  proof: Uint8Array;
  publicSignals: bigint[];
  times: NativeProofTimes;
}

/** Full witness as 32-byte little-endian elements, each checked to be below r. */
export function encodeWitness(witness: readonly bigint[]): Uint8Array {
  const out = new Uint8Array(witness.length * 32);
  witness.forEach((v, i) => {
    if (typeof v !== 'bigint' || v < 0n || v >= FIELD_MODULUS) {
      throw new NativeProverError('WITNESS_RANGE', `witness element ${i} is not in [0, r)`);
    }
    for (let b = 0; b < 32; b++) out[i * 32 + b] = Number((v >> BigInt(8 * b)) & 0xffn);
  });
  return out;
}

/** The witness values (section 2) of a .wtns file, as snarkjs.wtns.calculate writes it. */
export function witnessFromWtns(wtns: Uint8Array): Uint8Array {
  const view = new DataView(wtns.buffer, wtns.byteOffset, wtns.byteLength);
  if (wtns.byteLength < 12 || new TextDecoder().decode(wtns.subarray(0, 4)) !== 'wtns') {
    throw new NativeProverError('NATIVE_ARGUMENT', 'not a wtns file');
  }
  const nSections = view.getUint32(8, true);
  let pos = 12;
  for (let s = 0; s < nSections && pos + 12 <= wtns.byteLength; s++) {
    const type = view.getUint32(pos, true);
    const size = Number(view.getBigUint64(pos + 4, true));
    if (pos + 12 + size > wtns.byteLength) break;
    if (type === 2) return wtns.subarray(pos + 12, pos + 12 + size);
    pos += 12 + size;
  }
  throw new NativeProverError('NATIVE_ARGUMENT', 'wtns file has no witness section');
}

function readLE(bytes: Uint8Array, offset: number): bigint {
  let v = 0n;
  for (let b = 31; b >= 0; b--) v = (v << 8n) | BigInt(bytes[offset + b] as number);
  return v;
}

/**
 * Proves with a loaded key. `witness`: the full witness (wire 0 = 1, then the public signals,
 * then the private wires). Rejects with NativeProverError on a malformed witness.
 */
export async function nativeProve(
  key: NativeGroth16Key,
  witness: readonly bigint[] | Uint8Array,
  opts: { threads?: number } = {},
): Promise<NativeProofResult> {
  const bytes = witness instanceof Uint8Array ? witness : encodeWitness(witness);
  const threads = opts.threads ?? 1;
  if (!Number.isInteger(threads) || threads < 1 || threads > 64) {
    throw new NativeProverError('NATIVE_ARGUMENT', 'threads must be an integer in 1..64');
  }
  if (bytes.byteLength !== key.nVars * 32) {
    throw new NativeProverError(
      'WITNESS_LENGTH',
      `witness has ${bytes.byteLength / 32} elements, the key needs ${key.nVars}`,
    );
  }
  // 64 bytes per blinding scalar, reduced mod r in the addon (bias below 2^-250).
  const rand = new Uint8Array(randomBytes(128));
  let out: Awaited<ReturnType<NativeAddon['prove']>>;
  try {
    out = await key.addon.prove(key.handle, bytes, rand, threads);
  } catch (err) {
    throw asNativeError(err);
  }
  const publicSignals: bigint[] = [];
  for (let i = 1; i <= key.nPublic; i++) publicSignals.push(readLE(bytes, i * 32));
  return { proof: new Uint8Array(out.proof), publicSignals, times: out.times };
}
