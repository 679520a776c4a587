/**
 * The embedded ledger, in process. One writer: transactions land one at a time through a queue, at
 * the slot they land in; reads see the state at the requested commitment level.
 */
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { parseAddress, parseBody, U64_MAX, type Codec } from '@nightjar/protocol';
import { VAULT_ADDRESS, signerSetSha256 } from './addresses.js';
import { ChainState } from './chain-state.js';
import { SlotClock, type ClockMode } from './clock.js';
import { InstructionError, RPC_ERRORS, RpcError } from './errors.js';
import type { GenesisAuthority } from './genesis-authority.js';
import { argCodecs, isInstructionName } from './program/args.js';
import type { ExecContext, InstructionResult } from './program/context.js';
import { handlers } from './program/instructions.js';
import { checkProofs, type LedgerProofVerifier } from './proof-checks.js';
import { LedgerQueries, parseParams, queryParams } from './queries.js';
import { getMeta, openDatabase, type Db } from './store.js';
import { verifyTransactionSignature } from './transaction.js';
import {
  COMMITMENT_LAG,
  NO_FAULTS,
  type Commitment,
  type FaultConfig,
  type DevLedgerClient,
  type LedgerEvent,
  type MarketRecord,
  type MemoRecord,
  type MintSolvency,
  type DepositRecord,
  type NoteStatus,
  type SignatureStatus,
  type Transaction,
  type TransactionRecord,
  type TreeRootRecord,
  type VaultInfo,
} from './types.js';

export interface LedgerOptions {
  /** Directory for `ledger.sqlite`; in memory when omitted. */
  dataDir?: string;
  clock?: { mode?: ClockMode; slotMs?: number };
  /** Dev mode allows the faucet and the dev-only controls. */
  dev?: boolean;
  /** Who alone may `initialize`; required outside dev mode (see genesis-authority.ts). */
  genesis?: GenesisAuthority;
  verifier: LedgerProofVerifier;
  /** Write a tree snapshot after this many appended leaves (and always on close). */
  snapshotEveryLeaves?: number;
  /** Source of randomness for fault injection (tests make it deterministic). */
  random?: () => number;
  /** Page cap of getMemos; 10,000 unless a test wants to reach it cheaply. */
  memosPerRead?: number;
}

export const MAX_LEAVES_PER_READ = 10_000;
const MAX_SIGNATURES_PER_READ = 256;
const ADMIN_INSTRUCTIONS = new Set(['initialize', 'set_tee_keys', 'create_mint', 'create_market']);

interface PendingTx {
  tx: Transaction;
  landAt: number;
  resolve: () => void;
}

export class Ledger implements DevLedgerClient {
  readonly clock: SlotClock;
  readonly dev: boolean;
  private readonly db: Db;
  private readonly state: ChainState;
  private readonly queries: LedgerQueries;
  private readonly events = new EventEmitter();
  private readonly verifier: LedgerProofVerifier;
  private readonly random: () => number;
  private readonly snapshotEvery: number;
  private faults: FaultConfig = { ...NO_FAULTS };
  private queue: Promise<void> = Promise.resolve();
  private pending: PendingTx[] = [];
  private txSeq: number;
  private leavesSinceSnapshot = 0;
  private closed = false;
  private readonly stmts;

