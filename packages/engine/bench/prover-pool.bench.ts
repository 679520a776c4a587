/**
 * Prover pool benchmark (`npm run bench:prover-pool -w packages/engine`), written to the prover
 * section of docs/benchmarks/scale-out.md: confirmed VALID_MATCH v2 proofs per second (proved and
 * then verified by the engine side) with 0 remote workers (the in-process NoteMatchProver on every
 * core), and with 1 and 2 remote worker processes (`prover-pool-worker.ts`, each pinned to its own
 * core with `taskset -c N` when the machine has it), side by side in one run; and the queue's added
 * latency per job, p50 and p99, measured after each throughput run with one job at a time (so no
 * job waits for a busy worker): enqueue → claim, and completion → the engine taking the result
 * (heard, opened and verified: the verification's few ms are in it).
 *
 * The engine side (sealing, enqueueing, opening, verifying) runs in this process; each prover is a
 * process of its own; PostgreSQL is the embedded test server. PROVER_POOL_BENCH_PROOFS (default 40)
 * proofs per configuration, all submitted at once; PROVER_POOL_BENCH_OUT writes the section to
 * another file (a tiny check run) instead of the docs.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadVerificationKey } from '@nightjar/circuits';
import { generateX25519KeyPair, Groth16Verifier } from '@nightjar/crypto';
import { bytesToHex } from '@nightjar/protocol';
import { validMatchV2Params } from '../../circuits/bench/proving-fixtures.js';
import { JobQueue, resultChannel } from '../src/prover-pool/job-queue.js';
import { PoolMatchProver } from '../src/prover-pool/pool-match-prover.js';
import { listenQueue } from '../src/prover-pool/queue-listener.js';
import { NoteMatchProver, type MatchProver, type MatchVerifier } from '../src/settlement/match-prover.js';
import { attestedWorkers, workerIdentity, type FakeWorkerIdentity } from '../test/prover-pool/fake-pool.js';
import { startQueueDb, type QueueDb } from '../test/prover-pool/queue-db.js';

const PROOFS = Number(process.env.PROVER_POOL_BENCH_PROOFS ?? 40);
/** Jobs sent one at a time after the throughput run, for the queue's latency (default 20). */
const LATENCY_JOBS = Number(process.env.PROVER_POOL_BENCH_LATENCY_JOBS ?? 20);
const OUT =
  process.env.PROVER_POOL_BENCH_OUT ??
  fileURLToPath(new URL('../../../docs/benchmarks/scale-out.md', import.meta.url));
const WORKER = fileURLToPath(new URL('./prover-pool-worker.ts', import.meta.url));
const ENGINE_ID = 'bench-engine';
const BEGIN = '<!-- prover-pool.bench.ts: begin -->';
const END = '<!-- prover-pool.bench.ts: end -->';
const HAS_TASKSET = spawnSync('taskset', ['--version']).status === 0;

interface Row {
  workers: number;
  proofsPerSecond: number;
  toClaimMs: number[];
  toEngineMs: number[];
}

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

async function matchVerifier(): Promise<MatchVerifier> {
  const v = await Groth16Verifier.create(await loadVerificationKey('valid_match_v2'));
  return { verify: async (proof, signals) => v.verify(proof, signals) };
}

/** Submits PROOFS proofs at once; answers proofs per second once all are verified. */
async function timeProofs(prover: MatchProver, verifier: MatchVerifier): Promise<number> {
  const start = performance.now();
  await Promise.all(
    Array.from({ length: PROOFS }, async () => {
      const p = await prover.prove(validMatchV2Params());
      if (!(await verifier.verify(p.proof, p.publicSignals))) throw new Error('a proof did not verify');
    }),
  );
  return PROOFS / ((performance.now() - start) / 1000);
}

function startWorker(
  db: QueueDb,
  w: FakeWorkerIdentity,
  engineKey: Uint8Array,
  core: number,
): Promise<ChildProcess> {
  const node = [process.execPath, '--conditions=nightjar-source', '--import', 'tsx', WORKER];
  const [cmd, ...args] = HAS_TASKSET ? ['taskset', '-c', String(core % cpus().length), ...node] : node;
  const proc = spawn(cmd!, args, {
    env: {
      ...process.env,
      QUEUE_URL: db.server.url,
      ENGINE_ID,
      ENGINE_PUBLIC_KEY: bytesToHex(engineKey),
      WORKER_ID: w.attested.workerId,
      WORKER_PRIVATE_KEY: bytesToHex(w.key.privateKey),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve(proc));
    proc.once('exit', (code) => reject(new Error(`prover worker exited (${code})`)));
  });
}

