/**
 * A venue with a real prover pool for the end-to-end tests: a real PostgreSQL job queue, an
 * in-process engine with `proverPool` and the real provers (no stub matchProver, so the pool is
 * built; its verifier is the real Groth16 one), its ledger served over JSON-RPC, and `nightjar
 * prover` worker processes that register through the real registration client. The ledger checks
 * each VALID_MATCH v2 proof with the real Groth16 verifier (the orders' input proofs stay stand-ins).
 * The engine's platform and the good workers share one simulated PKI, as the machines of one venue
 * do.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadVerificationKey } from '@nightjar/circuits';
import { computeComposeHash, SimulatedPlatform, type EngineOptions } from '@nightjar/engine';
import {
  createGroth16Verifier,
  serveLedger,
  type LedgerProofVerifier,
  type LedgerServer,
} from '@nightjar/ledger';
import { deriveNote } from '@nightjar/crypto';
import { fieldToHex, parseAddress, writeSecretFile, type PlaceOrderBody } from '@nightjar/protocol';
import { SOL, startTestVenue, Trader, USDC, type Note, type TestVenue } from '@nightjar/testkit';
import { BIN, track } from '@nightjar/testkit/process';
import { startPostgres, type TestPostgres } from '@nightjar/testkit/postgres';
import pg from 'pg';

export const ONE_SOL = 1_000_000_000n;
export const PRICE = 150_000_000n;

export interface JobRow {
  id: string;
  status: string;
  worker_id: string | null;
  sealed_to: string[];
}

export interface WorkerProcess {
  proc: ChildProcess;
  exited: Promise<NodeJS.Signals | number | null>;
  output(): string;
  /** The worker id it printed once registered. */
  workerId(): string | undefined;
}

export interface PoolVenue {
  v: TestVenue;
  /** The ledger's verdict on every VALID_MATCH v2 proof it checked, in order. */
  ledgerMatchVerdicts: boolean[];
  db: TestPostgres;
  queue: pg.Pool;
  /** Every state of every job row seen by the observer so far. */
  seen: JobRow[];
  startWorker(name: string, o?: { pkiDir?: string }): WorkerProcess;
  /** A crossing pair of full-fill orders, placed; resolves with their ids and notes. */
  placeCrossingPair(): Promise<{ bid: string; ask: string; notes: Note[] }>;
  /** The ledger's state of each note (`spent` once its match settled). */
  noteStates(notes: Note[]): Promise<string[]>;
  /** Drives the ledger's manual clock (never while a proof is made) until both orders filled. */
  settle(orders: { bid: string; ask: string }, ms?: number): Promise<void>;
  counters(): Record<string, number>;
  close(): Promise<void>;
}

const untilWorker = (w: WorkerProcess, ms: number) =>
  new Promise<void>((resolve, reject) => {
    const deadline = Date.now() + ms;
    const tick = setInterval(() => {
      if (w.workerId()) return done(resolve);
      if (w.proc.exitCode !== null || Date.now() > deadline)
        done(() => reject(new Error(`worker not registered: ${w.output()}`)));
    }, 50);
    const done = (f: () => void) => (clearInterval(tick), f());
  });

/** The ledger's checks: VALID_MATCH v2 for real (each verdict recorded), the rest accepted. */
async function matchCheckingLedger(verdicts: boolean[]): Promise<LedgerProofVerifier> {
  const real = await createGroth16Verifier({ valid_match_v2: await loadVerificationKey('valid_match_v2') });
  return {
    async verify(circuit, proof, publicInputs) {
      if (circuit !== 'valid_match_v2') return true;
      const ok = await real.verify(circuit, proof, publicInputs);
      verdicts.push(ok);
      return ok;
    },
    close: () => real.close?.() ?? Promise.resolve(),
  };
}

