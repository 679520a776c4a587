/**
 * Groth16 verification over BN254 on mcl-wasm (curve BN_SNARK1, the curve of snarkjs/circom and
 * of the EIP-196/197 precompiles).
 *
 * Single proof: e(A, B) == e(alpha, beta) · e(vk_x, gamma) · e(C, delta), evaluated as one product
 * of Miller loops, ML(-A, B) · ML(vk_x, gamma) · ML(C, delta) · ML(alpha, beta), where the last
 * factor is precomputed per key, followed by ONE final exponentiation and a comparison with 1.
 *
 * Batch of n proofs (random linear combination, fresh coefficients rho_i from the OS CSPRNG, 128
 * random bits each, see batch-coefficients.ts):
 *   ∏ e(rho_i·A_i, B_i) == e(alpha, beta)^{Σ rho_i} · e(Σ rho_i·vk_x_i, gamma) · e(Σ rho_i·C_i, delta)
 * computed as one multi-Miller loop over n + 2 pairs and ONE final exponentiation; e(alpha, beta)
 * is precomputed in GT, and Σ rho_i·vk_x_i is one MSM over the key's IC points:
 *   (Σ rho_i)·IC_0 + Σ_j (Σ_i rho_i·x_ij)·IC_j.
 * A batch that fails is bisected (reusing the same rho_i, which were drawn after the proofs were
 * fixed) so that exactly the bad proofs are reported and one forgery never rejects good proofs.
 *
 * Point checks (proof-points.ts): every coordinate < p, A, B, C not the point at infinity, A and C
 * on the curve (G1 of BN254 has cofactor 1), B on the twist AND in the order-r subgroup (every B,
 * one by one: g2-subgroup.ts). Public inputs must be < r. Any of these failing makes the proof
 * invalid (false), never an exception. Only shape errors (proof not 256 bytes, wrong number of
 * public inputs) throw typed errors.
 *
 * mcl keeps one global instance per thread: call `initMcl()` (or `Groth16Verifier.create`, which
 * does) once per thread; do not re-initialise mcl on another curve in the same thread.
 */
import { randomBytes } from 'node:crypto';
import mcl from 'mcl-wasm';
import {
  COEFFICIENT_BYTES,
  coefficientsFromBytes,
  combine,
  scaleEach,
  setUpGlv,
} from './batch-coefficients.js';
import { setUpG2SubgroupCheck } from './g2-subgroup.js';
import { assertWasmExports, millerLoopProduct } from './mcl-wasm.js';
import {
  alphaBetaPower,
  combinedPublicInputTerm,
  prepareKey,
  publicInputTerm,
  publicInputsOf,
  type PreparedKey,
} from './prepared-key.js';
import { parseProofPoints, type ProofPoints } from './proof-points.js';
import { assertProofLength } from './proof-format.js';
import {
  parseVerificationKey,
  type SnarkjsVerificationKey,
  type VerificationKey,
} from './verification-key.js';

export { g2SubgroupCheckMethod, isInG2Subgroup } from './g2-subgroup.js';
export { checkProofPoints, type ProofPointStatus } from './proof-points.js';

let initPromise: Promise<void> | undefined;

/** Initialises mcl-wasm for BN_SNARK1 once per thread (idempotent). */
export function initMcl(): Promise<void> {
  if (initPromise === undefined) {
    initPromise = (async () => {
      await mcl.init(mcl.BN_SNARK1);
      assertWasmExports();
      // setStr / deserialize / isValid on G2 also check the order-r subgroup.
      mcl.verifyOrderG2(true);
      setUpG2SubgroupCheck();
      setUpGlv();
    })();
    initPromise.catch(() => {
      initPromise = undefined;
    });
  }
  return initPromise;
}

/** One proof to verify: the 256-byte proof and its public inputs (bytes or field elements). */
export interface ProofItem {
  proof: Uint8Array;
  publicInputs: Uint8Array | readonly bigint[];
}

/** Options of `Groth16Verifier.verifyBatch`. */
export interface BatchOptions {
  /**
   * Source of the random 128-bit coefficients: must return `n` cryptographically secure random
   * bytes. Defaults to node:crypto randomBytes. Exists for tests only.
   */
  randomBytes?: (n: number) => Uint8Array;
}

/**
 * A Groth16 verifier for one verification key. Create with `await Groth16Verifier.create(vk)`.
 * Synchronous after creation; one instance per thread (mcl is per thread).
 */
export class Groth16Verifier {
  readonly nPublic: number;
  readonly key: VerificationKey;
  private readonly prepared: PreparedKey;

