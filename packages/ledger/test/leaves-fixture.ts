/**
 * Fills shard 0 of a closed ledger directory (with its vault) with `n` leaves written directly, as
 * if deposited, and a tree snapshot so that opening it does not rehash them: a large tree for
 * tests and benchmarks of page reads, in a second instead of `n` deposits.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ShardedTrees } from '@nightjar/crypto';
import { fieldToHex } from '@nightjar/protocol';
import Database from 'better-sqlite3';
import { VAULT_ADDRESS } from '../src/index.js';
import { SOL } from './harness.js';

/** Returns the shard's root and how long hashing the leaves once took. */
export function writeLeaves(dir: string, n: number): { root: bigint; buildMs: number } {
  const db = new Database(join(dir, 'ledger.sqlite'));
  const trees = new ShardedTrees(4);
  const insert = db.prepare(
    'INSERT INTO notes (commitment, tree_id, leaf_index, mint, amount, slot, tx_seq) VALUES (?, 0, ?, ?, ?, 1, ?)',
  );
  const leaves: bigint[] = [];
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const v = BigInt(i + 1) * 7919n;
      leaves.push(v);
      insert.run(fieldToHex(v), i, SOL, '1', 1_000_000 + i);
    }
    db.prepare(
      "INSERT INTO supply (mint, deposited, withdrawn) VALUES (?, ?, '0') ON CONFLICT(mint) DO UPDATE SET deposited = excluded.deposited",
    ).run(SOL, String(n));
    db.prepare(
      'INSERT INTO balances (owner, mint, amount) VALUES (?, ?, ?) ON CONFLICT(owner, mint) DO UPDATE SET amount = excluded.amount',
    ).run(VAULT_ADDRESS, SOL, String(n));
  })();
  const tBuild = performance.now();
  trees.appendBatch(0, leaves);
  const root = trees.root(0);
  const buildMs = performance.now() - tBuild;
  db.prepare(
    'INSERT INTO tree_snapshot (id, tx_seq, image) VALUES (0, ?, ?) ON CONFLICT(id) DO UPDATE SET tx_seq = excluded.tx_seq, image = excluded.image',
  ).run(1_000_000 + n, Buffer.from(trees.snapshot()));
  db.close();
  return { root, buildMs };
}
