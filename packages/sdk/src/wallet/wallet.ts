/**
 * The wallet: keys from one seed, and a note store derived from the tree plus those keys. It
 * holds no balance the venue told it (the venue never tells): every note in it was either
 * deposited by this wallet or recomputed from a fill memo and found among the tree's leaves.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { deriveNote, openingHash } from '@nightjar/crypto';
import { bytesToHex, ensurePrivateDir, fieldToHex, hexToBytes, parseAddress } from '@nightjar/protocol';
import { ingestFill } from './ingest-fill.js';
import { ingestSplit, type NoteMemoIngestResult } from './ingest-split.js';
import { MemoDecryptor } from './memo-decryptor.js';
import { ParentIndex } from './memo-outputs.js';
import { isLiveStatus } from './order-status.js';
import { deriveWalletKeys, depositNoteInner, type WalletKeys } from './keys.js';
import { DEFAULT_SCRYPT, readText, WalletSealer, writeFileAtomic, type ScryptParams } from './keystore.js';
import type {
  MemoIngestResult,
  MintBalance,
  NoteBook,
  NoteOrigin,
  OrderTicket,
  TrackedFill,
  TrackedOrder,
  WalletNote,
} from './types.js';
import { WalletEmitter, type WalletEventName, type WalletListener } from './events.js';
import { fillEvent } from './fill-amounts.js';
import { fillKey, loadFill, newFill, recordAmounts, saveFill, type SavedFill } from './tracked-fills.js';
import { type NoteNotFreeReason } from '../core/errors/index.js';

export type { MemoIngestResult, MintBalance, NoteOrigin, TrackedOrder, WalletNote } from './types.js';
export type { FillSettlement, OrderTicket, TrackedFill } from './types.js';
export { fillKey } from './tracked-fills.js';
export type { NoteMemoIngestResult } from './ingest-split.js';

/** The wallet file's state format: 2 since only the ledger marks a note `spent`. */
const STATE_VERSION = 2;

interface Saved {
  version?: number;
  seed: string;
  depositCount: number;
  notes: (Omit<WalletNote, 'amount'> & { amount: string })[];
  /** `status` was `open` where it is `pending` now, in files written before issue 32. */
  orders: (Omit<TrackedOrder, 'filledQuantity' | 'status'> & {
    filledQuantity: string;
    status: TrackedOrder['status'] | 'open';
  })[];
  memos: string[];
  memoCursor: number;
  /** Absent in files written before the wallet kept its fills. */
  fills?: SavedFill[];
}

/** Options of `createWallet`. */
export interface CreateWalletParameters {
  /** 32+ byte seed; a fresh random one when omitted. */
  seed?: Uint8Array;
  /** Encrypted wallet file; the wallet saves itself there after every change. */
  path?: string;
  /** Password of the wallet file (required with `path`). */
  password?: string;
  /** scrypt cost (tests lower it). */
  scrypt?: ScryptParams;
}

/** A wallet: keys from one seed, notes, tracked orders; saved encrypted when it has a file. Create it with `createWallet`. */
export class Wallet implements NoteBook {
  readonly keys: WalletKeys;
  /** Deposits made so far (the next deposit uses this index). */
  depositCount = 0;
  /** Global memo index up to which the ledger's memos were scanned. */
  memoCursor = 0;
  readonly notes = new Map<string, WalletNote>();
  readonly orders = new Map<string, TrackedOrder>();
  /** Fills of the tracked orders by `fillKey(orderId, matchId)`. */
  readonly fills = new Map<string, TrackedFill>();
  /** Memos already stored (hex), so a memo seen on the stream and on the ledger counts once. */
  readonly memos = new Set<string>();
  /** Commitments of the tree's leaves: `commitment → {treeId, leafIndex}`. */
  readonly leaves = new Map<string, { treeId: number; leafIndex: number }>();
  /** Leaves known per shard (the next leaf index to read). */
  readonly leafCounts = new Map<number, number>();
  /** Notes promised to an order being placed (not yet tracked). */
  readonly reserved = new Set<string>();
  private readonly decryptor: MemoDecryptor;
  private readonly events = new WalletEmitter();
  private readonly parents = new ParentIndex();