  private constructor(vk: VerificationKey) {
    this.key = vk;
    this.nPublic = vk.nPublic;
    this.prepared = prepareKey(vk);
  }

  /** Initialises mcl (once per thread) and prepares the key: a parsed key or snarkjs JSON. */
  static async create(vk: VerificationKey | SnarkjsVerificationKey): Promise<Groth16Verifier> {
    await initMcl();
    return new Groth16Verifier(isVerificationKey(vk) ? vk : parseVerificationKey(vk));
  }

  private verifyParsed(p: ProofPoints, inputs: bigint[]): boolean {
    const k = this.prepared;
    const f = mcl.mul(
      millerLoopProduct([mcl.neg(p.a), publicInputTerm(k, inputs), p.c], [p.b, k.gamma, k.delta]),
      k.mlAlphaBeta,
    );
    return mcl.finalExp(f).isOne();
  }

  /**
   * Verifies one proof. Returns false for any invalid proof (bad coordinates, points off the curve
   * or outside the subgroup, infinity, public input >= r, failed pairing check). Throws typed
   * errors only for shape errors: proof not 256 bytes, wrong number of public inputs.
   */
  verify(proof: Uint8Array, publicInputs: Uint8Array | readonly bigint[]): boolean {
    assertProofLength(proof);
    const inputs = publicInputsOf(this.prepared, publicInputs);
    if (inputs === undefined) return false;
    const parsed = parseProofPoints(proof);
    if (typeof parsed === 'string') return false;
    return this.verifyParsed(parsed, inputs);
  }

  /**
   * Verifies many proofs with one random linear combination (n + 2 Miller loops, one final
   * exponentiation); on failure, bisects to find exactly the invalid ones. Returns one boolean per
   * item, in order. Shape errors throw (see `verify`).
   */
  verifyBatch(items: readonly ProofItem[], options: BatchOptions = {}): boolean[] {
    const results = new Array<boolean>(items.length).fill(false);
    const index: number[] = [];
    const points: ProofPoints[] = [];
    const inputs: bigint[][] = [];
    items.forEach((item, i) => {
      assertProofLength(item.proof);
      const x = publicInputsOf(this.prepared, item.publicInputs);
      if (x === undefined) return;
      const parsed = parseProofPoints(item.proof);
      if (typeof parsed === 'string') return;
      index.push(i);
      points.push(parsed);
      inputs.push(x);
    });
    const n = index.length;
    if (n === 0) return results;
    if (n === 1) {
      results[index[0] as number] = this.verifyParsed(points[0] as ProofPoints, inputs[0] as bigint[]);
      return results;
    }

    const k = coefficientsFromBytes((options.randomBytes ?? randomBytes)(COEFFICIENT_BYTES * n), n);
    const rA = scaleEach(
      points.map((p) => p.a),
      k,
    );
    const cs = points.map((p) => p.c);
    const key = this.prepared;
    const check = (subset: number[]): boolean => {
      const { term, sumRho } = combinedPublicInputTerm(key, inputs, k.rho, subset);
      const extra = [mcl.neg(term), mcl.neg(combine(cs, k, subset))];
      mcl.normalizeVec(extra);
      const ps = [...subset.map((i) => rA[i] as mcl.G1), ...extra];
      const qs = [...subset.map((i) => (points[i] as ProofPoints).b), key.gamma, key.delta];
      return mcl.finalExp(millerLoopProduct(ps, qs)).isEqual(alphaBetaPower(key, sumRho));
    };

    // Bisection. `knownBad`: the caller already saw this subset fail, so skip re-checking it.
    // Completeness is exact (a subset of valid proofs always passes), so a failing singleton is
    // invalid; a singleton not known to fail is verified on its own.
    const resolve = (subset: number[], knownBad: boolean): boolean => {
      if (subset.length === 1) {
        const i = subset[0] as number;
        const ok = knownBad ? false : this.verifyParsed(points[i] as ProofPoints, inputs[i] as bigint[]);
        results[index[i] as number] = ok;
        return ok;
      }
      if (!knownBad && check(subset)) {
        for (const i of subset) results[index[i] as number] = true;
        return true;
      }
      const mid = subset.length >> 1;
      const leftOk = resolve(subset.slice(0, mid), false);
      // The whole subset failed; if the left half is clean, the right half must hold a bad proof.
      resolve(subset.slice(mid), leftOk);
      return false;
    };
    resolve(
      index.map((_, i) => i),
      false,
    );
    return results;
  }
}

function isVerificationKey(v: unknown): v is VerificationKey {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Partial<VerificationKey>;
  return typeof o.nPublic === 'number' && Array.isArray(o.ic) && typeof o.alpha === 'object';
}
