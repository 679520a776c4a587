/**
 * Reads a client makes about notes and settlements: note state by nullifier, fill memos by global
 * index, and per-mint solvency. Their parameters are parsed first with the method table's codecs
 * (methods.ts in @nightjar/protocol/ledger-client), so a bad one is JSON-RPC invalid params (-32602), never a lookup miss.
 */
import {
  VAULT_ADDRESS,
  MAX_DEPOSITS_PER_READ,
  MAX_MEMOS_PER_READ,
  MAX_NOTE_STATES_PER_READ,
  type DepositRecord,
  type MemoRecord,
  type MintSolvency,
  type NoteStatus,
} from '@nightjar/protocol/ledger-client';
import type { ChainState } from './chain-state.js';
import type { Db } from './store.js';

export class LedgerQueries {
  private readonly stmts;

  constructor(
    db: Db,
    private readonly state: ChainState,
    private readonly memosPerRead = MAX_MEMOS_PER_READ,
  ) {
    // A memo's kind follows from the instruction that stored it: a settlement's fill memos, or the
    // note memo of a join-split or of a withdrawal's change.
    const memoColumns =
      'm.idx AS "index", m.signature, m.match_idx, m.party, m.memo, ' +
      "CASE WHEN t.instruction IN ('join_split', 'withdraw') THEN 'note' ELSE 'fill' END AS kind " +
      'FROM memos m JOIN transactions t ON t.signature = m.signature';
    this.stmts = {
      memoRange: db.prepare(`SELECT ${memoColumns} WHERE m.idx >= ? AND m.idx < ? ORDER BY m.idx`),
      memosOf: db.prepare(`SELECT ${memoColumns} WHERE m.signature = ? ORDER BY m.idx`),
      // A deposit creates exactly one note, recorded with its transaction's seq.
      depositsOf: db.prepare(
        'SELECT t.signature, t.slot, n.tree_id, n.leaf_index, n.mint, n.amount, n.commitment AS note_commitment ' +
          "FROM transactions t JOIN notes n ON n.tx_seq = t.seq WHERE t.signer = ? AND t.instruction = 'deposit' " +
          'AND t.err IS NULL ORDER BY t.seq LIMIT ? OFFSET ?',
      ),
      // Paged by rowid: storage order, so a reader that keeps its cursor never misses a later row.
      spentFrom: db.prepare(
        'SELECT rowid, nullifier FROM nullifiers WHERE rowid >= ? ORDER BY rowid LIMIT ?',
      ),
      liveLocksFrom: db.prepare(
        'SELECT rowid, nullifier, until_slot FROM locks WHERE rowid >= ? AND until_slot > ? ORDER BY rowid LIMIT ?',
      ),
    };
  }

  noteStatus(nullifier: string, slot: number): NoteStatus {
    return this.state.noteStatus(nullifier, slot);
  }

  /** Half-open [from, to) (from <= to), cut to its first `memosPerRead` indices (like getLeaves). */
  memos(from: number, to: number): MemoRecord[] {
    return this.stmts.memoRange.all(from, Math.min(to, from + this.memosPerRead)) as MemoRecord[];
  }

  /**
   * The deposits `owner` signed that landed, oldest first, from the `from`-th on (at most
   * {@link MAX_DEPOSITS_PER_READ}). Public facts (the token transfer shows owner, mint and amount;
   * the commitment is a leaf): a wallet that kept only its seed finds its deposit notes here.
   */
  deposits(owner: string, from: number): DepositRecord[] {
    return this.stmts.depositsOf.all(owner, MAX_DEPOSITS_PER_READ, from) as DepositRecord[];
  }

  /**
   * Spent nullifiers in storage order from cursor `from` (at most {@link MAX_NOTE_STATES_PER_READ}),
   * and the cursor of the next page: how a mirror of the nullifier set is built and caught up.
   */
  spentNullifiers(from: number): { nullifiers: string[]; next: number } {
    const rows = this.stmts.spentFrom.all(from, MAX_NOTE_STATES_PER_READ) as {
      rowid: number;
      nullifier: string;
    }[];
    return { nullifiers: rows.map((r) => r.nullifier), next: rows.length ? rows.at(-1)!.rowid + 1 : from };
  }

  /** Locks still holding at `slot`, paged like {@link spentNullifiers}. */
  liveLocks(
    from: number,
    slot: number,
  ): { locks: { nullifier: string; until_slot: number }[]; next: number } {
    const rows = this.stmts.liveLocksFrom.all(from, slot, MAX_NOTE_STATES_PER_READ) as {
      rowid: number;
      nullifier: string;
      until_slot: number;
    }[];
    return {
      locks: rows.map((r) => ({ nullifier: r.nullifier, until_slot: r.until_slot })),
      next: rows.length ? rows.at(-1)!.rowid + 1 : from,
    };
  }

  memosOf(signature: string): MemoRecord[] {
    return this.stmts.memosOf.all(signature) as MemoRecord[];
  }

  /** Every mint, sorted by address: the token side and the note side of the invariant. */
  solvency(): MintSolvency[] {
    return [...this.state.mints.keys()].sort().map((mint) => ({
      mint,
      vault_balance: this.state.balance(VAULT_ADDRESS, mint).toString(),
      outstanding_note_value: this.state.unspentValue(mint).toString(),
    }));
  }
}
