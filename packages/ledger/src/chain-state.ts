/**
 * The chain's state. Balances, notes, nullifiers and locks live in SQLite and are read and written
 * inside the running instruction's SQLite transaction, so a failed instruction leaves no trace.
 * Small, hot state (vault, mints, markets, the note trees) is kept in memory as well.
 */
import { ShardedTrees } from '@nightjar/crypto';
import { fieldToHex } from '@nightjar/protocol';
import {
  VAULT_ADDRESS,
  InstructionError,
  COMMITMENT_LAG,
  type Commitment,
  type MarketRecord,
  type NoteStatus,
} from '@nightjar/protocol/ledger-client';
import { RootHistory } from './root-history.js';
import type { GenesisAuthority } from './genesis-authority.js';
import { getMeta, setMeta, type Db } from './store.js';

export interface VaultState {
  admin: string;
  fee_owner_commitment: string;
  num_trees: number;
  /** Signer-set changes, oldest first; the set in force at slot s is the last entry with slot <= s. */
  tee_history: { slot: number; keys: string[] }[];
}

export interface NoteRow {
  commitment: string;
  tree_id: number;
  leaf_index: number;
  mint: string;
  /** A deposit's amount (public); null for a settlement output, whose amount only its owner knows. */
  amount: string | null;
}

/**
 * A lock names the note by nullifier only (DESIGN.md section 6), with the use tag its proof showed
 * (null for a lock written before settlement v2: no v2 settlement can consume it).
 */
export interface LockRow {
  nullifier: string;
  until_slot: number;
  locker: string;
  use_tag: string | null;
}

/** Per shard: the tree size after each append instruction, with its slot, for commitment reads. */
interface SizeCheckpoint {
  slot: number;
  size: number;
}

export class ChainState {
  vault: VaultState | undefined;
  readonly mints = new Map<string, { decimals: number; label: string }>();
  readonly markets = new Map<string, MarketRecord>();
  trees: ShardedTrees | undefined;
  /** Configured genesis authority (production); undefined lets the first `initialize` win (dev). */
  genesis: GenesisAuthority | undefined;
  private checkpoints: SizeCheckpoint[][] = [];
  /** Every root of every shard (root-history.ts). */
  readonly roots: RootHistory;
  /** Nullifiers whose spent or lock state a write touched since the last `takeTouchedNullifiers`. */
  private touched = new Set<string>();
  private readonly stmts;

