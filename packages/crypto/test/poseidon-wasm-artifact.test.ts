import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { POSEIDON_WASM_PATH } from '../src/poseidon-wasm/instance.js';
import { buildPoseidonWasm } from '../scripts/poseidon-wasm/assemble.js';

describe('the committed poseidon.wasm', () => {
  it('is exactly what scripts/build-poseidon-wasm.ts generates (rebuild it after changing the generator)', async () => {
    const built = await buildPoseidonWasm();
    const committed = new Uint8Array(readFileSync(POSEIDON_WASM_PATH));
    expect(committed.length).toBe(built.length);
    expect(Buffer.compare(committed, built)).toBe(0);
  });
});