  private constructor(db: Db, options: LedgerOptions) {
    this.db = db;
    this.dev = options.dev ?? true;
    this.verifier = options.verifier;
    this.random = options.random ?? Math.random;
    this.snapshotEvery = options.snapshotEveryLeaves ?? 50_000;
    this.events.setMaxListeners(0);
    this.state = new ChainState(db);
    if (!this.dev && !options.genesis)
      throw new Error('a ledger outside dev mode needs its genesis authority');
    this.state.genesis = options.genesis;
    const startSlot = Number(getMeta(db, 'slot') ?? '0');
    this.state.load(startSlot);
    this.queries = new LedgerQueries(db, this.state, options.memosPerRead);
    this.clock = new SlotClock({
      mode: options.clock?.mode ?? 'auto',
      slotMs: options.clock?.slotMs,
      startSlot,
    });
    this.txSeq = (db.prepare('SELECT COALESCE(MAX(seq), -1) FROM transactions').pluck().get() as number) + 1;
    this.stmts = {
      nonce: db.prepare('SELECT nonce FROM nonces WHERE signer = ?').pluck(),
      setNonce: db.prepare(
        'INSERT INTO nonces (signer, nonce) VALUES (?, ?) ON CONFLICT(signer) DO UPDATE SET nonce = excluded.nonce',
      ),
      insertTx: db.prepare(
        'INSERT INTO transactions (signature, seq, slot, signer, instruction, err, result) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      tx: db.prepare(
        'SELECT signature, slot, instruction, err, result FROM transactions WHERE signature = ?',
      ),
      // The global memo index is the next free one: memos are numbered in the order they are stored.
      insertMemo: db.prepare(
        'INSERT INTO memos (signature, match_idx, party, memo, idx) VALUES (?, ?, ?, ?, (SELECT COALESCE(MAX(idx), -1) + 1 FROM memos))',
      ),
      saveSlot: db.prepare(
        "INSERT INTO meta (key, value) VALUES ('slot', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      ),
    };
    this.clock.onSlot((slot) => this.onSlot(slot));
  }

  /** Opens (or creates) a ledger. A new dev ledger is given its genesis by the caller (see genesis.ts). */
  static open(options: LedgerOptions): Ledger {
    const ledger = new Ledger(openDatabase(options.dataDir), options);
    ledger.clock.start();
    return ledger;
  }

  get isInitialized(): boolean {
    return this.state.vault !== undefined;
  }

  /* ---------------- reads ---------------- */

  private guard(): void {
    if (this.closed) throw new RpcError(RPC_ERRORS.nodeUnavailable, 'ledger is closed');
    if (this.faults.outage)
      throw new RpcError(RPC_ERRORS.nodeUnavailable, 'ledger unavailable (injected outage)');
  }

  private slotAt(commitment: Commitment | undefined): number {
    return Math.max(0, this.clock.current - COMMITMENT_LAG[commitment ?? 'processed']);
  }

  async getSlot(params: { commitment?: Commitment } = {}): Promise<number> {
    this.guard();
    return this.slotAt(params.commitment);
  }

  async getVault(params: { commitment?: Commitment } = {}): Promise<VaultInfo> {
    this.guard();
    const vault = this.state.vault;
    if (!vault) throw new RpcError(RPC_ERRORS.invalidRequest, 'vault is not initialized');
    const keys = this.state.teeKeysAt(this.slotAt(params.commitment));
    return {
      admin: vault.admin,
      fee_owner_commitment: vault.fee_owner_commitment,
      num_trees: vault.num_trees,
      tee_keys: keys,
      signer_set_sha256: signerSetSha256(keys.map((k) => parseAddress(k)!)),
    };
  }

  async getMarkets(): Promise<MarketRecord[]> {
    this.guard();
    return [...this.state.markets.values()].map((m) => ({ ...m }));
  }

  async getTreeRoot(params: { tree_id: number; commitment?: Commitment }): Promise<TreeRootRecord> {
    this.guard();
    const trees = this.state.trees;
    if (
      !trees ||
      !Number.isInteger(params.tree_id) ||
      params.tree_id < 0 ||
      params.tree_id >= trees.numTrees
    ) {
      throw new RpcError(RPC_ERRORS.invalidParams, 'no such tree_id');
    }
    const commitment = params.commitment ?? 'processed';
    const size = this.state.sizeAt(params.tree_id, this.clock.current, commitment);
    const shard = trees.shard(params.tree_id);
    const root = size === shard.size ? shard.root : treeRootAt(trees, params.tree_id, size);
    return {
      tree_id: params.tree_id,
      merkle_root: ChainState.hexOf(root),
      leaf_count: size,
      slot: this.slotAt(commitment),
    };
  }

  async getLeaves(params: {
    tree_id: number;
    from: number;
    to: number;
  }): Promise<{ leaves: { leaf_index: number; value: string }[] }> {
    this.guard();
    const { tree_id, from, to } = params;
    const trees = this.state.trees;
    if (!trees || !Number.isInteger(tree_id) || tree_id < 0 || tree_id >= trees.numTrees) {
      throw new RpcError(RPC_ERRORS.invalidParams, 'no such tree_id');
    }
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to < from) {
      throw new RpcError(RPC_ERRORS.invalidParams, 'from and to must be integers with 0 <= from <= to');
    }
    const end = Math.min(to, from + MAX_LEAVES_PER_READ);
    const rows = this.state.leafRows(tree_id, from, end);
    return { leaves: rows.map((r) => ({ leaf_index: r.leaf_index, value: r.commitment })) };
  }

