/**
 * The heavy reads (heavy-reads.ts) served from a worker thread with its own read-only connection
 * to the ledger's SQLite file, so that a flood of page reads never holds the writer's event loop
 * (issue 28 item 9). Only a ledger stored in a file has one (an in-memory database is private to
 * its connection). If the thread dies, its pending reads fail with -32603 and `alive` turns false.
 */
import { Worker } from 'node:worker_threads';
import { RPC_ERRORS, RpcError } from '@nightjar/protocol/ledger-client';
import type { HeavyReadName, HeavyReads } from './heavy-reads.js';

export interface ReaderInit {
  path: string;
  memosPerRead: number | undefined;
}
export interface ReaderRequest {
  id: number;
  op: HeavyReadName;
  args: unknown[];
}
export type ReaderReply =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

type Pending = { resolve: (value: unknown) => void; reject: (err: Error) => void };

export class ReaderThread implements HeavyReads {
  /** Reads the thread answered. */
  served = 0;
  private alive = true;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: ReaderReply) => this.settle(reply));
    worker.on('error', () => this.die());
    worker.on('exit', () => this.die());
    // Idle, it keeps nothing alive; a pending read belongs to a request that does.
    worker.unref();
  }

  /** Starts the thread on the SQLite file at `path`; resolves once it has opened the file. */
  static async start(init: ReaderInit): Promise<ReaderThread> {
    const worker = new Worker(new URL('./reader-worker-boot.mjs', import.meta.url), { workerData: init });
    await new Promise<void>((resolve, reject) => {
      const onMessage = () => {
        worker.off('error', onError);
        resolve();
      };
      const onError = (err: Error) => {
        worker.off('message', onMessage);
        reject(err);
      };
      worker.once('message', onMessage);
      worker.once('error', onError);
    });
    return new ReaderThread(worker);
  }

  get isAlive(): boolean {
    return this.alive;
  }

  private call<T>(op: HeavyReadName, args: unknown[]): Promise<T> {
    if (!this.alive) return Promise.reject(new RpcError(RPC_ERRORS.internal, 'reader thread stopped'));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ id, op, args } satisfies ReaderRequest);
    });
  }

  private settle(reply: ReaderReply): void {
    const p = this.pending.get(reply.id);
    if (!p) return;
    this.pending.delete(reply.id);
    this.served++;
    if (reply.ok) p.resolve(reply.value);
    else p.reject(new RpcError(RPC_ERRORS.internal, 'read failed'));
  }

  private die(): void {
    this.alive = false;
    for (const p of this.pending.values())
      p.reject(new RpcError(RPC_ERRORS.internal, 'reader thread stopped'));
    this.pending.clear();
  }

  leaves(treeId: number, from: number, to: number) {
    return this.call<Awaited<ReturnType<HeavyReads['leaves']>>>('leaves', [treeId, from, to]);
  }
  memos(from: number, to: number) {
    return this.call<Awaited<ReturnType<HeavyReads['memos']>>>('memos', [from, to]);
  }
  deposits(owner: string, from: number) {
    return this.call<Awaited<ReturnType<HeavyReads['deposits']>>>('deposits', [owner, from]);
  }
  block(slot: number) {
    return this.call<Awaited<ReturnType<HeavyReads['block']>>>('block', [slot]);
  }
  noteStatuses(nullifiers: readonly string[], slot: number) {
    return this.call<Awaited<ReturnType<HeavyReads['noteStatuses']>>>('noteStatuses', [nullifiers, slot]);
  }

  async close(): Promise<void> {
    this.alive = false;
    await this.worker.terminate();
  }
}
