/**
 * Node prover for the settlement v2 circuits and VALID_SPEND v2: witness calculation and a Groth16
 * prover (snarkjs, see groth16-backend.ts) in a pool of worker threads with a bounded queue. The
 * public inputs are computed here, on the calling thread, with the note formulas of
 * @nightjar/crypto, and cross-checked against what the circuit produced.
 *
 * The proving keys come from a DEV-ONLY ceremony (see README.md).
 */
import { snarkjsProofToBytes, validMatchV2PublicSignals } from '@nightjar/crypto';

import { loadCircuitArtifacts, type CircuitName } from './artifacts.js';
import {
  validJoinSplitWitness,
  type JoinSplitWitness,
  type ValidJoinSplitParams,
} from './join-split-witness.js';
import {
  validInputV2Witness,
  validLockWitness,
  type LockWitness,
  type ValidInputV2Params,
  type ValidLockParams,
} from './lock-witness.js';
import {
  validMatchV2Witness,
  type ValidMatchV2Params,
  type ValidMatchV2Witness,
} from './match-witness-v2.js';
import {
  validSpendV2Witness,
  type ValidSpendV2Params,
  type ValidSpendV2Witness,
} from './spend-witness-v2.js';
import type { ProverBackend } from './native-prover.js';
import { BACKENDS, type ProverOptions } from './prover-options.js';
import { ProverClosedError, ProverError, ProverQueueFullError } from './prover-errors.js';
import type { ProverWorkerData, ProverWorkerReply, ProverWorkerRequest } from './prover-protocol.js';
import { spawnSlot, type Job, type Prepared, type Slot } from './prover-slot.js';
import { ProverInputError } from './witness.js';

export interface ProofResult {
  /** 256 bytes: A.x ‖ A.y ‖ B.x.c1 ‖ B.x.c0 ‖ B.y.c1 ‖ B.y.c0 ‖ C.x ‖ C.y, 32-byte big-endian each. */
  proof: Uint8Array;
  /** Public inputs in circuit order (DESIGN.md section 3). */
  publicInputs: bigint[];
}

/** A lock proof (VALID_INPUT v2 or VALID_LOCK): public signals [use_tag, merkle_root, nullifier]. */
export interface LockProofResult {
  proof: Uint8Array;
  publicInputs: [bigint, bigint, bigint];
  derived: LockWitness['derived'];
}

/** A VALID_MATCH v2 proof and what the settlement needs from the same witness. */
export type MatchV2ProofResult = Omit<ValidMatchV2Witness, 'input'> & {
  proof: Uint8Array;
  /** validMatchV2PublicSignals(publicInputs): what the ledger verifies the proof against. */
  publicSignals: bigint[];
};

export type { ProverOptions } from './prover-options.js';

export { ProverClosedError, ProverError, ProverQueueFullError } from './prover-errors.js';
export { ProverInputError };

/**
 * Proved from the start (order intake and withdrawals); the others (VALID_LOCK, VALID_MATCH v2 and
 * the larger zkeys only the engine or a join-split needs) load on first use.
 */
const EAGER_CIRCUITS = ['valid_input_v2', 'valid_spend_v2'] as const satisfies readonly CircuitName[];

export class NoteProver {
  readonly #workerCount: number;
  readonly #maxQueue: number;
  readonly #singleThread: boolean;
  readonly #requestedBackend: ProverBackend | undefined;
  #backend: ProverBackend | undefined;
  readonly #queue: Job[] = [];
  #slots: Slot[] = [];
  #data: ProverWorkerData | undefined;
  #starting: Promise<void> | undefined;
  /** Artifacts of circuits loaded after start (sent to each worker with its first job). */
  readonly #late = new Map<CircuitName, { wasm: Uint8Array; zkey: Uint8Array }>();
  readonly #lateLoading = new Map<CircuitName, Promise<void>>();
  #closed = false;
  #nextId = 1;

