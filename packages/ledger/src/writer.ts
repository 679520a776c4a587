/**
 * The single writer: transactions land one at a time, in the order they were handed over, at the
 * slot they land in. Landing is synchronous (proofs were judged at admission), so nothing slow
 * ever holds the queue. Delayed transactions (injected latency) wait in memory, like a mempool.
 */
import { InstructionError, type LedgerEvent, type Transaction } from '@nightjar/protocol/ledger-client';
import { ChainState } from './chain-state.js';
import type { SlotClock } from './clock.js';
import type { DecodedInstruction } from './program/args.js';
import type { ExecContext, InstructionResult, ProofVerdict } from './program/context.js';
import { handlers } from './program/instructions.js';
import type { Db } from './store.js';

const ADMIN_INSTRUCTIONS = new Set(['initialize', 'set_tee_keys', 'create_mint', 'create_market']);

/** A transaction ready to land: decoded, its proofs judged, due at `landAt`. */
export interface ReadyTransaction {
  tx: Transaction;
  decoded: DecodedInstruction;
  verdicts: readonly ProofVerdict[];
  landAt: number;
}

export interface WriterHooks {
  emit(event: LedgerEvent): void;
  /** Shards whose leaf events are corrupted (injected divergence). */
  divergedShards(): readonly number[];
  snapshotEvery: number;
  isClosed(): boolean;
  lastNonce(signer: string): string | undefined;
  isProcessed(signature: string): boolean;
}

export class LedgerWriter {
  private queue: Promise<void> = Promise.resolve();
  private pending: (ReadyTransaction & { resolve: () => void })[] = [];
  private txSeq: number;
  private leavesSinceSnapshot = 0;
  private readonly stmts;

