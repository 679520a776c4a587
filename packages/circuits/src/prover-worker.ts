/**
 * Worker thread of the Node prover (started through prover-worker-boot.mjs): computes the witness
 * with the circuit's wasm and proves it with the backend of groth16-backend.ts (snarkjs), on
 * artifacts the parent thread has already hash-checked and handed over in `workerData` (or, for a
 * circuit loaded later, in its first request). One job at a time.
 *
 * snarkjs' field library (ffjavascript) spreads MSMs and FFTs over helper threads created with the
 * `web-worker` package, and web-worker decides at load time, from `isMainThread`, whether it is
 * the spawning side or one of its own workers. Loaded inside this worker thread it would take the
 * second role: it rewires the global scope and exports no Worker class, so ffjavascript could not
 * start its helpers. So snarkjs is imported while `isMainThread` reads true, then the flag is put
 * back. Its helper threads (one per core) then work as in a main thread, and proving uses every
 * core. With `singleThread`, a single-threaded curve is built once and installed as
 * ffjavascript's cached curve, so snarkjs neither spawns helpers nor rebuilds its wasm per proof.
 */
import threads from 'node:worker_threads';

import type {
  ProverWorkerData,
  ProverWorkerReady,
  ProverWorkerReply,
  ProverWorkerRequest,
  ProverWorkerWarmed,
  ProverWorkerWarmRequest,
} from './prover-protocol.js';
import { availableParallelism } from 'node:os';
import { loadSnarkjs as importSnarkjs, type SnarkjsApi as Snarkjs } from '@nightjar/crypto';
import {
  calculateWitness,
  nativeGroth16Backend,
  snarkjsGroth16Backend,
  type Groth16Backend,
} from './groth16-backend.js';
import {
  NativeProverError,
  nativeProverAvailable,
  selectProverBackend,
  type ProverBackend,
} from './native-prover.js';

const data = threads.workerData as ProverWorkerData;
const port = threads.parentPort;
if (!port) throw new Error('prover-worker.ts must run in a worker thread');

async function loadSnarkjs(): Promise<Snarkjs> {
  const flags = threads as { isMainThread: boolean };
  const saved = flags.isMainThread;
  flags.isMainThread = true;
  try {
    return await importSnarkjs();
  } finally {
    flags.isMainThread = saved;
  }
}

const circuits = { ...data.circuits };
/** Node's WebAssembly.compile (this package's lib has no WebAssembly types). */
const wasm = (globalThis as unknown as { WebAssembly: { compile(b: Uint8Array): Promise<unknown> } })
  .WebAssembly;
const wasmCompile = (bytes: Uint8Array) => wasm.compile(bytes);

const ready: Promise<{ snarkjs: Snarkjs; groth16: Groth16Backend; backend: ProverBackend }> = (async () => {
  // A backend the pool asked for by name must be the one that proves: no silent fallback.
  const backend = data.backend ?? selectProverBackend();
  if (backend === 'native' && !nativeProverAvailable()) {
    throw new NativeProverError('NATIVE_UNAVAILABLE', 'the native prover addon is not built');
  }
  const snarkjs = await loadSnarkjs();
  // Build the curve now (helper threads or single-threaded), not on the first proof. snarkjs
  // calls buildBn128 without singleThread, which returns this cached curve.
  const curve = await snarkjs.curves.getCurveFromName('bn128', { singleThread: data.singleThread });
  (globalThis as { curve_bn128?: unknown }).curve_bn128 = curve;
  // The native addon when it is built (NIGHTJAR_PROVER=snarkjs forces snarkjs): single-threaded
  // mode means one core, else both, as snarkjs' helper threads would use.
  const groth16 =
    backend === 'native'
      ? nativeGroth16Backend(data.singleThread ? 1 : Math.max(1, availableParallelism()))
      : snarkjsGroth16Backend(snarkjs);
  return { snarkjs, groth16, backend };
})();

port.on('message', (req: ProverWorkerRequest | ProverWorkerWarmRequest) => {
  if ('warm' in req) void warm(req).then((reply) => port.postMessage(reply));
  else void handle(req).then((reply) => port.postMessage(reply));
});

/** Takes the circuits' artifacts and readies their keys, one after another (one core's work). */
async function warm(req: ProverWorkerWarmRequest): Promise<ProverWorkerWarmed> {
  try {
    const { groth16 } = await ready;
    Object.assign(circuits, req.artifacts);
    let proofMs: number | undefined;
    for (const circuit of req.circuits) {
      const artifacts = circuits[circuit];
      if (!artifacts) throw new Error(`unknown circuit ${String(circuit)}`);
      // Each witness calculation compiles the circuit's wasm again: part of what a proof costs.
      const compileStarted = performance.now();
      await wasmCompile(artifacts.wasm);
      const compileMs = performance.now() - compileStarted;
      const ms = await groth16.warm(artifacts.zkey);
      if (ms !== undefined) proofMs = Math.max(proofMs ?? 0, compileMs + ms);
    }
    return { warmed: req.warm, ok: true, ...(proofMs === undefined ? {} : { proofMs }) };
  } catch (err) {
    return { warmed: req.warm, ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

async function handle(req: ProverWorkerRequest): Promise<ProverWorkerReply> {
  const started = performance.now();
  try {
    const { snarkjs, groth16 } = await ready;
    if (req.artifacts) circuits[req.circuit] = req.artifacts;
    const artifacts = circuits[req.circuit];
    if (!artifacts) throw new Error(`unknown circuit ${String(req.circuit)}`);
    const witness = await calculateWitness(snarkjs, artifacts.wasm, req.input);
    const { proof, publicSignals } = await groth16.prove(artifacts.zkey, witness);
    return { id: req.id, ok: true, proof, publicSignals, ms: performance.now() - started };
  } catch (err) {
    return { id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

ready.then(
  ({ backend }) => port.postMessage({ ready: true, backend } satisfies ProverWorkerReady),
  (err: unknown) => {
    // Surfaces as the worker's 'error' event: the pool reports that the worker failed to start.
    throw err;
  },
);