export async function startPoolVenue(extra: Partial<EngineOptions> = {}): Promise<PoolVenue> {
  const root = mkdtempSync(join(tmpdir(), 'nightjar-pool-e2e-'));
  const pkiDir = join(root, 'pki');
  const db = await startPostgres();
  const platform = await SimulatedPlatform.open({
    dir: undefined,
    composeHash: computeComposeHash(),
    pkiDir,
  });
  const ledgerMatchVerdicts: boolean[] = [];
  const ledgerVerifier = await matchCheckingLedger(ledgerMatchVerdicts);
  const v = await startTestVenue({
    settle: true,
    ledgerVerifier,
    attestation: { platform },
    // The real provers: no stub, so the engine builds the pool (and its in-process fallback).
    matchProver: undefined,
    matchVerifier: undefined,
    matchProverWorkers: 1,
    verifierWorkers: 1,
    validMatchKey: await loadVerificationKey('valid_match_v2'),
    proverPool: { queueUrl: db.url, pollMs: 500 },
    ...extra,
  });
  const server: LedgerServer = await serveLedger(v.ledger, { port: 0 });
  const dataDir = join(root, 'venue');
  const rootDer = join(dataDir, 'root.der');
  writeSecretFile(rootDer, Buffer.from(v.engine.attestation.rootCa!.der));
  writeSecretFile(
    join(dataDir, 'ready.json'),
    JSON.stringify({
      base_url: v.engine.url,
      ledger_url: server.url,
      boot_session_id: v.engine.context.bootSessionId,
      compose_hash: v.engine.attestation.identity.compose_hash,
      platform_root: rootDer,
    }),
  );
  const queue = new pg.Pool({ connectionString: db.url, max: 2 });
  const seen: JobRow[] = [];
  // Every state a job row takes, kept by a trigger: the engine deletes a row as soon as it has
  // taken its result, faster than any poll of the live table could be sure to see it.
  await queue.query(`
    CREATE TABLE job_states (n bigserial PRIMARY KEY, id text, status text, worker_id text, sealed_to text[]);
    CREATE FUNCTION record_job_state() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
      INSERT INTO job_states (id, status, worker_id, sealed_to)
        VALUES (NEW.id::text, NEW.status, NEW.worker_id, ARRAY(SELECT jsonb_object_keys(NEW.sealed_keys)));
      RETURN NEW;
    END $$;
    CREATE TRIGGER record_job_state AFTER INSERT OR UPDATE ON prover_jobs
      FOR EACH ROW EXECUTE FUNCTION record_job_state();`);
  let observing = true;
  let lastRecorded = '0';
  const look = async () => {
    const r = await queue
      .query<JobRow & { n: string }>(
        `SELECT n, id, status, worker_id, sealed_to FROM job_states WHERE n > $1 ORDER BY n`,
        [lastRecorded],
      )
      .catch(() => ({ rows: [] as (JobRow & { n: string })[] }));
    lastRecorded = r.rows.at(-1)?.n ?? lastRecorded;
    for (const { n: _n, ...row } of r.rows)
      if (!seen.some((s) => s.id === row.id && s.status === row.status && s.worker_id === row.worker_id))
        seen.push(row);
  };
  const observe = async () => {
    while (observing) {
      await look();
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const observer = observe();
  const workers: WorkerProcess[] = [];
  const { token } = await v.newAccount();
  const kinds = new Map<string, string[]>();
  const off = v.engine.events.subscribe((e) => {
    if (e.channel === 'orders')
      kinds.set(e.body.order_id, [...(kinds.get(e.body.order_id) ?? []), e.body.kind]);
  });
  const counters = () =>
    (v.engine.context.settlement.metricsSnapshot?.() as { counters: Record<string, number> }).counters;
  const proving = () =>
    (v.engine.context.settlement.metricsSnapshot?.() as { queue_depth: Record<string, number> }).queue_depth
      .proving ?? 0;

  return {
    v,
    ledgerMatchVerdicts,
    db,
    queue,
    seen,
    counters,
    startWorker(name, o = {}) {
      let out = '';
      const proc = track(
        spawn(
          process.execPath,
          [BIN, 'prover', '--home', join(root, name), '--threads', '1', '--pki-dir', o.pkiDir ?? pkiDir],
          {
            env: { ...process.env, NIGHTJAR_DATA_DIR: dataDir },
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        ),
      );
      proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      const w: WorkerProcess = {
        proc,
        exited: new Promise((r) =>
          proc.on('exit', (code: number | null, signal: NodeJS.Signals | null) => r(signal ?? code)),
        ),
        output: () => out,
        workerId: () => /prover ([0-9a-f]{32}):/.exec(out)?.[1],
      };
      workers.push(w);
      return w;
    },
    async placeCrossingPair() {
      const [alice, bob] = [v.trader(), v.trader()];
      const usdc = await alice.depositNow(USDC, Trader.required('bid', ONE_SOL, PRICE));
      const sol = await bob.depositNow(SOL, Trader.required('ask', ONE_SOL, PRICE), 1);
      await v.advance(32);
      await v.engine.context.trees.checkAgainstChain();
      const fields: Partial<PlaceOrderBody> = { amount: ONE_SOL, price_limit: PRICE };
      const bid = alice.order(usdc, fields);
      const ask = bob.order(sol, fields);
      for (const body of [bid, ask]) {
        const r = await v.client.send('/orders', { token, body });
        if (r.status !== 202) throw new Error(`order: ${r.status} ${r.text}`);
      }
      return { bid: bid.order_id, ask: ask.order_id, notes: [usdc, sol] };
    },
    async noteStates(notes) {
      const states = notes.map(async (note) => {
        const d = deriveNote({
          mint: parseAddress(note.mint)!,
          amount: note.amount,
          ownerCommitment: BigInt('0x' + note.ownerCommitment),
          noteInnerHash: BigInt('0x' + note.innerHash),
        });
        return (await v.ledger.getNoteStatus({ nullifier: fieldToHex(d.nullifier) })).state;
      });
      return Promise.all(states);
    },
    async settle(orders, ms = 150_000) {
      const filled = (id: string) => kinds.get(id)?.includes('fully_filled') === true;
      const deadline = performance.now() + ms;
      while (!(filled(orders.bid) && filled(orders.ask))) {
        if (performance.now() > deadline) throw new Error(`no fill: ${JSON.stringify([...kinds])}`);
        // The clock stands still while the match waits for its proof, as a real slot would not
        // pass hundreds of times in the seconds a proof takes.
        if (proving() === 0) await v.advance(1);
        await new Promise((r) => setTimeout(r, 20));
      }
      expect2(kinds.get(orders.bid), kinds.get(orders.ask));
      await look(); // every state up to the fill, for the caller's checks
    },
    async close() {
      off();
      observing = false;
      await observer;
      for (const w of workers)
        if (w.proc.exitCode === null && w.proc.signalCode === null) w.proc.kill('SIGKILL');
      await Promise.all(workers.map((w) => w.exited));
      await queue.end();
      await server.close();
      await v.close();
      await ledgerVerifier.close?.();
      await db.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Each order settled once: pending, then one fill. */
function expect2(bid: string[] | undefined, ask: string[] | undefined): void {
  for (const k of [bid, ask])
    if (JSON.stringify(k) !== JSON.stringify(['pending_settlement', 'fully_filled']))
      throw new Error(`order events: ${JSON.stringify(k)}`);
}

export { untilWorker };
