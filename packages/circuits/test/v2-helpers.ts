/**
 * The settlement v2 circuits' tests use the committed wasm and r1cs that artifacts/manifest.json
 * lists. A circuit the manifest does not list (a new or changed one before its ceremony) is
 * compiled (circom2 --O2, as the ceremony does) into build/v2/<name>-<source fingerprint>/,
 * gitignored, once per source version: a changed circuit or include gets a fresh directory, an
 * unchanged one is reused (about 30 s per circuit on two shared cores the first time).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadArtifact, readManifest, type CircuitName } from '../src/artifacts.js';
import { compileCircuit } from '../scripts/ceremony.js';
import { circuitSourceSha256 } from '../scripts/circuit-sources.js';
import { afterAll, beforeAll, expect, it } from 'vitest';

import { r1csHolds, snarkjs, terminateCurve, witnessFromWasm } from './helpers.js';

const BUILD_V2 = fileURLToPath(new URL('../build/v2/', import.meta.url));

/** First compile of one circuit, beside other work on two cores: give it minutes. */
export const COMPILE_TIMEOUT_MS = 600_000;

interface Compiled {
  wasm: Uint8Array;
  r1cs: Uint8Array;
}

const cache = new Map<CircuitName, Promise<Compiled>>();

async function load(name: CircuitName): Promise<Compiled> {
  const files = (await readManifest()).files;
  if (files[`${name}.wasm`] && files[`${name}.r1cs`]) {
    const [wasm, r1cs] = await Promise.all([loadArtifact(`${name}.wasm`), loadArtifact(`${name}.r1cs`)]);
    return { wasm, r1cs };
  }
  const dir = join(BUILD_V2, `${name}-${circuitSourceSha256(name).slice(0, 16)}`);
  if (!existsSync(dir)) {
    // Compile beside the final directory and rename it into place, so a run stopped halfway (or
    // another worker compiling the same source) never leaves a half-written directory behind.
    mkdirSync(BUILD_V2, { recursive: true });
    const tmp = mkdtempSync(join(BUILD_V2, `.${name}-`));
    try {
      compileCircuit(name, tmp);
      try {
        renameSync(tmp, dir);
      } catch (err) {
        // Another worker put the same build there first: use it.
        if (!existsSync(dir)) throw err;
      }
      // Builds of this circuit's earlier sources are of no further use.
      for (const old of readdirSync(BUILD_V2))
        if (old.startsWith(`${name}-`) && join(BUILD_V2, old) !== dir)
          rmSync(join(BUILD_V2, old), { recursive: true, force: true });
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  return {
    wasm: new Uint8Array(readFileSync(join(dir, `${name}_js`, `${name}.wasm`))),
    r1cs: new Uint8Array(readFileSync(join(dir, `${name}.r1cs`))),
  };
}

/** The circuit's wasm and r1cs, compiled if needed (call it from a beforeAll with COMPILE_TIMEOUT_MS). */
export function compiledV2(name: CircuitName): Promise<Compiled> {
  let p = cache.get(name);
  if (!p) {
    p = load(name);
    p.catch(() => cache.delete(name));
    cache.set(name, p);
  }
  return p;
}

/** Runs the circuit's witness calculator; throws (with circom's assert message) on a rejected input. */
export async function witnessV2(name: CircuitName, input: Record<string, unknown>): Promise<Uint8Array> {
  return witnessFromWasm((await compiledV2(name)).wasm, input);
}

export async function r1csSatisfiedV2(name: CircuitName, wtns: Uint8Array): Promise<boolean> {
  return r1csHolds((await compiledV2(name)).r1cs, wtns);
}

/** Number of constraints in the compiled r1cs (its header). */
export async function constraintCount(name: CircuitName): Promise<number> {
  const { r1cs } = await compiledV2(name);
  const quiet = { info() {}, debug() {}, warn() {}, error() {} };
  return (await snarkjs.r1cs.info(r1cs, quiet)).nConstraints;
}

/**
 * The common frame of a v2 circuit's suite: compile it first, free snarkjs' curve threads last,
 * and pin its constraint count (the number the README states).
 */
export function circuitV2Suite(name: CircuitName, constraints: number): void {
  beforeAll(() => compiledV2(name), COMPILE_TIMEOUT_MS);
  afterAll(terminateCurve);
  it(`has ${constraints.toLocaleString('en-US')} constraints (README "Settlement v2 circuits")`, async () => {
    expect(await constraintCount(name)).toBe(constraints);
  });
}
