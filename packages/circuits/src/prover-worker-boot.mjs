// Entry of the prover's worker threads. Compiled (dist/, next to prover-worker.js) it imports the
// worker directly; from the sources it goes through @nightjar/protocol's importSource (worker
// threads get no tsx from their parent). Works whether the parent runs under tsx, vitest or
// anything else.
import { existsSync } from 'node:fs';
import { URL } from 'node:url';
import { importSource } from '@nightjar/protocol/source-import';

const compiled = new URL('./prover-worker.js', import.meta.url);
if (existsSync(compiled)) await import(compiled.href);
else await importSource('./prover-worker.ts', import.meta.url);
