/** Ledgers the benchmarks start from: a fresh dev ledger, or one whose shard 0 holds many leaves. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ShardedTrees } from '@nightjar/crypto';
import { fieldToHex } from '@nightjar/protocol';
import Database from 'better-sqlite3';
import { ensureDevGenesis, Ledger, loadOrCreateDevKeys, mintAddress, VAULT_ADDRESS } from '../src/index.js';
import { Actor, type TestNote } from '../test/harness.js';

/** Proof checks stubbed: the figures measure the ledger (Groth16 has its own benchmark). */
export const acceptAll = { verify: async () => true };
export const SOL = mintAddress('SOL');

/** `user`'s signed deposit of `note` (1,000 base units of SOL) into shard 0. */
export function depositOf(user: Actor, note: TestNote) {
  return user.sign({
    name: 'deposit',
    args: {
      tree_id: 0,
      mint: SOL,
      amount: '1000',
      note_commitment: note.commitment,
      opening_hash: note.openingHash,
    },
  });
}

/** A dev ledger (manual clock) with its genesis and one finalized TEE key. */
export async function freshLedger(
  dataDir?: string,
  options: Partial<Parameters<typeof Ledger.open>[0]> = {},
) {
  const ledger = Ledger.open({ dataDir, clock: { mode: 'manual' }, verifier: acceptAll, ...options });
  const keys = loadOrCreateDevKeys(dataDir);
  await ensureDevGenesis(ledger, keys);
  const admin = new Actor(keys.adminSeed);
  await admin.sync(ledger);
  const tee = new Actor();
  await admin.send(ledger, 'set_tee_keys', { keys: [tee.address] });
  await ledger.advanceSlots({ slots: 31 });
  return { ledger, tee };
}

/**
 * A closed ledger directory whose shard 0 holds `n` leaves, written directly (as if deposited,
 * with a tree snapshot so that opening it does not rehash them). `buildMs`: hashing them once.
 */
export async function ledgerWithLeaves(n: number): Promise<{ dir: string; root: bigint; buildMs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'nightjar-bench-'));
  const { ledger } = await freshLedger(dir);
  await ledger.close();
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
  return { dir, root, buildMs };
}