  constructor(
    private readonly db: Db,
    private readonly state: ChainState,
    private readonly clock: SlotClock,
    private readonly hooks: WriterHooks,
  ) {
    this.txSeq = (db.prepare('SELECT COALESCE(MAX(seq), -1) FROM transactions').pluck().get() as number) + 1;
    this.stmts = {
      setNonce: db.prepare(
        'INSERT INTO nonces (signer, nonce) VALUES (?, ?) ON CONFLICT(signer) DO UPDATE SET nonce = excluded.nonce',
      ),
      insertTx: db.prepare(
        'INSERT INTO transactions (signature, seq, slot, signer, instruction, err, result, nonce, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      // The global memo index is the next free one: memos are numbered in the order they are stored.
      insertMemo: db.prepare(
        'INSERT INTO memos (signature, match_idx, party, memo, idx) VALUES (?, ?, ?, ?, (SELECT COALESCE(MAX(idx), -1) + 1 FROM memos))',
      ),
    };
  }

  /** The sequence number the next landing transaction gets (also names airdrops). */
  get nextSeq(): number {
    return this.txSeq;
  }

  /** A context for read-only checks against the current state (admission's prechecks). */
  readOnlyContext(signer: string): ExecContext {
    return {
      state: this.state,
      signer,
      slot: this.clock.current,
      txSeq: this.txSeq,
      appends: new Map(),
      touchedMints: new Set(),
      memos: [],
      proofs: [],
    };
  }

  /** Runs `fn` after everything queued before it. */
  enqueue<T>(fn: () => T | Promise<T>): Promise<T> {
    const run = this.queue.then(fn);
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Hands a transaction over; resolves once it has landed (or was dropped on close). */
  submit(ready: ReadyTransaction): Promise<void> {
    const landed = new Promise<void>((resolve) => this.pending.push({ ...ready, resolve }));
    this.landDue();
    return landed;
  }

  /** Queues every held transaction that is due at the current slot, in hand-over order. */
  landDue(): void {
    const now = this.clock.current;
    const due = this.pending.filter((p) => p.landAt <= now);
    if (due.length === 0) return;
    this.pending = this.pending.filter((p) => p.landAt > now);
    for (const p of due) void this.enqueue(() => this.land(p)).finally(p.resolve);
  }

  /** Drops what is still held (on close): it never lands, like a node's mempool. */
  dropPending(): void {
    for (const p of this.pending) p.resolve();
    this.pending = [];
  }

  /** Dev faucet: credits `owner` as its own transaction record. */
  airdrop(signature: string, owner: string, mint: string, amount: bigint): Promise<void> {
    return this.enqueue(() => {
      this.db.transaction(() => {
        this.state.mintTo(owner, mint, amount);
        // Not a signed transaction (no nonce, no body): getBlock does not list it.
        this.stmts.insertTx.run(
          signature,
          this.txSeq++,
          this.clock.current,
          'faucet',
          'airdrop',
          null,
          null,
          null,
          null,
        );
      })();
    });
  }

  private land({ tx, decoded, verdicts }: ReadyTransaction): void {
    if (this.hooks.isClosed()) return;
    // Re-check at landing time: delayed transactions may have been overtaken.
    const last = this.hooks.lastNonce(tx.signer);
    if ((last !== undefined && BigInt(tx.nonce) <= BigInt(last)) || this.hooks.isProcessed(tx.signature))
      return;
    const slot = this.clock.current;
    const ctx: ExecContext = {
      state: this.state,
      signer: tx.signer,
      slot,
      txSeq: this.txSeq,
      appends: new Map(),
      touchedMints: new Set(),
      memos: [],
      proofs: verdicts,
    };
    let result: InstructionResult = null;
    const record = (err: InstructionError | undefined) => {
      this.stmts.setNonce.run(tx.signer, tx.nonce);
      this.stmts.insertTx.run(
        tx.signature,
        this.txSeq,
        slot,
        tx.signer,
        decoded.name,
        err ? JSON.stringify(err.toJSON()) : null,
        result ? JSON.stringify(result) : null,
        tx.nonce,
        // The instruction exactly as sent (signed), for getBlock: what any observer sees.
        JSON.stringify(tx.instruction),
      );
    };
    try {
      if (!decoded.ok) throw decoded.failure;
      this.db.transaction(() => {
        result = (handlers[decoded.name] as (c: ExecContext, a: unknown) => InstructionResult)(
          ctx,
          decoded.args,
        );
        for (const mint of ctx.touchedMints) this.state.assertSolvent(mint);
        for (const m of ctx.memos) this.stmts.insertMemo.run(tx.signature, m.match_idx, m.party, m.memo);
        record(undefined);
      })();
    } catch (err) {
      if (!(err instanceof InstructionError)) throw err;
      result = null;
      ctx.appends.clear();
      this.db.transaction(() => record(err))();
    }
    this.txSeq++;
    this.afterCommit(decoded.name, ctx);
  }

  /** Applies what only memory holds once SQLite has committed: trees, caches, events. */
  private afterCommit(name: string, ctx: ExecContext): void {
    if (ADMIN_INSTRUCTIONS.has(name)) this.state.loadConfig();
    // Each note whose state the instruction touched, as it reads now (a rolled-back write reads as before).
    for (const nullifier of this.state.takeTouchedNullifiers())
      this.hooks.emit({
        type: 'note',
        nullifier,
        slot: ctx.slot,
        ...this.state.noteStatus(nullifier, ctx.slot),
      });
    if (this.state.vault && !this.state.trees) this.state.initTrees(this.state.vault.num_trees);
    const trees = this.state.trees;
    if (!trees) return;
    for (const [treeId, leaves] of ctx.appends) {
      if (leaves.length === 0) continue;
      const first = trees.appendBatch(treeId, leaves);
      this.state.recordCheckpoint(treeId, ctx.slot, trees.size(treeId));
      this.leavesSinceSnapshot += leaves.length;
      const diverged = this.hooks.divergedShards().includes(treeId);
      leaves.forEach((leaf, i) => {
        // Injected divergence: mirrors are told a different leaf than the chain holds.
        const told = diverged ? (leaf + 1n) % (1n << 253n) : leaf;
        this.hooks.emit({
          type: 'leaf',
          tree_id: treeId,
          leaf_index: first + i,
          commitment: ChainState.hexOf(told),
          slot: ctx.slot,
          seq: ctx.txSeq,
          count: leaves.length,
        });
      });
    }
    if (this.leavesSinceSnapshot >= this.hooks.snapshotEvery) {
      this.state.saveTreeSnapshot();
      this.leavesSinceSnapshot = 0;
    }
  }
}
