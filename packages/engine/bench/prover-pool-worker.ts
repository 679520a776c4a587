/**
 * One remote prover for prover-pool.bench.ts, in its own process (pinned with `taskset` by the
 * bench where it can be): `runProverWorker` with the circuits' NoteProver (one single-threaded
 * worker) and a stub registration from the environment. Prints `ready` once its keys are warm.
 */
import { NoteProver } from '@nightjar/circuits';
import { hexToBytes } from '@nightjar/protocol';
import { runProverWorker } from '../src/prover-pool/worker.js';
import { env, envRegistration } from '../test/prover-pool/fake-pool.js';

const prover = new NoteProver({ workers: 1, singleThread: true, maxQueue: 1 });
await prover.warm(['valid_match_v2', 'valid_lock']);
const worker = await runProverWorker({
  register: envRegistration(3_600_000),
  sealingPrivateKey: hexToBytes(env('WORKER_PRIVATE_KEY')),
  prover,
  threads: 1,
});
process.stdout.write('ready\n');
process.once('SIGTERM', () => void worker.stop().then(() => process.exit(0)));