/** A queue that records each job's queue delays before the engine removes it. */
function timedQueue(db: QueueDb, row: Row): JobQueue {
  const queue = new JobQueue(db.pool);
  const remove = queue.remove.bind(queue);
  queue.remove = async (id) => {
    const d = await queue.delays(id);
    if (d) {
      row.toClaimMs.push(d.toClaimMs);
      row.toEngineMs.push(d.sinceDoneMs);
    }
    await remove(id);
  };
  return queue;
}

async function remoteRow(db: QueueDb, workers: number, verifier: MatchVerifier): Promise<Row> {
  const engineKey = generateX25519KeyPair();
  const ids = Array.from({ length: workers }, (_, i) => workerIdentity(`bench-${workers}-${i}`));
  const procs = await Promise.all(ids.map((w, i) => startWorker(db, w, engineKey.publicKey, i)));
  const row: Row = { workers, proofsPerSecond: 0, toClaimMs: [], toEngineMs: [] };
  const prover = new PoolMatchProver({
    queue: timedQueue(db, row),
    engineId: ENGINE_ID,
    bootId: `boot-${workers}`,
    resultKey: engineKey,
    workers: attestedWorkers(ids.map((w) => w.attested)),
    fallback: {
      prove: () => Promise.reject(new Error('no fallback')),
      proveLock: () => Promise.reject(new Error('no fallback')),
      close: async () => {},
    },
    verifyMatch: verifier,
    verifyLock: verifier,
    listen: (onWake) => listenQueue(db.server.url, resultChannel(ENGINE_ID), onWake),
  });
  try {
    row.proofsPerSecond = await timeProofs(prover, verifier);
    // The queue's own latency, without the wait for a busy worker: one job at a time, idle workers.
    row.toClaimMs.length = 0;
    row.toEngineMs.length = 0;
    for (let i = 0; i < LATENCY_JOBS; i++) await prover.prove(validMatchV2Params());
    return row;
  } finally {
    await prover.close();
    for (const p of procs) p.kill('SIGTERM');
  }
}

async function localRow(verifier: MatchVerifier): Promise<Row> {
  const prover = new NoteMatchProver();
  try {
    await prover.warm();
    return { workers: 0, proofsPerSecond: await timeProofs(prover, verifier), toClaimMs: [], toEngineMs: [] };
  } finally {
    await prover.close();
  }
}

function section(rows: Row[]): string {
  const f = (x: number) => (Number.isNaN(x) ? '—' : x.toFixed(1));
  const lines = rows.map(
    (r) =>
      `| ${r.workers === 0 ? '0 (in process, every core)' : `${r.workers} remote`} | ${r.proofsPerSecond.toFixed(2)} | ` +
      `${f(pct(r.toClaimMs, 50))} / ${f(pct(r.toClaimMs, 99))} | ${f(pct(r.toEngineMs, 50))} / ${f(pct(r.toEngineMs, 99))} |`,
  );
  return [
    BEGIN,
    `## Prover pool (${PROOFS} VALID_MATCH v2 proofs per row; ${cpus().length} cores; taskset: ${HAS_TASKSET ? 'yes' : 'no'})`,
    '',
    `| provers | confirmed proofs/s (all ${PROOFS} at once) | enqueue → claim ms p50 / p99 (${LATENCY_JOBS} jobs one at a time) | done → taken ms p50 / p99 (heard, opened, verified) |`,
    '| --- | --- | --- | --- |',
    ...lines,
    END,
  ].join('\n');
}

function write(text: string): void {
  const old = existsSync(OUT) ? readFileSync(OUT, 'utf8') : '# Scale-out benchmarks\n\n';
  const i = old.indexOf(BEGIN);
  const j = old.indexOf(END);
  const next =
    i >= 0 && j > i ? old.slice(0, i) + text + old.slice(j + END.length) : `${old.trimEnd()}\n\n${text}\n`;
  writeFileSync(OUT, next);
}

const db = await startQueueDb();
try {
  const verifier = await matchVerifier();
  const rows = [await localRow(verifier), await remoteRow(db, 1, verifier), await remoteRow(db, 2, verifier)];
  const text = section(rows);
  write(text);
  process.stdout.write(text + '\n');
} finally {
  await db.close();
}
