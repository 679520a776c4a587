// Entry of the ledger's reader thread. Compiled (dist/, next to reader-worker.js) it imports the
// worker directly. From the sources: Node 20 does not apply `--import tsx` (or the parent's module
// hooks) inside worker threads, so this plain-JS entry loads the TypeScript worker through tsx's
// scoped API, with @nightjar/* resolved to their src/ (the "nightjar-source" export condition), as
// the circuits package's prover-worker-boot.mjs does.
import { existsSync } from 'node:fs';
import { register } from 'node:module';
import { URL } from 'node:url';

const compiled = new URL('./reader-worker.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  register(
    'data:text/javascript,' +
      encodeURIComponent(
        'export async function resolve(specifier, context, next) {' +
          " return next(specifier, { ...context, conditions: [...context.conditions, 'nightjar-source'] }); }",
      ),
  );
  const { tsImport } = await import('tsx/esm/api');
  await tsImport('./reader-worker.ts', import.meta.url);
}
