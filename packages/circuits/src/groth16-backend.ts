/**
 * The proving backend seam: the prover worker computes a witness with the circuit's wasm, then
 * hands it to one `Groth16Prove` function. snarkjs is the default; a native prover can replace it
 * without touching the worker pool.
 */
import { bytesToSnarkjsProof, type SnarkjsApi, type SnarkjsProofJson } from '@nightjar/crypto';
import { NativeGroth16Key, nativeProve, witnessFromWtns } from './native-prover.js';

export interface Groth16ProveResult {
  proof: SnarkjsProofJson;
  /** Decimal strings, circuit order. */
  publicSignals: string[];
}

/** Proves from a proving key (.zkey bytes) and a witness (.wtns bytes). */
export type Groth16Prove = (zkey: Uint8Array, witness: Uint8Array) => Promise<Groth16ProveResult>;

/** snarkjs' prover (the SnarkjsApi typing of @nightjar/crypto describes fullProve only). */
export function snarkjsGroth16Prove(snarkjs: SnarkjsApi): Groth16Prove {
  const groth16 = snarkjs.groth16 as SnarkjsApi['groth16'] & {
    prove(zkey: Uint8Array, wtns: Uint8Array): Promise<Groth16ProveResult>;
  };
  return (zkey, witness) => groth16.prove(zkey, witness);
}

/**
 * The native addon's prover (native-prover.ts). Each proving key is parsed once, on its first
 * proof, and kept for the worker's life (keyed by the zkey buffer the worker holds).
 */
export function nativeGroth16Prove(threads: number): Groth16Prove {
  const keys = new WeakMap<Uint8Array, NativeGroth16Key>();
  return async (zkey, witness) => {
    let key = keys.get(zkey);
    if (!key) {
      key = NativeGroth16Key.load(zkey);
      keys.set(zkey, key);
    }
    const { proof, publicSignals } = await nativeProve(key, witnessFromWtns(witness), { threads });
    return { proof: bytesToSnarkjsProof(proof), publicSignals: publicSignals.map(String) };
  };
}

/** Runs the circuit's witness calculator; throws circom's assert message on an unsatisfied constraint. */
export async function calculateWitness(
  snarkjs: SnarkjsApi,
  wasm: Uint8Array,
  input: Record<string, unknown>,
): Promise<Uint8Array> {
  const out: { type: 'mem'; data?: Uint8Array } = { type: 'mem' };
  await snarkjs.wtns.calculate(input, wasm, out);
  if (!out.data) throw new Error('witness calculator produced no data');
  return out.data;
}
