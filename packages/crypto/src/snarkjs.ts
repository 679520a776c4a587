/**
 * Typed, lazy access to snarkjs (which ships no type declarations), shared by the circuits package
 * (prover, ceremony), tests and benchmarks. snarkjs is loaded through a non-literal dynamic import,
 * so no ambient `declare module 'snarkjs'` is needed; only the functions used here are described.
 * Nothing in the verification path depends on snarkjs.
 */
import type { SnarkjsProof } from './groth16/proof-format.js';
import type { SnarkjsVerificationKey } from './groth16/verification-key.js';

/** A file argument: a path, the bytes, or an in-memory fastfile (`data` is filled on write). */
export type SnarkjsFile = string | Uint8Array | { type: 'mem'; data?: Uint8Array };

export interface SnarkjsLogger {
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

/** The proof JSON snarkjs produces. */
export type SnarkjsProofJson = SnarkjsProof;

export interface SnarkjsCurve {
  terminate(): Promise<void>;
}

export interface SnarkjsApi {
  groth16: {
    fullProve(
      input: Record<string, unknown>,
      wasm: SnarkjsFile,
      zkey: SnarkjsFile,
      logger?: SnarkjsLogger,
      wtnsCalcOptions?: Record<string, unknown>,
      proverOptions?: { singleThread?: boolean },
    ): Promise<{ proof: SnarkjsProofJson; publicSignals: string[] }>;
    verify(
      vkey: unknown,
      publicSignals: readonly (string | bigint)[],
      proof: unknown,
      logger?: SnarkjsLogger,
    ): Promise<boolean>;
  };
  wtns: {
    calculate(
      input: Record<string, unknown>,
      wasm: SnarkjsFile,
      wtns: SnarkjsFile,
      options?: Record<string, unknown>,
    ): Promise<void>;
    check(r1cs: SnarkjsFile, wtns: SnarkjsFile, logger?: SnarkjsLogger): Promise<boolean>;
  };
  r1cs: {
    info(
      r1cs: SnarkjsFile,
      logger?: SnarkjsLogger,
    ): Promise<{
      nConstraints: number;
      nVars: number;
      nPubInputs: number;
      nPrvInputs: number;
      nOutputs: number;
    }>;
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
    verify(ptau: string, logger?: SnarkjsLogger): Promise<boolean>;
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
    verifyFromR1cs(r1cs: string, ptau: string, zkey: string, logger?: SnarkjsLogger): Promise<boolean>;
    exportVerificationKey(zkey: SnarkjsFile, logger?: SnarkjsLogger): Promise<SnarkjsVerificationKey>;
  };
  curves: {
    getCurveFromName(name: string, options?: { singleThread?: boolean }): Promise<SnarkjsCurve>;
  };
}

let cached: Promise<SnarkjsApi> | undefined;

/** Loads snarkjs once per thread (its ESM entry). */
export function loadSnarkjs(): Promise<SnarkjsApi> {
  if (cached === undefined) {
    const specifier: string = 'snarkjs';
    cached = import(specifier).then((m: unknown) => m as SnarkjsApi);
  }
  return cached;
}

/**
 * Stops the helper threads of snarkjs' cached BN254 curve (ffjavascript) in this thread, so that
 * a process that used snarkjs can exit. Safe to call when no curve was built.
 */
export async function terminateSnarkjs(): Promise<void> {
  const g = globalThis as { curve_bn128?: SnarkjsCurve | null };
  const curve = g.curve_bn128;
  if (curve) {
    g.curve_bn128 = null;
    await curve.terminate();
  }
}
