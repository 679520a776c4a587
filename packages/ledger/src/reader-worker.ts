/**
 * The reader thread: opens the ledger's SQLite file read-only (WAL: it sees every committed
 * transaction while the writer goes on) and answers the heavy reads (heavy-reads.ts) posted to it.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { InThreadReads, type HeavyReadName } from './heavy-reads.js';
import type { ReaderInit, ReaderReply, ReaderRequest } from './reader-thread.js';

const init = workerData as ReaderInit;
const db = new Database(init.path, { readonly: true, fileMustExist: true });
const reads = new InThreadReads(db, init.memosPerRead);

parentPort!.on('message', (request: ReaderRequest) => {
  const run = reads[request.op as HeavyReadName] as (...args: unknown[]) => Promise<unknown>;
  run.apply(reads, request.args).then(
    (value) => parentPort!.postMessage({ id: request.id, ok: true, value } satisfies ReaderReply),
    (err: unknown) =>
      parentPort!.postMessage({
        id: request.id,
        ok: false,
        message: err instanceof Error ? err.message : 'read failed',
      } satisfies ReaderReply),
  );
});
parentPort!.postMessage({ ready: true });
