/**
 * The reads whose cost grows with what they return (pages of leaves, memos, deposits, a block, many
 * note states): the SQL behind them, with every parameter already checked by the caller
 * (ledger-reads.ts). `InThreadReads` runs them on the calling thread; a served ledger runs the same
 * code on its reader thread (reader-thread.ts) so that they never hold the writer's event loop.
 */
import { ChainState } from './chain-state.js';
import { LedgerQueries } from './queries.js';
import type { Db } from './store.js';
import type {
  BlockTransaction,
  DepositRecord,
  LeafRecord,
  MemoRecord,
  NoteStatus,
} from '@nightjar/protocol/ledger-client';

export interface HeavyReads {
  leaves(treeId: number, from: number, to: number): Promise<LeafRecord[]>;
  memos(from: number, to: number): Promise<MemoRecord[]>;
  deposits(owner: string, from: number): Promise<DepositRecord[]>;
  /** Signed transactions landed in `slot`, as sent, in landing order. */
  block(slot: number): Promise<BlockTransaction[]>;
  noteStatuses(nullifiers: readonly string[], slot: number): Promise<NoteStatus[]>;
}

export type HeavyReadName = keyof HeavyReads;

/** The heavy reads against `db` on this thread; `served` counts them. */
export class InThreadReads implements HeavyReads {
  served = 0;
  private readonly queries: LedgerQueries;
  private readonly state: ChainState;
  private readonly blockRows;

  constructor(db: Db, memosPerRead: number | undefined) {
    // Only ChainState's and LedgerQueries' reads are used: the statements work on a read-only connection.
    this.state = new ChainState(db);
    this.queries = new LedgerQueries(db, this.state, memosPerRead);
    // Signed transactions only (faucet credits have no body).
    this.blockRows = db.prepare(
      'SELECT signature, signer, nonce, body, err FROM transactions WHERE slot = ? AND body IS NOT NULL ORDER BY seq',
    );
  }

  async leaves(treeId: number, from: number, to: number): Promise<LeafRecord[]> {
    this.served++;
    return this.state
      .leafRows(treeId, from, to)
      .map((r) => ({ leaf_index: r.leaf_index, value: r.commitment }));
  }

  async memos(from: number, to: number): Promise<MemoRecord[]> {
    this.served++;
    return this.queries.memos(from, to);
  }

  async deposits(owner: string, from: number): Promise<DepositRecord[]> {
    this.served++;
    return this.queries.deposits(owner, from);
  }

  async block(slot: number): Promise<BlockTransaction[]> {
    this.served++;
    const rows = this.blockRows.all(slot) as {
      signature: string;
      signer: string;
      nonce: string;
      body: string;
      err: string | null;
    }[];
    return rows.map((r) => ({
      signature: r.signature,
      signer: r.signer,
      nonce: r.nonce,
      instruction: JSON.parse(r.body) as BlockTransaction['instruction'],
      err: r.err === null ? null : (JSON.parse(r.err) as BlockTransaction['err']),
    }));
  }

  async noteStatuses(nullifiers: readonly string[], slot: number): Promise<NoteStatus[]> {
    this.served++;
    return nullifiers.map((n) => this.queries.noteStatus(n, slot));
  }
}