  constructor(readonly db: Db) {
    this.roots = new RootHistory(db);
    this.stmts = {
      balance: db.prepare('SELECT amount FROM balances WHERE owner = ? AND mint = ?').pluck(),
      setBalance: db.prepare(
        'INSERT INTO balances (owner, mint, amount) VALUES (?, ?, ?) ON CONFLICT(owner, mint) DO UPDATE SET amount = excluded.amount',
      ),
      note: db.prepare(
        'SELECT commitment, tree_id, leaf_index, mint, amount FROM notes WHERE commitment = ?',
      ),
      insertNote: db.prepare(
        'INSERT INTO notes (commitment, tree_id, leaf_index, mint, amount, slot, tx_seq) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      nullifier: db.prepare('SELECT kind FROM nullifiers WHERE nullifier = ?').pluck(),
      insertNullifier: db.prepare(
        'INSERT INTO nullifiers (nullifier, mint, amount, kind, slot) VALUES (?, ?, ?, ?, ?)',
      ),
      lock: db.prepare('SELECT nullifier, until_slot, locker, use_tag FROM locks WHERE nullifier = ?'),
      insertLock: db.prepare(
        'INSERT INTO locks (nullifier, until_slot, locker, slot, use_tag) VALUES (?, ?, ?, ?, ?)',
      ),
      deleteLock: db.prepare('DELETE FROM locks WHERE nullifier = ?'),
      supply: db.prepare('SELECT deposited, withdrawn FROM supply WHERE mint = ?'),
      setSupply: db.prepare(
        'INSERT INTO supply (mint, deposited, withdrawn) VALUES (?, ?, ?) ON CONFLICT(mint) DO UPDATE SET deposited = excluded.deposited, withdrawn = excluded.withdrawn',
      ),
      leaves: db.prepare(
        'SELECT leaf_index, commitment FROM notes WHERE tree_id = ? AND leaf_index >= ? AND leaf_index < ? ORDER BY leaf_index',
      ),
    };
  }

  /* ---- loading ---- */

  load(currentSlot: number): void {
    this.loadConfig();
    if (this.vault) this.loadTrees(this.vault.num_trees, currentSlot);
    this.roots.backfill(this.trees);
  }

  /** Reloads the small configuration caches (after an admin instruction commits). */
  loadConfig(): void {
    this.mints.clear();
    this.markets.clear();
    const vault = getMeta(this.db, 'vault');
    this.vault = vault === undefined ? undefined : (JSON.parse(vault) as VaultState);
    for (const row of this.db.prepare('SELECT address, decimals, label FROM mints').all() as {
      address: string;
      decimals: number;
      label: string;
    }[]) {
      this.mints.set(row.address, { decimals: row.decimals, label: row.label });
    }
    for (const row of this.db.prepare('SELECT record FROM markets ORDER BY seq').all() as {
      record: string;
    }[]) {
      const record = JSON.parse(row.record) as MarketRecord;
      this.markets.set(record.market_id, record);
    }
  }

  /**
   * Restores the trees from the last snapshot, then replays the leaves appended after it, one
   * append instruction (transaction) at a time so that the root windows match the chain's.
   */
  private loadTrees(numTrees: number, currentSlot: number): void {
    const snap = this.db.prepare('SELECT tx_seq, image FROM tree_snapshot WHERE id = 0').get() as
      { tx_seq: number; image: Buffer } | undefined;
    let trees: ShardedTrees | undefined;
    let afterSeq = -1;
    if (snap) {
      try {
        trees = ShardedTrees.restore(new Uint8Array(snap.image));
        afterSeq = snap.tx_seq;
      } catch {
        trees = undefined; // A corrupt snapshot is not fatal: rebuild from the leaves.
      }
    }
    if (!trees || trees.numTrees !== numTrees) {
      trees = new ShardedTrees(numTrees);
      afterSeq = -1;
    }
    const rows = this.db
      .prepare(
        'SELECT tree_id, commitment, tx_seq FROM notes WHERE tx_seq > ? ORDER BY tx_seq, tree_id, leaf_index',
      )
      .raw()
      .iterate(afterSeq) as IterableIterator<[number, string, number]>;
    let batch: bigint[] = [];
    let batchKey = '';
    let batchTree = 0;
    for (const [treeId, commitment, seq] of rows) {
      const key = `${seq}/${treeId}`;
      if (key !== batchKey && batch.length > 0) {
        trees.appendBatch(batchTree, batch);
        batch = [];
      }
      batchKey = key;
      batchTree = treeId;
      batch.push(BigInt('0x' + commitment));
    }
    if (batch.length > 0) trees.appendBatch(batchTree, batch);
    this.trees = trees;
    this.checkpoints = Array.from({ length: numTrees }, () => []);
    // Checkpoints: the size before the finalized horizon, then every later append slot.
    const horizon = currentSlot - COMMITMENT_LAG.finalized - 1;
    const before = this.db
      .prepare(
        'SELECT tree_id, MAX(leaf_index) + 1 AS size, MAX(slot) AS slot FROM notes WHERE slot <= ? GROUP BY tree_id',
      )
      .all(horizon) as { tree_id: number; slot: number; size: number }[];
    for (const row of before) this.checkpoints[row.tree_id]?.push({ slot: row.slot, size: row.size });
    const recent = this.db
      .prepare(
        'SELECT tree_id, slot, MAX(leaf_index) + 1 AS size FROM notes WHERE slot > ? GROUP BY tree_id, slot ORDER BY slot',
      )
      .all(horizon) as { tree_id: number; slot: number; size: number }[];
    for (const row of recent) this.checkpoints[row.tree_id]?.push({ slot: row.slot, size: row.size });
  }

  /** Writes a tree snapshot so the next open restores without rehashing. */
  saveTreeSnapshot(): void {
    if (!this.trees) return;
    // The trees hold every committed note, so the snapshot covers up to the newest note's transaction.
    const seq = this.db.prepare('SELECT COALESCE(MAX(tx_seq), -1) FROM notes').pluck().get() as number;
    this.db
      .prepare(
        'INSERT INTO tree_snapshot (id, tx_seq, image) VALUES (0, ?, ?) ON CONFLICT(id) DO UPDATE SET tx_seq = excluded.tx_seq, image = excluded.image',
      )
      .run(seq, Buffer.from(this.trees.snapshot()));
  }

  initTrees(numTrees: number): void {
    this.trees = new ShardedTrees(numTrees);
    this.checkpoints = Array.from({ length: numTrees }, () => []);
  }

  saveVault(vault: VaultState): void {
    setMeta(this.db, 'vault', JSON.stringify(vault));
  }

  /* ---- tokens ---- */

  balance(owner: string, mint: string): bigint {
    const v = this.stmts.balance.get(owner, mint) as string | undefined;
    return v === undefined ? 0n : BigInt(v);
  }

  transfer(from: string, to: string, mint: string, amount: bigint): void {
    const fromBalance = this.balance(from, mint);
    if (fromBalance < amount) throw new InstructionError('InsufficientFunds');
    this.stmts.setBalance.run(from, mint, (fromBalance - amount).toString());
    this.stmts.setBalance.run(to, mint, (this.balance(to, mint) + amount).toString());
  }

  mintTo(owner: string, mint: string, amount: bigint): void {
    this.stmts.setBalance.run(owner, mint, (this.balance(owner, mint) + amount).toString());
  }

  /* ---- notes ---- */

  note(commitment: string): NoteRow | undefined {
    return this.stmts.note.get(commitment) as NoteRow | undefined;
  }

  /** Records a leaf; only a deposit (a note of public amount) moves the note-side ledger. */
  insertNote(row: NoteRow, slot: number, txSeq: number): void {
    this.stmts.insertNote.run(row.commitment, row.tree_id, row.leaf_index, row.mint, row.amount, slot, txSeq);
    if (row.amount !== null) this.adjustSupply(row.mint, BigInt(row.amount), 0n);
  }

  nullifierKind(nullifier: string): string | undefined {
    return this.stmts.nullifier.get(nullifier) as string | undefined;
  }

  /**
   * Marks a nullifier spent. A withdrawal's amount is public and leaves the note-side ledger; a
   * settlement consumes a note of unknown amount whose value VALID_MATCH proved went to its outputs.
   */
  spendNullifier(
    nullifier: string,
    spend: { kind: 'consumed'; mint: string } | { kind: 'withdrawn'; mint: string; amount: bigint },
    slot: number,
  ): void {
    const amount = spend.kind === 'withdrawn' ? spend.amount : null;
    this.stmts.insertNullifier.run(nullifier, spend.mint, amount?.toString() ?? null, spend.kind, slot);
    this.touched.add(nullifier);
    if (amount !== null) this.adjustSupply(spend.mint, 0n, amount);
  }

  /** Spent wins over locked; a lock at or past its `until_slot` no longer holds (reads free). */
  noteStatus(nullifier: string, slot: number): NoteStatus {
    if (this.nullifierKind(nullifier) !== undefined) return { state: 'spent' };
    const lock = this.lock(nullifier);
    if (lock && lock.until_slot > slot) return { state: 'locked', locked_until_slot: lock.until_slot };
    return { state: 'free' };
  }

  lock(nullifier: string): LockRow | undefined {
    return this.stmts.lock.get(nullifier) as LockRow | undefined;
  }

  insertLock(lock: LockRow, slot: number): void {
    this.stmts.insertLock.run(lock.nullifier, lock.until_slot, lock.locker, slot, lock.use_tag);
    this.touched.add(lock.nullifier);
  }

  deleteLock(nullifier: string): void {
    this.stmts.deleteLock.run(nullifier);
    this.touched.add(nullifier);
  }

  /**
   * The nullifiers touched since the last call (a rolled-back write is included: the caller reads
   * each one's state after the commit, so it reports what holds, never what was undone).
   */
  takeTouchedNullifiers(): string[] {
    const touched = [...this.touched];
    this.touched = new Set();
    return touched;
  }

  private adjustSupply(mint: string, deposited: bigint, withdrawn: bigint): void {
    const row = this.stmts.supply.get(mint) as { deposited: string; withdrawn: string } | undefined;
    const d = BigInt(row?.deposited ?? '0') + deposited;
    const w = BigInt(row?.withdrawn ?? '0') + withdrawn;
    this.stmts.setSupply.run(mint, d.toString(), w.toString());
  }

  /**
   * The solvency invariant for `mint` (DESIGN.md section 6): the vault's token balance equals the
   * value of every note created minus every note consumed. Settlements leave that value unchanged
   * (VALID_MATCH proves conservation per mint), so it is the deposits' public amounts minus the
   * withdrawals'. Kept as two independent ledgers (token transfers vs note records) so that a bug
   * in either shows up here.
   */
  assertSolvent(mint: string): void {
    if (this.balance(VAULT_ADDRESS, mint) !== this.unspentValue(mint))
      throw new InstructionError('SolvencyViolation');
  }

  /** Value of the outstanding notes of `mint` (the note-side ledger): deposited minus withdrawn. */
  unspentValue(mint: string): bigint {
    const row = this.stmts.supply.get(mint) as { deposited: string; withdrawn: string } | undefined;
    return BigInt(row?.deposited ?? '0') - BigInt(row?.withdrawn ?? '0');
  }

  /* ---- trees ---- */

  requireTrees(): ShardedTrees {
    if (!this.trees) throw new InstructionError('NotInitialized');
    return this.trees;
  }

  /** Whether `rootHex` is any root shard `treeId` ever had, its current one included. */
  isKnownRoot(treeId: number, rootHex: string): boolean {
    return this.roots.isKnown(this.requireTrees(), treeId, rootHex);
  }

  /** Called at a shard's first append of a transaction: the root it had until then joins the history. */
  recordRootBeforeAppend(treeId: number): void {
    this.roots.recordBefore(this.requireTrees(), treeId);
  }

  recordCheckpoint(treeId: number, slot: number, size: number): void {
    const list = this.checkpoints[treeId]!;
    const last = list[list.length - 1];
    if (last && last.slot === slot) last.size = size;
    else list.push({ slot, size });
    // Only the newest checkpoint older than the finalized horizon is ever needed again.
    const horizon = slot - COMMITMENT_LAG.finalized - 1;
    while (list.length > 2 && list[1]!.slot <= horizon) list.shift();
  }

  /** The shard's size as seen at `commitment` when the clock reads `currentSlot`. */
  sizeAt(treeId: number, currentSlot: number, commitment: Commitment): number {
    const target = currentSlot - COMMITMENT_LAG[commitment];
    const list = this.checkpoints[treeId] ?? [];
    let size = 0;
    for (const cp of list) {
      if (cp.slot <= target) size = cp.size;
      else break;
    }
    return size;
  }

  leafRows(treeId: number, from: number, to: number): { leaf_index: number; commitment: string }[] {
    return this.stmts.leaves.all(treeId, from, to) as { leaf_index: number; commitment: string }[];
  }

  /* ---- signer set ---- */

  teeKeysAt(slot: number): string[] {
    let keys: string[] = [];
    for (const entry of this.vault?.tee_history ?? []) {
      if (entry.slot <= slot) keys = entry.keys;
      else break;
    }
    return keys;
  }

  static hexOf(value: bigint): string {
    return fieldToHex(value);
  }
}