  constructor(
    readonly seed: Uint8Array,
    private readonly file?: { path: string; sealer: WalletSealer },
  ) {
    this.keys = deriveWalletKeys(seed);
    this.decryptor = new MemoDecryptor(this.keys.viewingPrivateKey, this.keys.viewingPublicKey);
  }

  /** The owner commitment of every note of this wallet, 64 hex. */
  get ownerCommitment(): string {
    return fieldToHex(this.keys.ownerCommitment);
  }

  /** The viewing public key, 64 hex. */
  get viewingPublicKey(): string {
    return bytesToHex(this.keys.viewingPublicKey);
  }

  /** The note a deposit of `amount` of `mint` creates with deposit index `index`. */
  depositNote(
    index: number,
    mint: string,
    amount: bigint,
    treeId = 0,
  ): { note: WalletNote; openingHash: string } {
    const inner = depositNoteInner(this.seed, index);
    return {
      note: this.noteFor(mint, amount, inner, treeId, 'deposit'),
      openingHash: fieldToHex(openingHash(this.keys.ownerCommitment, inner)),
    };
  }

  /** Builds the wallet's note for an opening (commitment, nullifier recomputed from the keys). */
  noteFor(mint: string, amount: bigint, inner: bigint, treeId: number, origin: NoteOrigin): WalletNote {
    const mintBytes = parseAddress(mint);
    if (!mintBytes) throw new RangeError(`not a Base58 mint: ${mint}`);
    const d = deriveNote({
      mint: mintBytes,
      amount,
      ownerCommitment: this.keys.ownerCommitment,
      noteInnerHash: inner,
    });
    const commitment = fieldToHex(d.noteCommitment);
    return {
      commitment,
      mint,
      amount,
      inner: fieldToHex(inner),
      nullifier: fieldToHex(d.nullifier),
      treeId,
      leafIndex: this.leaves.get(commitment)?.leafIndex,
      origin,
      state: 'unknown',
    };
  }

  /** Records the leaves `[from, from + values.length)` of shard `treeId`. */
  addLeaves(treeId: number, from: number, values: readonly string[]): void {
    values.forEach((v, i) => this.leaves.set(v, { treeId, leafIndex: from + i }));
    const count = from + values.length;
    if (count > (this.leafCounts.get(treeId) ?? 0)) this.leafCounts.set(treeId, count);
    for (const n of this.notes.values()) {
      if (n.leafIndex === undefined) n.leafIndex = this.leaves.get(n.commitment)?.leafIndex;
    }
  }

  /** Stores a note (idempotent). */
  addNote(note: WalletNote): void {
    if (this.notes.has(note.commitment)) return;
    this.notes.set(note.commitment, note);
    this.events.emit('note-stored', { note });
  }

  /** Calls `listener` on each `name` event (see wallet/events.ts); returns the unsubscribe. */
  on<K extends WalletEventName>(name: K, listener: WalletListener<K>): () => void {
    return this.events.on(name, listener);
  }

  off<K extends WalletEventName>(name: K, listener: WalletListener<K>): void {
    this.events.off(name, listener);
  }

  /**
   * Decrypts a fill memo and stores its outputs (see `ingestFill`). `mints` are the candidate
   * mints of a trade-out when the order is not tracked (a wallet recovered from its seed).
   */
  ingestMemo(memoHex: string, mints: readonly string[]): MemoIngestResult {
    const key = memoHex.toLowerCase();
    if (this.memos.has(key)) return { status: 'duplicate' };
    const memo = this.decryptor.open(hexToBytes(key));
    if (!memo) return { status: 'not_ours' };
    const r = ingestFill(this, memo, mints);
    if (r.status !== 'stored') return r;
    this.memos.add(key);
    const order = this.orders.get(bytesToHex(memo.orderId));
    if (order) {
      const event = fillEvent(order, memo, r.consumed, r.notes);
      recordAmounts(this.trackFill(event.orderId, event.matchId), event);
      this.events.emit('fill', event);
    }
    return r;
  }