  constructor(options: ProverOptions = {}) {
    this.#workerCount = options.workers ?? 1;
    this.#maxQueue = options.maxQueue ?? 64;
    this.#singleThread = options.singleThread ?? false;
    this.#requestedBackend = options.backend;
    if (options.backend !== undefined && !BACKENDS.includes(options.backend))
      throw new RangeError(`backend must be one of ${BACKENDS.join(', ')}`);
    if (!Number.isInteger(this.#workerCount) || this.#workerCount < 1)
      throw new RangeError('workers must be >= 1');
    if (!Number.isInteger(this.#maxQueue) || this.#maxQueue < 0)
      throw new RangeError('maxQueue must be >= 0');
  }

  /** The Groth16 prover the workers use, as the first one to start reported it (undefined before). */
  get backend(): ProverBackend | undefined {
    return this.#backend;
  }

  /** Proofs it runs at once: one per worker (the SDK queues the rest itself, see its proof turns). */
  get workers(): number {
    return this.#workerCount;
  }

  /** Jobs waiting for a worker. */
  get queued(): number {
    return this.#queue.length;
  }

  /** Jobs being proved right now. */
  get running(): number {
    return this.#slots.filter((s) => s.job).length;
  }

  /** Workers holding `circuit`'s artifacts (warmed, started with them, or having proved it). */
  workersHolding(circuit: CircuitName): number {
    return this.#slots.filter((s) => s.loaded.has(circuit)).length;
  }

  /**
   * Loads and hash-checks the artifacts, starts the workers and waits until they are ready.
   * Optional: the first proof request does the same.
   */
  start(): Promise<void> {
    if (this.#closed) return Promise.reject(new ProverClosedError());
    this.#starting ??= (async () => {
      const loaded = await Promise.all(EAGER_CIRCUITS.map((c) => loadCircuitArtifacts(c)));
      const circuits: ProverWorkerData['circuits'] = {};
      for (const a of loaded) circuits[a.circuit] = { wasm: a.wasm, zkey: a.zkey };
      this.#data = {
        circuits,
        singleThread: this.#singleThread,
        ...(this.#requestedBackend ? { backend: this.#requestedBackend } : {}),
      };
      if (this.#closed) throw new ProverClosedError();
      while (this.#slots.length < this.#workerCount) this.#slots.push(this.#spawn());
      await Promise.all(this.#slots.map((slot) => slot.started));
      this.#pump();
    })();
    this.#starting.catch(() => {
      this.#starting = undefined;
    });
    return this.#starting;
  }

  /**
   * Readies `circuits` in every worker before their first proof: starts the pool, loads their
   * artifacts and has each worker take them and ready its keys (the native prover parses each key
   * and times one proof). Answers the slowest worker's timed proof in ms (undefined: none timed).
   */
  async warm(circuits: readonly CircuitName[]): Promise<number | undefined> {
    await Promise.all(circuits.map((c) => this.#ensureCircuit(c)));
    const times = await Promise.all(
      this.#slots.map((slot) => {
        const missing = circuits.filter((c) => !slot.loaded.has(c) && this.#late.has(c));
        return slot.warm([...circuits], Object.fromEntries(missing.map((c) => [c, this.#late.get(c)])));
      }),
    );
    const timed = times.filter((t): t is number => t !== undefined);
    return timed.length > 0 ? Math.max(...timed) : undefined;
  }

  /**
   * Proves VALID_JOIN_SPLIT (the v2 circuit): consume 1 to 4 notes of one mint and owner, create up to 8. Throws
   * ProverInputError before proving when the circuit would reject the request.
   */
  async proveValidJoinSplit(
    params: ValidJoinSplitParams,
  ): Promise<
    { proof: Uint8Array; publicInputs: bigint[] } & Omit<JoinSplitWitness, 'input' | 'publicInputs'>
  > {
    let witness!: JoinSplitWitness;
    // VALID_JOIN_SPLIT v2: pairwise-distinct inputs, the public signals of VALID_JOIN_SPLIT_PUBLIC_INPUTS.
    const { proof, publicSignals } = await this.#submit('valid_join_split_v2', () => {
      witness = validJoinSplitWitness(params);
      return { input: witness.input, expected: witness.publicInputs };
    });
    return { proof, publicInputs: publicSignals, inputs: witness.inputs, outputs: witness.outputs };
  }

  /**
   * Proves VALID_INPUT v2 (DESIGN 3): the owner's note, bound to one order by its use tag. Public
   * signals [use_tag, merkle_root, nullifier]. Throws SettlementWitnessError before proving when
   * the circuit would reject it.
   */
  async proveValidInputV2(params: ValidInputV2Params): Promise<LockProofResult> {
    return this.#proveLock('valid_input_v2', () => validInputV2Witness(params));
  }

  /** Proves VALID_LOCK for a settlement's change note and its order's remainder (DESIGN 3). */
  async proveValidLock(params: ValidLockParams): Promise<LockProofResult> {
    return this.#proveLock('valid_lock', () => validLockWitness(params));
  }

  /** Proves VALID_MATCH v2 for one match: no paths; the use tags, terms, outputs and memos bound. */
  async proveValidMatchV2(params: ValidMatchV2Params): Promise<MatchV2ProofResult> {
    let witness!: ValidMatchV2Witness;
    const { proof, publicSignals } = await this.#submit('valid_match_v2', () => {
      witness = validMatchV2Witness(params);
      return { input: witness.input, expected: validMatchV2PublicSignals(witness.publicInputs) };
    });
    const { input: _input, ...rest } = witness;
    return { ...rest, proof, publicSignals };
  }

  /**
   * Proves VALID_SPEND v2: pay `amount` of a note, the rest to a change note of its owner, bound
   * to the shard and memo given in `change` (required exactly when something is left).
   */
  async proveValidSpendV2(
    params: ValidSpendV2Params,
  ): Promise<{ proof: Uint8Array } & Omit<ValidSpendV2Witness, 'input'>> {
    let witness!: ValidSpendV2Witness;
    const { proof, publicSignals } = await this.#submit('valid_spend_v2', () => {
      witness = validSpendV2Witness(params);
      return { input: witness.input, expected: witness.publicInputs };
    });
    const { input: _input, ...rest } = witness;
    return { ...rest, publicInputs: publicSignals, proof };
  }

  async #proveLock(
    circuit: 'valid_input_v2' | 'valid_lock',
    build: () => LockWitness,
  ): Promise<LockProofResult> {
    let witness!: LockWitness;
    const { proof, publicSignals } = await this.#submit(circuit, () => {
      witness = build();
      return { input: witness.input, expected: witness.publicInputs };
    });
    return { proof, publicInputs: publicSignals as [bigint, bigint, bigint], derived: witness.derived };
  }