  async getBalance(params: { owner: string; mint: string }): Promise<string> {
    this.guard();
    if (!parseAddress(params.owner) || !parseAddress(params.mint))
      throw new RpcError(RPC_ERRORS.invalidParams, 'owner and mint must be Base58 addresses');
    return this.state.balance(params.owner, params.mint).toString();
  }

  async getNonce(params: { signer: string }): Promise<string | null> {
    this.guard();
    return (this.stmts.nonce.get(params.signer) as string | undefined) ?? null;
  }

  async getSignatureStatuses(params: { signatures: string[] }): Promise<(SignatureStatus | null)[]> {
    this.guard();
    if (!Array.isArray(params.signatures) || params.signatures.length > MAX_SIGNATURES_PER_READ) {
      throw new RpcError(
        RPC_ERRORS.invalidParams,
        `signatures must be an array of at most ${MAX_SIGNATURES_PER_READ}`,
      );
    }
    return params.signatures.map((s) => {
      const record = this.readTx(s);
      return record
        ? { slot: record.slot, confirmation_status: record.confirmation_status, err: record.err }
        : null;
    });
  }

  async getTransaction(params: { signature: string }): Promise<TransactionRecord | null> {
    this.guard();
    return this.readTx(params.signature);
  }

  async getNoteStatus(params: { nullifier: string }): Promise<NoteStatus> {
    this.guard();
    const { nullifier } = parseParams(queryParams.noteStatus, params);
    return this.queries.noteStatus(nullifier, this.clock.current);
  }

  async getNoteStatuses(params: { nullifiers: string[] }): Promise<NoteStatus[]> {
    this.guard();
    const { nullifiers } = parseParams(queryParams.noteStatuses, params);
    const slot = this.clock.current;
    return nullifiers.map((n) => this.queries.noteStatus(n, slot));
  }

  /** A signer's landed deposits, oldest first: how a wallet with only its seed finds its deposit notes. */
  async getDeposits(params: { owner: string; from?: number }): Promise<{ deposits: DepositRecord[] }> {
    this.guard();
    const { owner, from } = parseParams(queryParams.deposits, params);
    return { deposits: this.queries.deposits(owner, from ?? 0) };
  }

  /** Fill memos by global index, for clients recovering their notes from the ledger alone. */
  async getMemos(params: { from: number; to: number }): Promise<{ memos: MemoRecord[] }> {
    this.guard();
    if (params && typeof params === 'object' && 'signature' in params)
      throw new RpcError(RPC_ERRORS.invalidParams, 'getMemos takes {from, to}; use getMemosBySignature');
    const { from, to } = parseParams(queryParams.memos, params);
    return { memos: this.queries.memos(from, to) };
  }

  /** The memos stored with one settlement transaction. */
  async getMemosBySignature(params: { signature: string }): Promise<{ memos: MemoRecord[] }> {
    this.guard();
    const { signature } = parseParams(queryParams.memosBySignature, params);
    return { memos: this.queries.memosOf(signature) };
  }

  async getSolvency(params: Record<string, never> = {}): Promise<{ slot: number; mints: MintSolvency[] }> {
    this.guard();
    parseParams(queryParams.solvency, params);
    return { slot: this.clock.current, mints: this.queries.solvency() };
  }