  /**
   * Decrypts a note memo (`getMemos` kind `note`: a join-split's, or a withdrawal's change) and
   * stores its outputs once each is a known leaf (see `ingestSplit`).
   */
  ingestNoteMemo(memoHex: string): NoteMemoIngestResult {
    const key = memoHex.toLowerCase();
    if (this.memos.has(key)) return { status: 'duplicate' };
    const memo = this.decryptor.openNote(hexToBytes(key));
    if (!memo) return { status: 'not_ours' };
    const r = ingestSplit(this, memo);
    if (r.status === 'stored') this.memos.add(key);
    return r;
  }

  /** The note of this wallet a memo output's `inner` derives from (DESIGN 3), if any. */
  parentOf(inner: bigint): WalletNote | undefined {
    const c = this.parents.find(inner, this.notes.values());
    return c === undefined ? undefined : this.notes.get(c);
  }

  /** Starts tracking an order this wallet placed. */
  trackOrder(order: TrackedOrder): void {
    this.orders.set(order.orderId, order);
    this.events.emit('order', { order, previous: undefined });
  }

  /** Keeps what the placer said of a tracked order (the venue never echoes it); false when untracked. */
  setTicket(orderId: string, ticket: OrderTicket): boolean {
    const order = this.orders.get(orderId);
    if (order) order.ticket = ticket;
    return order !== undefined;
  }

  /** The fill of `orderId`'s match `matchId`, recorded (settlement pending) when first heard of. */
  trackFill(orderId: string, matchId: string, time = Date.now()): TrackedFill {
    const key = fillKey(orderId, matchId);
    let fill = this.fills.get(key);
    if (!fill) this.fills.set(key, (fill = newFill(orderId, matchId, time)));
    return fill;
  }

  /** Runs `change` on a tracked order and tells an `order` event if its status or fill changed. */
  updateOrder(order: TrackedOrder, change: (order: TrackedOrder) => void): void {
    const previous = { status: order.status, filledQuantity: order.filledQuantity };
    change(order);
    if (order.status !== previous.status || order.filledQuantity !== previous.filledQuantity)
      this.events.emit('order', { order, previous });
  }

  /** Whether a tracked order is still live (resting or settling). */
  isLive(order: TrackedOrder): boolean {
    return isLiveStatus(order.status);
  }

  /** Unspent notes of this wallet. */
  unspentNotes(): WalletNote[] {
    return [...this.notes.values()].filter((n) => n.state !== 'spent');
  }

  /** The live order a note backs, if any. */
  orderBacking(commitment: string): TrackedOrder | undefined {
    for (const o of this.orders.values())
      if (isLiveStatus(o.status) && o.noteCommitment === commitment) return o;
    return undefined;
  }

  /** Balances per mint, from the notes and the last known note states and order states. */
  balances(): Record<string, MintBalance> {
    const out: Record<string, MintBalance> = {};
    for (const n of this.unspentNotes()) {
      const b = (out[n.mint] ??= { available: 0n, locked: 0n, pendingSettlement: 0n, pending: 0n });
      const order = this.orderBacking(n.commitment);
      if (order) {
        if (order.status === 'pending_settlement') b.pendingSettlement += n.amount;
        else b.locked += n.amount;
      } else if (n.state === 'spending')
        continue; // its value is in the outputs (or leaving)
      else if (n.leafIndex === undefined) b.pending += n.amount;
      else if (n.state === 'locked') b.pendingSettlement += n.amount;
      else b.available += n.amount;
    }
    return out;
  }

  /**
   * Free notes of `mint` (in the tree, not locked or being consumed) no live order holds, smallest
   * first. `replacing`: the note of that order counts as free (a modify reuses it).
   */
  freeNotes(mint: string, options: { replacing?: string } = {}): WalletNote[] {
    const held = (c: string) => {
      const o = this.orderBacking(c);
      return o !== undefined && o.orderId !== options.replacing;
    };
    return this.unspentNotes()
      .filter(
        (n) =>
          n.mint === mint &&
          n.state !== 'locked' &&
          n.state !== 'spending' &&
          n.leafIndex !== undefined &&
          !this.reserved.has(n.commitment) &&
          !held(n.commitment),
      )
      .sort((a, b) => (a.amount < b.amount ? -1 : a.amount > b.amount ? 1 : 0));
  }

