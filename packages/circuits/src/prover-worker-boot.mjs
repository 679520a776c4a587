// Entry of the prover's worker threads. Node 20 does not apply `--import tsx` (or the parent's
// module hooks) inside worker threads, so this plain-JS entry loads the TypeScript worker through
// tsx's scoped API. Works whether the parent runs under tsx, vitest or anything else.
import { tsImport } from 'tsx/esm/api';

await tsImport('./prover-worker.ts', import.meta.url);
