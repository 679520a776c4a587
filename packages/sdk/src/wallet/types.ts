/** The wallet's records (notes, tracked orders, balances) and the part of it memo ingest writes to. */
import type { FillMemo } from '@nightjar/crypto';

/**
 * Where a note came from (`join_split`: an output of a split or merge; `withdrawal_change`: what a
 * withdrawal of part of a note left to the wallet).
 */
export type NoteOrigin = 'deposit' | 'trade' | 'change' | 'join_split' | 'withdrawal_change';

/** A note the wallet owns. Amounts are atomic units of `mint`. */
export interface WalletNote {
  /** Note commitment, 64 hex. */
  commitment: string;
  /** Mint, Base58. */
  mint: string;
  amount: bigint;
  /** note_inner_hash, 64 hex (secret). */
  inner: string;
  /** Nullifier, 64 hex (secret: only the owner can compute it). */
  nullifier: string;
  treeId: number;
  leafIndex: number | undefined;
  origin: NoteOrigin;
  /**
   * Last state read from the ledger (`free`, `locked`, `spent`; `unknown` before the first read),
   * or `spending`: this wallet saw it being consumed (a confirmed fill's memo, a withdrawal it
   * sent) and the ledger has not said so yet. Only the ledger (its spent-nullifier list, which the
   * wallet mirrors) makes a note `spent`; a `spending` note is offered to no order and is re-read
   * at every sync.
   */
  state: 'free' | 'locked' | 'spent' | 'unknown' | 'spending';
}

/** The wallet's view of one of its orders. */
export interface TrackedOrder {
  orderId: string;
  symbol: string;
  side: 'bid' | 'ask';
  /** The note backing it now (after a partial fill, the re-locked change note). */
  noteCommitment: string;
  /**
   * The spec's states: `pending` (resting, also after a partial fill: see `filledQuantity`),
   * `pending_settlement`, or a terminal one. (Older wallet files say `open` for `pending`; they load as `pending`.)
   */
  status: 'pending' | 'pending_settlement' | 'fully_filled' | 'cancelled' | 'expired' | 'settlement_failed';
  /** Base mint, quote mint of its market. */
  baseMint: string;
  quoteMint: string;
  filledQuantity: bigint;
  /** What its placer said of it that the venue never echoes (set with `wallet.setTicket`). */
  ticket?: OrderTicket;
}

/** An order's ticket as its placer gave it (amount and price as typed, in human units). */
export interface OrderTicket {
  type: 'limit' | 'ioc' | 'fok';
  amount: string;
  price: string;
  /** Unix ms. */
  createdAt: number;
  expiresAt?: number;
  clientRef?: string;
}

/** How the venue's settlement of a fill went (its batch job's stage, outcome and settle signature). */
export interface FillSettlement {
  batchId?: string;
  /** queued, locking_notes, proving, verifying, settling, closing, done, failed. */
  stage: string;
  outcome: 'pending' | 'settled' | 'failed';
  signature?: string;
}

/**
 * A fill of one of the wallet's orders: heard of from an order event or its memo, whichever came
 * first. The amounts (atomic units, as in `WalletFillEvent`) arrive with the memo.
 */
export interface TrackedFill {
  orderId: string;
  matchId: string;
  /** Unix ms when this wallet first heard of it. */
  time: number;
  size?: bigint;
  price?: bigint;
  fee?: bigint;
  settlement: FillSettlement;
}

/** Balances of one mint, in atomic units. */
export interface MintBalance {
  /** Free notes not backing a live order. */
  available: bigint;
  /** Notes backing live (resting) orders. */
  locked: bigint;
  /** Notes locked on the ledger while a match settles. (A `spending` note counts nowhere.) */
  pendingSettlement: bigint;
  /** Notes whose leaf is not in the tree yet (a deposit that has not landed): not spendable. */
  pending: bigint;
}

/** What ingesting a memo did. */
export type MemoIngestResult =
  /** Stored: its outputs (`notes`) and the note it consumed (now `spending`). */
  | { status: 'stored'; memo: FillMemo; notes: WalletNote[]; consumed: WalletNote }
  | { status: 'duplicate' }
  | { status: 'not_ours' }
  /** Decrypted, but an output commitment is not (yet) among the known leaves: not stored. */
  | { status: 'unverified'; memo: FillMemo }
  /** Decrypted, but its outputs derive from no note of this wallet (or are malformed): ignored. */
  | { status: 'orphan'; memo: FillMemo };

/** What memo ingest reads and writes of the wallet (the `Wallet` is one). */
export interface NoteBook {
  readonly notes: Map<string, WalletNote>;
  readonly orders: Map<string, TrackedOrder>;
  /** Commitments of the tree's leaves: `commitment → {treeId, leafIndex}`. */
  readonly leaves: Map<string, { treeId: number; leafIndex: number }>;
  noteFor(mint: string, amount: bigint, inner: bigint, treeId: number, origin: NoteOrigin): WalletNote;
  addNote(note: WalletNote): void;
  parentOf(inner: bigint): WalletNote | undefined;
  isLive(order: TrackedOrder): boolean;
}
