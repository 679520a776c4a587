// Entry of the ledger's reader thread. Compiled (dist/, next to reader-worker.js) it imports the
// worker directly; from the sources it goes through @nightjar/protocol's importSource (worker
// threads get no tsx from their parent).
import { existsSync } from 'node:fs';
import { URL } from 'node:url';
import { importSource } from '@nightjar/protocol/source-import';

const compiled = new URL('./reader-worker.js', import.meta.url);
if (existsSync(compiled)) await import(compiled.href);
else await importSource('./reader-worker.ts', import.meta.url);
