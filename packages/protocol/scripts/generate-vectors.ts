/** Writes packages/protocol/vectors/signing.json. Run once; tests compare the file with a rebuild. */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { stringifyJson } from '../src/json.js';
import { buildSigningVectors } from '../src/vectors.js';

const target = fileURLToPath(new URL('../vectors/signing.json', import.meta.url));
writeFileSync(target, stringifyJson(buildSigningVectors(), 2) + '\n');
console.log(`wrote ${target}`);
