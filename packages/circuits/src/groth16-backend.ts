/**
 * The proving backend seam: the prover worker computes a witness with the circuit's wasm, then
 * hands it to one `Groth16Prove` function. snarkjs is the default; a native prover can replace it
 * without touching the worker pool.
 */
import type { SnarkjsApi, SnarkjsProofJson } from '@nightjar/crypto';

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
