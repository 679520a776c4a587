/**
 * Worker thread of the verifier pool: loads mcl and prepares every verification key once, then
 * verifies jobs (batches of raw proofs) sent by `VerifierPool`. Never throws out of a job: invalid
 * proofs are `false`, unexpected failures are reported as an `error` message for that job.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Groth16Error } from './errors.js';
import { Groth16Verifier, type ProofItem } from './mcl-verifier.js';
import { runOrderChecks } from './order-check.js';
import { FIELD_ELEMENT_BYTES, PROOF_BYTES } from './proof-format.js';
import type { FromWorker, ToWorker, WorkerInit } from './worker-protocol.js';

const port = parentPort;
if (port === null) throw new Error('verify-worker must run as a worker thread');

function post(msg: FromWorker, transfer: ArrayBuffer[] = []): void {
  port?.postMessage(msg, transfer);
}

function codeOf(err: unknown): Groth16Error['code'] | undefined {
  return err instanceof Groth16Error ? err.code : undefined;
}

async function start(): Promise<void> {
  const init = workerData as WorkerInit;
  const verifiers = new Map<string, Groth16Verifier>();
  try {
    for (const [id, vk] of init.keys) verifiers.set(id, await Groth16Verifier.create(vk));
  } catch (err) {
    post({
      type: 'init-error',
      code: codeOf(err),
      message: err instanceof Error ? err.message : String(err),
    });
    return;
  }

  port?.on('message', (msg: ToWorker) => {
    if (msg.type !== 'verify' && msg.type !== 'orders') return;
    try {
      const verifier = verifiers.get(msg.keyId);
      if (verifier === undefined) throw new Error(`unknown key id ${msg.keyId}`);
      const bytes = new Uint8Array(msg.buffer);
      if (msg.type === 'orders') {
        const results = runOrderChecks(verifier, bytes, msg.count);
        post({ type: 'result', jobId: msg.jobId, results: results.buffer as ArrayBuffer }, [
          results.buffer as ArrayBuffer,
        ]);
        return;
      }
      const inputBytes = verifier.nPublic * FIELD_ELEMENT_BYTES;
      const inputsAt = msg.count * PROOF_BYTES;
      if (bytes.length !== msg.count * (PROOF_BYTES + inputBytes))
        throw new Error('job buffer has the wrong size');
      const items: ProofItem[] = [];
      for (let i = 0; i < msg.count; i++) {
        items.push({
          proof: bytes.subarray(i * PROOF_BYTES, (i + 1) * PROOF_BYTES),
          publicInputs: bytes.subarray(inputsAt + i * inputBytes, inputsAt + (i + 1) * inputBytes),
        });
      }
      const ok = verifier.verifyBatch(items);
      const results = new Uint8Array(msg.count);
      ok.forEach((v, i) => (results[i] = v ? 1 : 0));
      post({ type: 'result', jobId: msg.jobId, results: results.buffer }, [results.buffer]);
    } catch (err) {
      post({
        type: 'error',
        jobId: msg.jobId,
        code: codeOf(err),
        message: err instanceof Error ? err.message : String(err),
      });
    }
  });
  post({ type: 'ready' });
}

void start();