  private readTx(signature: unknown): TransactionRecord | null {
    if (typeof signature !== 'string') return null;
    const row = this.stmts.tx.get(signature) as
      | { signature: string; slot: number; instruction: string; err: string | null; result: string | null }
      | undefined;
    if (!row) return null;
    const age = this.clock.current - row.slot;
    const confirmation_status: Commitment =
      age >= COMMITMENT_LAG.finalized
        ? 'finalized'
        : age >= COMMITMENT_LAG.confirmed
          ? 'confirmed'
          : 'processed';
    return {
      signature: row.signature,
      slot: row.slot,
      confirmation_status,
      err: row.err === null ? null : JSON.parse(row.err),
      instruction: row.instruction,
      result: row.result === null ? null : JSON.parse(row.result),
    };
  }

  /* ---------------- writes ---------------- */

  async requestAirdrop(params: {
    owner: string;
    mint: string;
    amount: string;
  }): Promise<{ signature: string }> {
    this.guard();
    if (!this.dev) throw new RpcError(RPC_ERRORS.notAllowed, 'requestAirdrop is only available in dev mode');
    if (!parseAddress(params.owner))
      throw new RpcError(RPC_ERRORS.invalidParams, 'owner must be a Base58 address');
    if (!this.state.mints.has(params.mint)) throw new RpcError(RPC_ERRORS.invalidParams, 'no such mint');
    if (params.owner === VAULT_ADDRESS)
      throw new RpcError(RPC_ERRORS.invalidParams, 'cannot airdrop to the vault');
    if (
      typeof params.amount !== 'string' ||
      !/^[1-9][0-9]{0,19}$/.test(params.amount) ||
      BigInt(params.amount) > U64_MAX
    ) {
      throw new RpcError(RPC_ERRORS.invalidParams, 'amount must be a positive u64 decimal string');
    }
    const signature = createHash('sha512')
      .update(`airdrop/${this.txSeq}/${params.owner}/${params.mint}/${params.amount}`)
      .digest('hex');
    await this.enqueue(() => {
      this.db.transaction(() => {
        this.state.mintTo(params.owner, params.mint, BigInt(params.amount));
        this.stmts.insertTx.run(signature, this.txSeq++, this.clock.current, 'faucet', 'airdrop', null, null);
      })();
    });
    return { signature };
  }

  /**
   * Accepts a signed transaction. It lands now, or later under injected latency; refused ones never
   * land. Resolves with the signature once accepted (not once landed).
   */
  async sendTransaction(params: { transaction: Transaction }): Promise<{ signature: string }> {
    this.guard();
    const tx = params.transaction;
    const shapeError = checkEnvelope(tx);
    if (shapeError) throw new RpcError(RPC_ERRORS.invalidParams, shapeError);
    if (!verifyTransactionSignature(tx))
      throw new RpcError(RPC_ERRORS.transactionRejected, 'signature does not verify');
    const last = this.stmts.nonce.get(tx.signer) as string | undefined;
    if (last !== undefined && BigInt(tx.nonce) <= BigInt(last))
      throw new RpcError(RPC_ERRORS.transactionRejected, 'nonce did not advance');
    if (this.readTx(tx.signature))
      throw new RpcError(RPC_ERRORS.transactionRejected, 'transaction already processed');
    if (this.faults.rejectRate > 0 && this.random() < this.faults.rejectRate) {
      throw new RpcError(RPC_ERRORS.transactionRejected, 'transaction rejected (injected)');
    }
    const drop = this.faults.dropRate > 0 && this.random() < this.faults.dropRate;
    const landAt = this.clock.current + this.faults.latencySlots;
    const landed = new Promise<void>((resolve) => this.pending.push({ tx, landAt, resolve }));
    this.landDue();
    if (this.faults.latencySlots === 0) await landed;
    if (drop)
      throw new RpcError(
        RPC_ERRORS.nodeTimeout,
        'no response from the node (injected drop); the transaction may have landed',
      );
    return { signature: tx.signature };
  }

