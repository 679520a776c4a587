/**
 * Direct calls into mcl-wasm's exported C functions on wasm memory, for the verifier's hot paths:
 * mcl-wasm's object API allocates, copies in and copies out on every call, which costs more than
 * the arithmetic for cheap operations (a G2 doubling, an Fp multiplication).
 *
 * Sizes are those of mcl's in-memory representations in this build (MCLBN_FP_UNIT_SIZE = 6,
 * MCLBN_FR_UNIT_SIZE = 4). Points are Jacobian (X, Y, Z); Fp2 is (a, b) = a + b·u; field elements
 * are in Montgomery form, so values are only ever written through mcl's setters.
 */
import mcl from 'mcl-wasm';

export const FP_SIZE = 48;
export const FP2_SIZE = FP_SIZE * 2;
export const FR_SIZE = 32;
export const G1_SIZE = FP_SIZE * 3;
export const G2_SIZE = FP2_SIZE * 3;
export const GT_SIZE = FP_SIZE * 12;

/** The parts of mcl's wasm module used here (not in mcl-wasm's typings). Pointers are numbers. */
export interface MclWasm {
  readonly HEAP8: Int8Array;
  readonly HEAP32: Int32Array;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  _mclBnFp_setBigEndianMod(x: number, buf: number, bytes: number): number;
  _mclBnFp_mul(z: number, x: number, y: number): void;
  _mclBnFp_neg(y: number, x: number): void;
  _mclBnFp2_mul(z: number, x: number, y: number): void;
  _mclBnFr_setLittleEndian(x: number, buf: number, bytes: number): number;
  _mclBnG1_clear(x: number): void;
  _mclBnG1_dbl(y: number, x: number): void;
  _mclBnG1_add(z: number, x: number, y: number): void;
  _mclBnG1_sub(z: number, x: number, y: number): void;
  _mclBnG1_mulVec(z: number, x: number, y: number, n: number): void;
  _mclBnG1_normalizeVec(y: number, x: number, n: number): void;
  _mclBnG2_isZero(x: number): number;
  _mclBnG2_isEqual(x: number, y: number): number;
  _mclBnG2_dbl(y: number, x: number): void;
  _mclBnG2_add(z: number, x: number, y: number): void;
  _mclBnG2_neg(y: number, x: number): void;
  _mclBnG2_normalize(y: number, x: number): void;
  _mclBn_verifyOrderG2(doVerify: number): void;
  _mclBn_millerLoopVec?: (z: number, x: number, y: number, n: number) => void;
}

export function wasm(): MclWasm {
  return (mcl as unknown as { mod: MclWasm }).mod;
}

const REQUIRED: readonly (keyof MclWasm)[] = [
  '_malloc',
  '_free',
  '_mclBnFp_setBigEndianMod',
  '_mclBnFp_mul',
  '_mclBnFp_neg',
  '_mclBnFp2_mul',
  '_mclBnFr_setLittleEndian',
  '_mclBnG1_clear',
  '_mclBnG1_dbl',
  '_mclBnG1_add',
  '_mclBnG1_sub',
  '_mclBnG1_mulVec',
  '_mclBnG1_normalizeVec',
  '_mclBnG2_isZero',
  '_mclBnG2_isEqual',
  '_mclBnG2_dbl',
  '_mclBnG2_add',
  '_mclBnG2_neg',
  '_mclBnG2_normalize',
  '_mclBn_verifyOrderG2',
];

/** Throws unless this mcl-wasm build exports every function used here (after mcl.init). */
export function assertWasmExports(): void {
  const mod = wasm() as unknown as Record<string, unknown>;
  const missing = REQUIRED.filter((name) => typeof mod[name] !== 'function');
  if (missing.length > 0) throw new Error(`mcl-wasm build lacks ${missing.join(', ')}`);
}

/** Wasm memory as bytes. Memory can grow (detaching old views), so take a fresh view per use. */
export function heapBytes(): Uint8Array {
  const h = wasm().HEAP8;
  return new Uint8Array(h.buffer, h.byteOffset, h.byteLength);
}

/** Copies `bytes` bytes inside wasm memory (4-byte aligned, as all mcl values are). */
export function copyInHeap(dst: number, src: number, bytes: number): void {
  wasm().HEAP32.copyWithin(dst >> 2, src >> 2, (src + bytes) >> 2);
}

/**
 * A block of wasm memory owned by one module of this thread, grown on demand and never freed (it
 * is reused by every call). Reallocated if mcl was initialised again (a new wasm instance).
 * `onAllocate` runs on each new allocation (to write constants the owner keeps there).
 */
export class WasmBlock {
  private mod: MclWasm | undefined;
  private base = 0;
  private size = 0;

  constructor(private readonly onAllocate?: (base: number) => void) {}

  /** Address of at least `bytes` bytes; contents are not kept across calls that grow it. */
  at(bytes: number): number {
    const mod = wasm();
    if (this.mod !== mod || this.size < bytes) {
      if (this.mod === mod) mod._free(this.base);
      this.size = Math.max(bytes, this.size * 2, 1024);
      this.base = mod._malloc(this.size);
      if (this.base === 0) throw new RangeError('mcl wasm: out of memory');
      this.mod = mod;
      this.onAllocate?.(this.base);
    }
    return this.base;
  }
}

/**
 * ∏ ML(P_i, Q_i) with mcl's multi-Miller loop (shared squarings), or a product of single Miller
 * loops when the wasm build does not export it.
 */
export function millerLoopProduct(ps: readonly mcl.G1[], qs: readonly mcl.G2[]): mcl.GT {
  const n = ps.length;
  if (n === 0 || n !== qs.length) throw new RangeError('millerLoopProduct: bad lengths');
  const vec = wasm()._mclBn_millerLoopVec;
  if (vec === undefined) {
    let f = mcl.millerLoop(ps[0] as mcl.G1, qs[0] as mcl.G2);
    for (let i = 1; i < n; i++) f = mcl.mul(f, mcl.millerLoop(ps[i] as mcl.G1, qs[i] as mcl.G2));
    return f;
  }
  const pPos = millerLoopBlock.at(n * (G1_SIZE + G2_SIZE) + GT_SIZE);
  const qPos = pPos + n * G1_SIZE;
  const zPos = qPos + n * G2_SIZE;
  for (let i = 0; i < n; i++) {
    (ps[i] as mcl.G1).copyToMem(pPos + i * G1_SIZE);
    (qs[i] as mcl.G2).copyToMem(qPos + i * G2_SIZE);
  }
  vec.call(undefined, zPos, pPos, qPos, n);
  const z = new mcl.GT();
  z.copyFromMem(zPos);
  return z;
}

const millerLoopBlock = new WasmBlock();