  /**
   * Why the note `commitment` of `mint` is not among `freeNotes(mint)`, or undefined when it is.
   * The same rules, one reason each (the first that applies).
   */
  notFreeReason(commitment: string, mint: string): NoteNotFreeReason | undefined {
    const n = this.notes.get(commitment);
    if (!n || n.mint !== mint) return 'unknown';
    if (n.state === 'spent' || n.state === 'spending') return 'spent';
    if (this.orderBacking(commitment)) return 'order';
    if (n.state === 'locked') return 'locked';
    if (this.reserved.has(commitment)) return 'reserved';
    if (n.leafIndex === undefined) return 'pending';
    return undefined;
  }

  /** Saves the wallet file (a no-op for a wallet without one). */
  save(): void {
    if (!this.file) return;
    const saved: Saved = {
      version: STATE_VERSION,
      seed: bytesToHex(this.seed),
      depositCount: this.depositCount,
      notes: [...this.notes.values()].map((n) => ({ ...n, amount: n.amount.toString() })),
      orders: [...this.orders.values()].map((o) => ({ ...o, filledQuantity: o.filledQuantity.toString() })),
      memos: [...this.memos],
      memoCursor: this.memoCursor,
      fills: [...this.fills.values()].map(saveFill),
    };
    writeFileAtomic(this.file.path, this.file.sealer.seal(JSON.stringify(saved)));
  }

  /** Restores the saved state (notes, orders, counters) from plain JSON. */
  private load(saved: Saved): void {
    this.depositCount = saved.depositCount;
    this.memoCursor = saved.memoCursor;
    // Files of version 1 marked notes spent on hearsay (a memo, an unlanded withdrawal): the
    // ledger decides again at the next sync.
    const hearsay = (saved.version ?? 1) < STATE_VERSION;
    for (const n of saved.notes) {
      const state = hearsay && n.state === 'spent' ? 'spending' : n.state;
      this.notes.set(n.commitment, { ...n, state, amount: BigInt(n.amount) });
    }
    for (const o of saved.orders) {
      const status = o.status === 'open' ? 'pending' : o.status;
      this.orders.set(o.orderId, { ...o, status, filledQuantity: BigInt(o.filledQuantity) });
    }
    for (const m of saved.memos) this.memos.add(m);
    for (const f of saved.fills ?? []) this.fills.set(fillKey(f.orderId, f.matchId), loadFill(f));
  }

  /** Opens an encrypted wallet file. */
  static open(path: string, password: string, scrypt: ScryptParams = DEFAULT_SCRYPT): Wallet {
    ensurePrivateDir(dirname(path));
    const sealer = new WalletSealer(password, scrypt);
    const saved = JSON.parse(sealer.unseal(readText(path))) as Saved;
    const w = new Wallet(hexToBytes(saved.seed), { path, sealer });
    w.load(saved);
    return w;
  }
}

/**
 * Creates a wallet (from `seed`, or a fresh random seed), or opens the encrypted file at `path`
 * when it exists. With `path`, the wallet saves itself there.
 */
export function createWallet(params: CreateWalletParameters = {}): Wallet {
  const scrypt = params.scrypt ?? DEFAULT_SCRYPT;
  if (params.path) {
    if (params.password === undefined) throw new RangeError('a wallet file needs a password');
    // Never adopt a directory (or a wallet in it) another user could have planted.
    ensurePrivateDir(dirname(params.path));
    if (existsSync(params.path)) return Wallet.open(params.path, params.password, scrypt);
  }
  const seed = params.seed ?? Uint8Array.from(randomBytes(32));
  const w = new Wallet(
    seed,
    params.path ? { path: params.path, sealer: new WalletSealer(params.password!, scrypt) } : undefined,
  );
  w.save();
  return w;
}
