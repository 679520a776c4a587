/**
 * A prover worker as a real child process, for the fault tests: `runProverWorker` with a stub
 * registration (the test's queue and engine key from the environment) and the fake prover, each
 * proof taking PROVE_MS. Prints one JSON line per event: ready, claimed proof started, completed.
 */
import { hexToBytes } from '@nightjar/protocol';
import { runProverWorker } from '../../src/prover-pool/worker.js';
import { env, envRegistration, fakeProver } from './fake-pool.js';
const say = (event: Record<string, unknown>) => process.stdout.write(JSON.stringify(event) + '\n');

const inner = fakeProver(true);
const proveMs = Number(env('PROVE_MS'));
const slow = <T>(f: () => Promise<T>) =>
  new Promise<T>((resolve, reject) => {
    say({ proving: true });
    setTimeout(() => f().then(resolve, reject), proveMs);
  });

const worker = await runProverWorker({
  register: envRegistration(60_000),
  sealingPrivateKey: hexToBytes(env('WORKER_PRIVATE_KEY')),
  prover: {
    proveValidMatchV2: (p) => slow(() => inner.proveValidMatchV2(p)),
    proveValidLock: (p) => slow(() => inner.proveValidLock(p)),
    close: async () => {},
  },
  leaseMs: Number(env('LEASE_MS')),
  pollMs: 200,
});
let reported = 0;
const report = setInterval(() => {
  if (worker.completed > reported) say({ completed: (reported = worker.completed) });
}, 20);
say({ ready: worker.registration.workerId });
process.once('SIGTERM', () => {
  clearInterval(report);
  void worker.stop().then(() => process.exit(0));
});
