/**
 * Typed, lazy access to snarkjs for tests, benchmarks and the fixture script.
 *
 * snarkjs ships no type declarations. Rather than adding an ambient `declare module 'snarkjs'`
 * (which would clash with any other package declaring it), this module loads it through a
 * non-literal dynamic import and describes only the functions this package uses. Nothing in the
 * runtime verification path depends on snarkjs; it is not re-exported from the package index.
 */
import type { SnarkjsProof, SnarkjsVerificationKey } from './proof-format.js';

export interface SnarkjsCurve {
  terminate(): Promise<void>;
}

export interface SnarkjsLogger {
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export interface SnarkjsApi {
  groth16: {
    fullProve(
      input: Record<string, string | bigint | number>,
      wasmFile: string,
      zkeyFile: string,
    ): Promise<{ proof: SnarkjsProof; publicSignals: string[] }>;
    verify(
      vk: SnarkjsVerificationKey,
      publicSignals: readonly string[],
      proof: SnarkjsProof,
      logger?: SnarkjsLogger,
    ): Promise<boolean>;
  };
  powersOfTau: {
    newAccumulator(
      curve: SnarkjsCurve,
      power: number,
      fileName: string,
      logger?: SnarkjsLogger,
    ): Promise<unknown>;
    contribute(
      oldPtau: string,
      newPtau: string,
      name: string,
      entropy: string,
      logger?: SnarkjsLogger,
    ): Promise<unknown>;
    beacon(
      oldPtau: string,
      newPtau: string,
      name: string,
      beaconHashHex: string,
      numIterationsExp: number,
      logger?: SnarkjsLogger,
    ): Promise<unknown>;
    preparePhase2(oldPtau: string, newPtau: string, logger?: SnarkjsLogger): Promise<unknown>;
  };
  zKey: {
    newZKey(r1cs: string, ptau: string, zkey: string, logger?: SnarkjsLogger): Promise<unknown>;
    contribute(
      oldZkey: string,
      newZkey: string,
      name: string,
      entropy: string,
      logger?: SnarkjsLogger,
    ): Promise<unknown>;
    beacon(
      oldZkey: string,
      newZkey: string,
      name: string,
      beaconHashHex: string,
      numIterationsExp: number,
      logger?: SnarkjsLogger,
    ): Promise<unknown>;
    exportVerificationKey(zkey: string, logger?: SnarkjsLogger): Promise<SnarkjsVerificationKey>;
  };
  curves: {
    getCurveFromName(name: string, options?: { singleThread?: boolean }): Promise<SnarkjsCurve>;
  };
}

let cached: Promise<SnarkjsApi> | undefined;

/** Loads snarkjs once (ESM entry). */
export function loadSnarkjs(): Promise<SnarkjsApi> {
  if (cached === undefined) {
    const specifier: string = 'snarkjs';
    cached = import(specifier).then((m: unknown) => m as SnarkjsApi);
  }
  return cached;
}

/**
 * Releases the worker threads snarkjs' BN254 curve (ffjavascript) keeps alive, so a process that
 * used snarkjs can exit. Safe to call when snarkjs never built the curve.
 */
export async function terminateSnarkjs(): Promise<void> {
  const g = globalThis as { curve_bn128?: SnarkjsCurve | null };
  const curve = g.curve_bn128;
  if (curve) {
    g.curve_bn128 = null;
    await curve.terminate();
  }
}
