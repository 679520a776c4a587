/**
 * Load generator for engine.bench.ts and settlement.bench.ts, run as its own OS process (forked,
 * IPC for the job and the result) so the client's TLS and JSON work is not counted in the engine
 * process's CPU time. Closed loop (fixed concurrency, as fast as the venue answers) or open loop
 * (fixed arrival rate, for latency). The pre-signed orders come in a JSON file, read before the
 * clock starts.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { HttpsClient } from '@nightjar/testkit';

export interface LoadJob {
  url: string;
  certPem: string;
  token: string;
  /**
   * File holding pre-signed [place, cancel] pairs per lane (one note per lane): placing a note's
   * order then cancelling frees the note. An entry without `cancel` is only placed.
   */
  pairsFile: string;
  mode: 'closed' | 'open';
  concurrency: number;
  /** Open loop: places per second. */
  rate?: number;
  durationMs: number;
}

export interface LoadEntry {
  place: string;
  /** The account sending this entry (default: the job's token). */
  token?: string;
  cancelPath?: string;
  cancel?: string;
}

export interface LoadResult {
  placed: number;
  rejected: Record<string, number>;
  elapsedMs: number;
  latenciesMs: number[];
}

async function run(job: LoadJob): Promise<LoadResult> {
  const pairs = JSON.parse(readFileSync(job.pairsFile, 'utf8')) as LoadEntry[][];
  const client = new HttpsClient(job.url, job.certPem);
  const rejected: Record<string, number> = {};
  const latencies: number[] = [];
  let placed = 0;
  const start = performance.now();
  const deadline = start + job.durationMs;
  // Each lane owns a disjoint set of notes and cycles through its pre-signed orders.
  const lanes = pairs.map((orders) => ({ orders, next: 0 }));

  // A lane that has used all its pre-signed orders stops: re-sending one would be an idempotent replay.
  const cycle = async (lane: (typeof lanes)[number]) => {
    const pair = lane.orders[lane.next++];
    if (!pair) return;
    const t0 = performance.now();
    const token = pair.token ?? job.token;
    const r = await client.send('/orders', { token, rawBody: pair.place });
    latencies.push(performance.now() - t0);
    if (r.status === 202) {
      placed++;
      if (pair.cancelPath && pair.cancel)
        await client.send(pair.cancelPath, { method: 'DELETE', token, rawBody: pair.cancel });
    } else {
      const key = `${r.status}/${(r.body as { code?: number })?.code ?? '?'}`;
      rejected[key] = (rejected[key] ?? 0) + 1;
    }
  };

  if (job.mode === 'closed') {
    await Promise.all(
      lanes.slice(0, job.concurrency).map(async (lane) => {
        while (performance.now() < deadline && lane.next < lane.orders.length) await cycle(lane);
      }),
    );
  } else {
    const interval = 1000 / (job.rate ?? 100);
    const inflight = new Set<Promise<void>>();
    let i = 0;
    while (performance.now() < deadline && lanes.some((l) => l.next < l.orders.length)) {
      const due = start + i * interval;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const lane = lanes[i % lanes.length]!;
      i++;
      const p = cycle(lane).finally(() => inflight.delete(p));
      inflight.add(p);
    }
    await Promise.all(inflight);
  }
  client.close();
  return { placed, rejected, elapsedMs: performance.now() - start, latenciesMs: latencies };
}

if (process.send) {
  process.once('message', (job: LoadJob) => {
    run(job).then(
      (result) => process.send!({ ok: true, result }, () => process.exit(0)),
      (err: unknown) =>
        process.send!({ ok: false, error: err instanceof Error ? err.message : String(err) }, () =>
          process.exit(1),
        ),
    );
  });
}
