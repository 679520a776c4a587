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
 * A Groth16 prover and its warm-up: `warm` readies a proving key before its first proof, so no
 * proof pays for that, and answers how long one proof took on this machine (undefined when it
 * could not measure one).
 */
export interface Groth16Backend {
  prove: Groth16Prove;
  warm(zkey: Uint8Array): Promise<number | undefined>;
}

/** snarkjs parses its key on every proof: nothing to keep, nothing measured. */
export function snarkjsGroth16Backend(snarkjs: SnarkjsApi): Groth16Backend {
  return { prove: snarkjsGroth16Prove(snarkjs), warm: () => Promise.resolve(undefined) };
}

/**
 * The native addon's prover (native-prover.ts). Each proving key is parsed once and kept for the
 * worker's life (keyed by the zkey buffer the worker holds): by `warm`, or else by its first proof.
 * `warm` also times one proof of a made-up witness (the proof is thrown away): the same MSMs and
 * NTTs as a real one, on this machine as loaded as it is now.
 */
export function nativeGroth16Backend(threads: number): Groth16Backend {
  const keys = new WeakMap<Uint8Array, NativeGroth16Key>();
  const keyOf = (zkey: Uint8Array): NativeGroth16Key => {
    let key = keys.get(zkey);
    if (!key) {
      key = NativeGroth16Key.load(zkey);
      keys.set(zkey, key);
    }
    return key;
  };
  return {
    prove: async (zkey, witness) => {
      const { proof, publicSignals } = await nativeProve(keyOf(zkey), witnessFromWtns(witness), {
        threads,
      });
      return { proof: bytesToSnarkjsProof(proof), publicSignals: publicSignals.map(String) };
    },
    warm: async (zkey) => {
      const key = keyOf(zkey);
      const started = performance.now();
      await nativeProve(key, madeUpWitness(key.nVars), { threads });
      return performance.now() - started;
    },
  };
}

/** Wire 0 is 1, the rest small distinct values (none zero, so no MSM term is skipped). */
function madeUpWitness(nVars: number): Uint8Array {
  const w = new Uint8Array(nVars * 32);
  for (let i = 0; i < nVars; i++) w[i * 32] = i === 0 ? 1 : (i % 251) + 1;
  return w;
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
