import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { Ledger, VAULT_ADDRESS } from '../src/index.js';
import {
  Actor,
  memoHex,
  outputOf,
  slotNote,
  SOL,
  startHarness,
  tempDir,
  TestVerifier,
  USDC,
  type Harness,
} from './harness.js';

describe('persistence', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  async function snapshotOf(h: Harness) {
    const c = h.client;
    return {
      slot: await c.getSlot(),
      markets: await c.getMarkets(),
      vault: await c.getVault(),
      roots: await Promise.all([0, 1, 2, 3].map((t) => c.getTreeRoot({ tree_id: t }))),
      finalizedRoot: await c.getTreeRoot({ tree_id: 0, commitment: 'finalized' }),
      leaves: await c.getLeaves({ tree_id: 0, from: 0, to: 100 }),
      vaultSol: await c.getBalance({ owner: VAULT_ADDRESS, mint: SOL }),
      vaultUsdc: await c.getBalance({ owner: VAULT_ADDRESS, mint: USDC }),
    };
  }

  async function reopen(dir: string, h: Harness): Promise<Harness> {
    await h.ledger.close();
    return startHarnessOn(dir);
  }

  /** Reopens without re-running genesis steps that already happened (startHarness is idempotent). */
  async function startHarnessOn(dir: string): Promise<Harness> {
    return startHarness({ dataDir: dir });
  }

  it('a restarted ledger resumes with accounts, trees, locks, nonces and its slot', async () => {
    const dir = tempDir();
    dirs.push(dir);
    let h = await startHarness({ dataDir: dir });
    const alice = new Actor();
    const a = await h.deposit(alice, SOL, 70n);
    await h.lock(a, 200);
    const pair = await h.lockedPair({ untilOffset: 200 });
    const change = slotNote(1, 100n);
    const outputs = [10n, 100n, 0n, 0n, 0n, 0n].map((v, k) => outputOf(k === 1 ? change : slotNote(k, v)));
    const memos = [memoHex(0xab), memoHex(0xcd)];
    const settle = await h.settle([await h.matchArgs(pair.bid, pair.ask, { outputs, memos })]);
    expect(settle.result?.matches?.[0]?.ok).toBe(true);
    await h.client.advanceSlots({ slots: 5 });
    const before = await snapshotOf(h);

    h = await reopen(dir, h);
    const after = await snapshotOf(h);
    // The harness registers a fresh TEE key and advances 31 slots on start; everything else is as it was.
    const strip = (s: typeof before) => ({
      ...s,
      slot: 0,
      finalizedRoot: null,
      roots: s.roots.map((r) => ({ ...r, slot: 0 })),
      vault: { ...s.vault, tee_keys: [], signer_set_sha256: '' },
    });
    expect(strip(after)).toEqual(strip(before));
    expect(after.slot).toBe(before.slot + 31);
    expect((await h.lock(a)).err?.code).toBe('NoteLocked');
    expect(await h.client.getNoteStatuses({ nullifiers: [pair.bid.nullifier, change.nullifier] })).toEqual([
      { state: 'spent' },
      { state: 'free' },
    ]);
    expect(await h.client.getSolvency()).toMatchObject({
      mints: expect.arrayContaining([{ mint: USDC, vault_balance: '1000', outstanding_note_value: '1000' }]),
    });
    const stored = memos.map((memo, party) => ({
      index: party,
      signature: settle.signature,
      match_idx: 0,
      party,
      memo,
      kind: 'fill',
    }));
    expect(await h.client.getMemosBySignature({ signature: settle.signature })).toEqual({ memos: stored });
    expect(await h.client.getMemos({ from: 0, to: 10 })).toEqual({ memos: stored });
    // The admin's nonce survived: its next transaction is accepted.
    expect((await h.admin.send(h.client, 'create_mint', { label: 'NEW', decimals: 3 })).err).toBeNull();
    await h.ledger.close();
  });

  it('rebuilds the trees from the leaves when the snapshot is missing or corrupt', async () => {
    const dir = tempDir();
    dirs.push(dir);
    let h = await startHarness({ dataDir: dir });
    const alice = new Actor();
    for (let i = 0; i < 5; i++) await h.deposit(alice, SOL, BigInt(i + 1), i % 2);
    const roots = await Promise.all([0, 1].map((t) => h.client.getTreeRoot({ tree_id: t })));
    await h.ledger.close();

    const db = new Database(join(dir, 'ledger.sqlite'));
    db.prepare('UPDATE tree_snapshot SET image = ?').run(Buffer.from('garbage'));
    db.close();
    h = await startHarness({ dataDir: dir });
    expect(
      await Promise.all([0, 1].map(async (t) => (await h.client.getTreeRoot({ tree_id: t })).merkle_root)),
    ).toEqual(roots.map((r) => r.merkle_root));
    await h.ledger.close();

    const db2 = new Database(join(dir, 'ledger.sqlite'));
    db2.prepare('DELETE FROM tree_snapshot').run();
    db2.close();
    h = await startHarness({ dataDir: dir });
    expect((await h.client.getTreeRoot({ tree_id: 0 })).merkle_root).toBe(roots[0]!.merkle_root);
    await h.ledger.close();
  });

  it('numbers the memos of a database written before the memo index, in storage order', async () => {
    const dir = tempDir();
    dirs.push(dir);
    let h = await startHarness({ dataDir: dir });
    const settleWith = async (memos: string[]) => {
      const { bid, ask } = await h.lockedPair();
      return h.settle([await h.matchArgs(bid, ask, { memos })]);
    };
    await settleWith([memoHex(0xa0), memoHex(0xa1)]);
    await settleWith([memoHex(0xb0), memoHex(0xb1)]);
    const before = await h.client.getMemos({ from: 0, to: 10 });
    await h.ledger.close();

    // Back to the old schema: no idx column, no index.
    const db = new Database(join(dir, 'ledger.sqlite'));
    db.exec(`DROP INDEX memos_idx;
      CREATE TABLE old AS SELECT signature, match_idx, party, memo FROM memos ORDER BY idx;
      DROP TABLE memos;
      CREATE TABLE memos (signature TEXT NOT NULL, match_idx INTEGER NOT NULL, party INTEGER NOT NULL, memo TEXT NOT NULL, PRIMARY KEY (signature, match_idx, party));
      INSERT INTO memos SELECT * FROM old;
      DROP TABLE old;`);
    db.close();

    h = await startHarness({ dataDir: dir });
    expect(await h.client.getMemos({ from: 0, to: 10 })).toEqual(before);
    const next = await settleWith([memoHex(0xc0), memoHex(0xc1)]);
    expect((await h.client.getMemos({ from: 4, to: 10 })).memos).toEqual([
      { index: 4, signature: next.signature, match_idx: 0, party: 0, memo: memoHex(0xc0), kind: 'fill' },
      { index: 5, signature: next.signature, match_idx: 0, party: 1, memo: memoHex(0xc1), kind: 'fill' },
    ]);
    await h.ledger.close();
  });

  it('every root of every shard survives a restart: a lock names a root 500 appends old after reopening', async () => {
    const dir = tempDir();
    dirs.push(dir);
    let h = await startHarness({ dataDir: dir });
    const alice = new Actor();
    const note = await h.deposit(alice, SOL, 5n);
    const old = await h.currentRoot();
    for (let i = 0; i < 500; i++) await h.deposit(alice, SOL, 1n);
    await h.ledger.close();
    h = await startHarness({ dataDir: dir });
    expect((await h.tee.send(h.client, 'lock_note', await h.lockArgs(note, { root: old }))).err).toBeNull();
    await h.ledger.close();
  }, 120_000);

  it('opens a data directory from before settlement v2: its roots are backfilled, its locks read as locks but cannot be settled', async () => {
    const dir = tempDir();
    dirs.push(dir);
    let h = await startHarness({ dataDir: dir });
    const alice = new Actor();
    const bid = await h.deposit(alice, USDC, 50n);
    const roots = [await h.currentRoot()];
    const ask = await h.deposit(alice, SOL, 5n);
    roots.push(await h.currentRoot());
    for (let i = 0; i < 70; i++) await h.deposit(alice, SOL, 1n, 1);
    const slot = await h.client.getSlot();
    await h.ledger.close();

    // Back to the old layout: no use tag on locks, no root history; two locks as the old ledger wrote them.
    const db = new Database(join(dir, 'ledger.sqlite'));
    db.exec(`DROP TABLE roots; DROP INDEX notes_tree_slot; DELETE FROM meta WHERE key = 'root_history_complete';
      DROP TABLE locks;
      CREATE TABLE locks (nullifier TEXT PRIMARY KEY, until_slot INTEGER NOT NULL, locker TEXT NOT NULL, slot INTEGER NOT NULL);`);
    db.close();
    h = await startHarness({ dataDir: dir });
    const db2 = new Database(join(dir, 'ledger.sqlite'));
    for (const n of [bid, ask])
      db2
        .prepare('INSERT INTO locks (nullifier, until_slot, locker, slot) VALUES (?, ?, ?, ?)')
        .run(n.nullifier, slot + 500, h.tee.address, slot);
    db2.close();
    expect(await h.client.getNoteStatuses({ nullifiers: [bid.nullifier, ask.nullifier] })).toEqual([
      { state: 'locked', locked_until_slot: slot + 500 },
      { state: 'locked', locked_until_slot: slot + 500 },
    ]);
    expect((await h.client.getLiveLocks({ from: 0 })).locks).toHaveLength(2);
    const rec = await h.settle([await h.matchArgs(bid, ask)]);
    expect(rec.result?.matches?.[0]?.err?.code).toBe('NotLocked');
    // Released and locked again (with a proof and a use tag), it settles.
    for (const n of [bid, ask]) {
      expect((await h.tee.send(h.client, 'release_lock', { nullifier: n.nullifier })).err).toBeNull();
      // Every root from before the upgrade is known again, the empty shard's too.
      expect(
        (
          await h.tee.send(
            h.client,
            'lock_note',
            await h.lockArgs(n, { root: n === bid ? roots[0] : roots[1] }),
          )
        ).err,
      ).toBeNull();
    }
    expect((await h.settle([await h.matchArgs(bid, ask)])).result?.matches?.[0]?.ok).toBe(true);
    const stranger = await h.deposit(alice, SOL, 2n, 1);
    const emptyShard1 = (await h.client.getRootWindow({ tree_id: 3 })).roots[0]!;
    expect(
      (await h.tee.send(h.client, 'lock_note', await h.lockArgs(stranger, { root: emptyShard1 }))).err,
    ).toBeNull();
    await h.ledger.close();
  }, 60_000);

  it('refuses a data directory written before private settlement, saying so', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const db = new Database(join(dir, 'ledger.sqlite'));
    db.exec(
      'CREATE TABLE locks (nullifier TEXT PRIMARY KEY, note_commitment TEXT NOT NULL, order_id TEXT NOT NULL, until_slot INTEGER NOT NULL, locker TEXT NOT NULL, slot INTEGER NOT NULL)',
    );
    db.close();
    expect(() =>
      Ledger.open({ dataDir: dir, clock: { mode: 'manual' }, verifier: new TestVerifier() }),
    ).toThrow(/predates private settlement/);
  });

  it('the slot clock continues from where it stopped', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const l1 = Ledger.open({ dataDir: dir, clock: { mode: 'manual' }, verifier: new TestVerifier() });
    await l1.advanceSlots({ slots: 42 });
    await l1.close();
    const l2 = Ledger.open({ dataDir: dir, clock: { mode: 'manual' }, verifier: new TestVerifier() });
    expect(await l2.getSlot()).toBe(42);
    await l2.close();
  });
});
