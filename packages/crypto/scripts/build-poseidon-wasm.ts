/**
 * Regenerates src/poseidon-wasm/poseidon.wasm, the committed WebAssembly Poseidon permutation.
 * Usage (from packages/crypto): npx tsx scripts/build-poseidon-wasm.ts [--wat out.wat]
 * test/poseidon-wasm-artifact.test.ts fails until the committed file matches this output.
 */
import { writeFileSync } from 'node:fs';
import { POSEIDON_WASM_PATH } from '../src/poseidon-wasm/instance.js';
import { buildPoseidonWasm, poseidonWat } from './poseidon-wasm/assemble.js';

const watFlag = process.argv.indexOf('--wat');
if (watFlag >= 0) {
  const target = process.argv[watFlag + 1];
  if (target === undefined) throw new Error('--wat needs a file name');
  writeFileSync(target, poseidonWat());
}
const bytes = await buildPoseidonWasm();
writeFileSync(POSEIDON_WASM_PATH, bytes);
console.log(`wrote ${POSEIDON_WASM_PATH} (${bytes.length} bytes)`);