  /** Rejects queued and running jobs with ProverClosedError and stops the workers. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const err = new ProverClosedError();
    for (const job of this.#queue.splice(0)) job.reject(err);
    const slots = this.#slots;
    this.#slots = [];
    for (const s of slots) {
      s.job?.reject(err);
      s.job = undefined;
      s.abortStart(err);
    }
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  #submit(
    circuit: CircuitName,
    build: () => Prepared,
  ): Promise<{ proof: Uint8Array; publicSignals: bigint[] }> {
    if (this.#closed) return Promise.reject(new ProverClosedError());
    let prepared: Prepared;
    try {
      prepared = build();
    } catch (err) {
      return Promise.reject(err as Error);
    }
    const idle = this.#workerCount - this.running;
    if (this.#queue.length >= this.#maxQueue + idle) {
      return Promise.reject(new ProverQueueFullError(this.#maxQueue));
    }
    return new Promise((resolve, reject) => {
      this.#queue.push({ circuit, ...prepared, resolve, reject });
      this.#ensureCircuit(circuit).then(
        () => this.#pump(),
        (err: unknown) => {
          // Artifacts failed to load: fail everything queued for them.
          const failed = this.#queue.filter((j) => j.circuit === circuit || !this.#data);
          this.#queue.splice(0, this.#queue.length, ...this.#queue.filter((j) => !failed.includes(j)));
          for (const job of failed) job.reject(err as Error);
        },
      );
    });
  }

  /** Starts the pool, then loads a circuit the workers were not started with. */
  async #ensureCircuit(circuit: CircuitName): Promise<void> {
    await this.start();
    if (this.#data?.circuits[circuit] || this.#late.has(circuit)) return;
    let loading = this.#lateLoading.get(circuit);
    if (!loading) {
      loading = loadCircuitArtifacts(circuit).then((a) => {
        this.#late.set(circuit, { wasm: a.wasm, zkey: a.zkey });
      });
      loading.catch(() => this.#lateLoading.delete(circuit));
      this.#lateLoading.set(circuit, loading);
    }
    await loading;
  }

  /** The circuit's artifacts are in the parent thread (so a worker can be given them). */
  #available(circuit: CircuitName): boolean {
    return this.#data?.circuits[circuit] !== undefined || this.#late.has(circuit);
  }

