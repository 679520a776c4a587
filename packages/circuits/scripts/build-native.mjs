// Install step of @nightjar/circuits: builds the native Groth16 prover with node-gyp. Never fails
// the install: without a compiler or Node's headers the addon is simply absent and proofs fall
// back to snarkjs (see src/native-prover.ts).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';

const args = ['rebuild'];
// Offline machines: use the headers installed next to this node (e.g. /usr/include/node) instead
// of letting node-gyp download them, unless npm already names a nodedir.
const prefix = dirname(dirname(process.execPath));
if (!process.env.npm_config_nodedir && existsSync(join(prefix, 'include', 'node', 'node_api.h'))) {
  args.push(`--nodedir=${prefix}`);
}
const gyp = process.env.npm_config_node_gyp;
const result = gyp
  ? spawnSync(process.execPath, [gyp, ...args], { stdio: 'inherit' })
  : spawnSync('node-gyp', args, { stdio: 'inherit', shell: process.platform === 'win32' });
if (result.status !== 0) {
  process.stderr.write('@nightjar/circuits: native prover not built; proofs fall back to snarkjs\n');
}
