/**
 * VALID_INPUT v2 proving time in Node, through the real prover (worker thread, hash-checked
 * artifacts). Used by the crypto benchmark (`benchProving`); runnable on its own:
 *
 *   npx tsx packages/circuits/bench/proving.ts [runs] [--single-thread]
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { validInputV2Witness, type ValidInputV2Params } from '../src/lock-witness.js';
import { NoteProver } from '../src/prover.js';
import { INPUT_NOTE as NOTE, INPUT_ORDER as ORDER } from './proving-fixtures.js';

export interface ProvingBench {
  medianMs: number;
  minMs: number;
  maxMs: number;
  runs: number;
  /** First proof of a fresh worker (artifact transfer, curve and wasm setup included). */
  coldMs: number;
  samplesMs: number[];
}

/**
 * Median wall time of `runs` sequential VALID_INPUT v2 proofs on one warm worker (after one cold
 * proof), end to end: witness inputs and public inputs on the calling thread, witness and proof in
 * the worker, 256-byte encoding. `singleThread` as in ProverOptions (default false: snarkjs uses
 * its helper threads, one per core).
 */
export async function benchProving(
  options: { runs?: number; singleThread?: boolean } = {},
): Promise<ProvingBench> {
  const runs = options.runs ?? 7;
  // The note sits at leaf 0 of an otherwise empty tree: siblings are arbitrary field elements for
  // timing purposes, any path gives the same constraint system work.
  const siblings = Array.from({ length: 20 }, (_, i) => BigInt(i + 1) * 0x1234567n);
  const request = (leafIndex: number): ValidInputV2Params => ({
    ...NOTE,
    path: { siblings, leafIndex },
    order: ORDER,
  });
  validInputV2Witness(request(0)); // fail fast on a bad fixture
  const prover = new NoteProver({ workers: 1, singleThread: options.singleThread ?? false });
  try {
    await prover.start();
    let t = performance.now();
    await prover.proveValidInputV2(request(0));
    const coldMs = performance.now() - t;
    const samplesMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      t = performance.now();
      await prover.proveValidInputV2(request(i));
      samplesMs.push(performance.now() - t);
    }
    const sorted = [...samplesMs].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    const medianMs =
      sorted.length % 2 === 1
        ? (sorted[mid] as number)
        : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
    return {
      medianMs,
      minMs: sorted[0] as number,
      maxMs: sorted[sorted.length - 1] as number,
      runs,
      coldMs,
      samplesMs,
    };
  } finally {
    await prover.close();
  }
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1]);
if (isMain) {
  const runs = Number(process.argv[2] ?? 7);
  const singleThread = process.argv.includes('--single-thread');
  benchProving({ runs, singleThread }).then(
    (r) => {
      console.log(
        `VALID_INPUT v2 proving (Node, 1 worker${singleThread ? ', single-threaded' : ''}): median ${r.medianMs.toFixed(0)} ms, ` +
          `min ${r.minMs.toFixed(0)} ms, max ${r.maxMs.toFixed(0)} ms over ${r.runs} runs; cold ${r.coldMs.toFixed(0)} ms`,
      );
    },
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