  #spawn(): Slot {
    const slot: Slot = spawnSlot(this.#data, {
      ready: (backend) => {
        this.#backend ??= backend;
      },
      reply: (msg) => this.#onReply(slot, msg),
      failure: (err) => this.#onFailure(slot, err),
    });
    return slot;
  }

  /** A worker's answer to its job. */
  #onReply(slot: Slot, msg: ProverWorkerReply): void {
    if (msg.id !== slot.jobId || !slot.job) return;
    const job = slot.job;
    slot.job = undefined;
    slot.worker.unref();
    slot.loaded.add(job.circuit);
    if (msg.ok) this.#finish(job, msg.proof, msg.publicSignals);
    else job.reject(new ProverError(`${job.circuit}: ${msg.error}`));
    this.#pump();
  }

  /** A worker failed or exited: its job fails; a worker that never started fails the queue too. */
  #onFailure(slot: Slot, err: Error): void {
    const i = this.#slots.indexOf(slot);
    if (this.#closed || i < 0) return;
    this.#slots.splice(i, 1);
    const failure = new ProverError(
      `prover worker ${slot.ready ? 'failed' : 'failed to start'}: ${err.message}`,
    );
    slot.abortStart(failure);
    slot.job?.reject(failure);
    slot.job = undefined;
    if (!slot.ready) {
      // A worker that cannot even start would fail again: fail what is queued instead of
      // respawning in a loop. The next proof request tries to start a worker again.
      for (const job of this.#queue.splice(0)) job.reject(failure);
      return;
    }
    this.#pump();
  }

  #pump(): void {
    if (this.#closed || !this.#data || this.#queue.length === 0) return;
    while (this.#slots.length < this.#workerCount) this.#slots.push(this.#spawn());
    for (const slot of this.#slots) {
      if (slot.job) continue;
      // First come first served among the jobs whose circuit is loaded.
      const i = this.#queue.findIndex((j) => this.#available(j.circuit));
      if (i < 0) return;
      const job = this.#queue.splice(i, 1)[0] as Job;
      slot.job = job;
      slot.jobId = this.#nextId++;
      slot.worker.ref();
      const req: ProverWorkerRequest = { id: slot.jobId, circuit: job.circuit, input: job.input };
      if (!slot.loaded.has(job.circuit)) req.artifacts = this.#late.get(job.circuit);
      slot.worker.postMessage(req);
    }
  }

  #finish(job: Job, proofJson: unknown, publicSignals: string[]): void {
    try {
      const expected = job.expected;
      if (
        publicSignals.length !== expected.length ||
        publicSignals.some((s, i) => BigInt(s) !== expected[i])
      ) {
        throw new ProverError(
          `${job.circuit}: the circuit's public signals differ from the computed public inputs`,
        );
      }
      job.resolve({ proof: snarkjsProofToBytes(proofJson), publicSignals: [...expected] });
    } catch (err) {
      job.reject(err instanceof Error ? err : new ProverError(String(err)));
    }
  }
}

let shared: NoteProver | undefined;

/** A process-wide prover with default options (created on first use). */
export function defaultProver(): NoteProver {
  shared ??= new NoteProver();
  return shared;
}