  /** Runs `fn` after everything queued before it: the single writer. */
  private enqueue<T>(fn: () => T | Promise<T>): Promise<T> {
    const run = this.queue.then(fn);
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private landDue(): void {
    const due = this.pending.filter((p) => p.landAt <= this.clock.current);
    if (due.length === 0) return;
    this.pending = this.pending.filter((p) => p.landAt > this.clock.current);
    for (const p of due) void this.enqueue(() => this.land(p.tx)).finally(p.resolve);
  }

  private async land(tx: Transaction): Promise<void> {
    if (this.closed) return;
    // Re-check at landing time: delayed transactions may have been overtaken.
    const last = this.stmts.nonce.get(tx.signer) as string | undefined;
    if ((last !== undefined && BigInt(tx.nonce) <= BigInt(last)) || this.readTx(tx.signature)) return;
    const name = tx.instruction.name;
    let parsed: unknown;
    let failure: InstructionError | undefined;
    if (!isInstructionName(name)) failure = new InstructionError('UnknownInstruction');
    else {
      const r = parseBody(argCodecs[name] as Codec<unknown>, tx.instruction.args);
      if (r.ok) parsed = r.value;
      else failure = new InstructionError('InvalidArgs', r.message);
    }
    const proofs = failure ? [] : await checkProofs(this.verifier, name, parsed);
    const slot = this.clock.current;
    const ctx: ExecContext = {
      state: this.state,
      signer: tx.signer,
      slot,
      txSeq: this.txSeq,
      appends: new Map(),
      touchedMints: new Set(),
      memos: [],
      proofs,
    };
    let result: InstructionResult = null;
    const record = (err: InstructionError | undefined) => {
      this.stmts.setNonce.run(tx.signer, tx.nonce);
      this.stmts.insertTx.run(
        tx.signature,
        this.txSeq,
        slot,
        tx.signer,
        name,
        err ? JSON.stringify(err.toJSON()) : null,
        result ? JSON.stringify(result) : null,
      );
    };
    try {
      if (failure) throw failure;
      this.db.transaction(() => {
        result = (
          handlers[name as keyof typeof handlers] as (c: ExecContext, a: unknown) => InstructionResult
        )(ctx, parsed);
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
    this.afterCommit(name, ctx);
  }

  /** Applies what only memory holds once SQLite has committed: trees, caches, events. */
  private afterCommit(name: string, ctx: ExecContext): void {
    if (ADMIN_INSTRUCTIONS.has(name)) this.state.loadConfig();
    if (this.state.vault && !this.state.trees) this.state.initTrees(this.state.vault.num_trees);
    const trees = this.state.trees;
    if (!trees) return;
    for (const [treeId, leaves] of ctx.appends) {
      if (leaves.length === 0) continue;
      const first = trees.appendBatch(treeId, leaves);
      this.state.recordCheckpoint(treeId, ctx.slot, trees.size(treeId));
      this.leavesSinceSnapshot += leaves.length;
      const diverged = this.faults.divergedShards.includes(treeId);
      leaves.forEach((leaf, i) => {
        // Injected divergence: mirrors are told a different leaf than the chain holds.
        const told = diverged ? (leaf + 1n) % (1n << 253n) : leaf;
        this.emit({
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
    if (this.leavesSinceSnapshot >= this.snapshotEvery) {
      this.state.saveTreeSnapshot();
      this.leavesSinceSnapshot = 0;
    }
  }

  /* ---------------- slots, events, faults ---------------- */

  private onSlot(slot: number): void {
    this.stmts.saveSlot.run(String(slot));
    this.landDue();
    this.emit({ type: 'slot', slot });
  }

  private emit(event: LedgerEvent): void {
    this.events.emit('event', event);
  }

  subscribe(listener: (event: LedgerEvent) => void): () => void {
    this.events.on('event', listener);
    return () => this.events.off('event', listener);
  }

  /** Dev control: merges the given fields into the fault configuration. */
  async setFaults(faults: Partial<FaultConfig>): Promise<FaultConfig> {
    if (!this.dev) throw new RpcError(RPC_ERRORS.notAllowed, 'fault injection is only available in dev mode');
    this.faults = { ...this.faults, ...validateFaults(faults) };
    return { ...this.faults };
  }

  getFaults(): FaultConfig {
    return { ...this.faults };
  }

  /** Manual clock: moves `slots` slots forward and lands whatever became due. */
  async advanceSlots(params: { slots: number }): Promise<number> {
    if (this.closed) throw new RpcError(RPC_ERRORS.nodeUnavailable, 'ledger is closed');
    if (this.clock.mode !== 'manual') throw new RpcError(RPC_ERRORS.notAllowed, 'the clock is not manual');
    const slots = params.slots;
    if (!Number.isInteger(slots) || slots < 0 || slots > 100_000)
      throw new RpcError(RPC_ERRORS.invalidParams, 'slots must be an integer in 0..100000');
    this.clock.advance(slots);
    await this.enqueue(() => undefined);
    return this.clock.current;
  }

  /** Waits until every queued transaction has landed. */
  async idle(): Promise<void> {
    await this.enqueue(() => undefined);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.clock.stop();
    await this.enqueue(() => undefined);
    this.closed = true;
    for (const p of this.pending) p.resolve();
    this.pending = [];
    this.stmts.saveSlot.run(String(this.clock.current));
    this.state.saveTreeSnapshot();
    this.db.close();
    this.events.removeAllListeners();
  }
}

function treeRootAt(trees: NonNullable<ChainState['trees']>, treeId: number, size: number): bigint {
  return trees.shard(treeId).rootAt(size);
}

function checkEnvelope(tx: unknown): string | undefined {
  if (typeof tx !== 'object' || tx === null) return 'transaction must be an object';
  const t = tx as Record<string, unknown>;
  for (const key of Object.keys(t))
    if (!['signer', 'nonce', 'instruction', 'signature'].includes(key)) return `unknown field ${key}`;
  if (!parseAddress(t.signer)) return 'signer must be a Base58 address';
  if (typeof t.nonce !== 'string' || !/^(0|[1-9][0-9]{0,19})$/.test(t.nonce) || BigInt(t.nonce) > U64_MAX)
    return 'nonce must be a canonical u64 decimal string';
  if (typeof t.signature !== 'string' || !/^[0-9a-f]{128}$/.test(t.signature))
    return 'signature must be 128 lowercase hex characters';
  const ins = t.instruction as Record<string, unknown> | null;
  if (
    typeof ins !== 'object' ||
    ins === null ||
    typeof ins.name !== 'string' ||
    typeof ins.args !== 'object' ||
    ins.args === null ||
    Array.isArray(ins.args)
  ) {
    return 'instruction must be {name, args}';
  }
  return undefined;
}

function validateFaults(f: Partial<FaultConfig>): Partial<FaultConfig> {
  const rate = (v: unknown) => typeof v === 'number' && v >= 0 && v <= 1;
  if (typeof f !== 'object' || f === null)
    throw new RpcError(RPC_ERRORS.invalidParams, 'faults must be an object');
  const out: Partial<FaultConfig> = {};
  for (const [k, v] of Object.entries(f)) {
    if (k === 'rejectRate' || k === 'dropRate') {
      if (!rate(v)) throw new RpcError(RPC_ERRORS.invalidParams, `${k} must be a number in [0, 1]`);
      out[k] = v as number;
    } else if (k === 'latencySlots') {
      if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > 10_000)
        throw new RpcError(RPC_ERRORS.invalidParams, 'latencySlots must be an integer in 0..10000');
      out.latencySlots = v as number;
    } else if (k === 'outage') {
      if (typeof v !== 'boolean') throw new RpcError(RPC_ERRORS.invalidParams, 'outage must be a boolean');
      out.outage = v;
    } else if (k === 'divergedShards') {
      if (!Array.isArray(v) || v.length > 256 || !v.every((x) => Number.isInteger(x) && x >= 0 && x < 256)) {
        throw new RpcError(RPC_ERRORS.invalidParams, 'divergedShards must be an array of shard ids');
      }
      out.divergedShards = [...(v as number[])];
    } else throw new RpcError(RPC_ERRORS.invalidParams, `unknown fault ${k}`);
  }
  return out;
}
