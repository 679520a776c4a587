/**
 * The ledger's reads: every `get*` method of the LedgerClient interface, answered from the state at
 * the requested commitment level. The in-process `Ledger` extends this with the writer.
 */
import { parseAddress } from '@nightjar/protocol';
import {
  signerSetSha256,
  RPC_ERRORS,
  RpcError,
  LEDGER_METHODS as M,
  parseParams,
  type ParamsOf,
  type ResultOf,
  COMMITMENT_LAG,
  COMMITMENTS,
  type ChainInfo,
  type Commitment,
  type TransactionRecord,
} from '@nightjar/protocol/ledger-client';
import { ChainState } from './chain-state.js';
import type { SlotClock } from './clock.js';
import type { InjectedFaults } from './faults.js';
import { InThreadReads, type HeavyReads } from './heavy-reads.js';
import { LedgerQueries } from './queries.js';
import { RootWindows } from './root-window.js';
import type { Db } from './store.js';

/**
 * The ledger's getLeaves page (DESIGN.md's 10,000 is the venue's /tree/leaves page): smaller, so
 * one read holds a reader for less; clients page by the leaves they got.
 */
export const MAX_LEAVES_PER_READ = 2_048;
const MAX_SIGNATURES_PER_READ = 256;

export class LedgerReads {
  protected closed = false;
  protected readonly queries: LedgerQueries;
  private readonly rootWindows: RootWindows;
  private readonly readStmts;
  private readonly leavesPerRead: number;
  /** The heavy reads on this thread; heavyReads() may serve them from a reader thread instead. */
  protected readonly inThreadReads: InThreadReads;

  protected constructor(
    protected readonly db: Db,
    protected readonly state: ChainState,
    readonly clock: SlotClock,
    protected readonly faults: InjectedFaults,
    pageCaps: { memos: number | undefined; leaves: number | undefined },
    /** The chain id (fixed at genesis) and the work asked of fresh signers. */
    protected readonly chain: ChainInfo,
  ) {
    const memosPerRead = pageCaps.memos;
    this.leavesPerRead = pageCaps.leaves ?? MAX_LEAVES_PER_READ;
    this.queries = new LedgerQueries(db, state, memosPerRead);
    this.rootWindows = new RootWindows(db);
    this.inThreadReads = new InThreadReads(db, memosPerRead);
    this.readStmts = {
      nonce: db.prepare('SELECT nonce FROM nonces WHERE signer = ?').pluck(),
      tx: db.prepare(
        'SELECT signature, slot, instruction, err, result FROM transactions WHERE signature = ?',
      ),
    };
  }

  /** Where the heavy reads run: this thread here; Ledger hands them to its reader thread if it has one. */
  protected heavyReads(): HeavyReads {
    return this.inThreadReads;
  }

  protected guard(): void {
    if (this.closed) throw new RpcError(RPC_ERRORS.nodeUnavailable, 'ledger is closed');
    if (this.faults.outage)
      throw new RpcError(RPC_ERRORS.nodeUnavailable, 'ledger unavailable (injected outage)');
  }

  protected slotAt(commitment: Commitment | undefined): number {
    return Math.max(0, this.clock.current - COMMITMENT_LAG[commitment ?? 'processed']);
  }

  /** The last nonce that landed for `signer`. */
  protected lastNonce(signer: string): string | undefined {
    return this.readStmts.nonce.get(signer) as string | undefined;
  }

  /** The tree shard `treeId`, or invalid params. */
  protected requireTreeId(treeId: unknown): NonNullable<ChainState['trees']> {
    const trees = this.state.trees;
    if (!trees || !Number.isInteger(treeId) || (treeId as number) < 0 || (treeId as number) >= trees.numTrees)
      throw new RpcError(RPC_ERRORS.invalidParams, 'no such tree_id');
    return trees;
  }

  async getSlot(params: ParamsOf<'getSlot'> = {}): Promise<ResultOf<'getSlot'>> {
    this.guard();
    return this.slotAt(params.commitment);
  }

  /** What a signer needs to sign for this chain; answered before the vault exists (genesis signs too). */
  async getChain(): Promise<ResultOf<'getChain'>> {
    this.guard();
    return { ...this.chain };
  }

  async getVault(params: ParamsOf<'getVault'> = {}): Promise<ResultOf<'getVault'>> {
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
      ...this.chain,
    };
  }

  async getMarkets(): Promise<ResultOf<'getMarkets'>> {
    this.guard();
    return [...this.state.markets.values()].map((m) => ({ ...m }));
  }

  async getTreeRoot(params: ParamsOf<'getTreeRoot'>): Promise<ResultOf<'getTreeRoot'>> {
    this.guard();
    const shard = this.requireTreeId(params.tree_id).shard(params.tree_id);
    const commitment = params.commitment ?? 'processed';
    const size = this.state.sizeAt(params.tree_id, this.clock.current, commitment);
    return {
      tree_id: params.tree_id,
      merkle_root: ChainState.hexOf(size === shard.size ? shard.root : shard.rootAt(size)),
      leaf_count: size,
      slot: this.slotAt(commitment),
    };
  }

  /**
   * The shard's roots of the last ROOT_WINDOW_SLOTS slots at `commitment` (root-window.ts): oldest
   * first, ending with that level's root.
   */
  async getRootWindow(params: ParamsOf<'getRootWindow'>): Promise<ResultOf<'getRootWindow'>> {
    this.guard();
    const shard = this.requireTreeId(params.tree_id).shard(params.tree_id);
    const commitment = params.commitment ?? 'processed';
    if (!COMMITMENTS.includes(commitment))
      throw new RpcError(RPC_ERRORS.invalidParams, 'commitment must be processed, confirmed or finalized');
    const size = this.state.sizeAt(params.tree_id, this.clock.current, commitment);
    return { tree_id: params.tree_id, roots: this.rootWindows.at(shard, size, this.slotAt(commitment)) };
  }

  async getLeaves(params: ParamsOf<'getLeaves'>): Promise<ResultOf<'getLeaves'>> {
    this.guard();
    const { tree_id, from, to } = params;
    this.requireTreeId(tree_id);
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to < from) {
      throw new RpcError(RPC_ERRORS.invalidParams, 'from and to must be integers with 0 <= from <= to');
    }
    const end = Math.min(to, from + this.leavesPerRead);
    return { leaves: await this.heavyReads().leaves(tree_id, from, end) };
  }

  async getBalance(params: ParamsOf<'getBalance'>): Promise<ResultOf<'getBalance'>> {
    this.guard();
    if (!parseAddress(params.owner) || !parseAddress(params.mint))
      throw new RpcError(RPC_ERRORS.invalidParams, 'owner and mint must be Base58 addresses');
    return this.state.balance(params.owner, params.mint).toString();
  }

  async getNonce(params: ParamsOf<'getNonce'>): Promise<ResultOf<'getNonce'>> {
    this.guard();
    return this.lastNonce(params.signer) ?? null;
  }

  async getSignatureStatuses(
    params: ParamsOf<'getSignatureStatuses'>,
  ): Promise<ResultOf<'getSignatureStatuses'>> {
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

  async getTransaction(params: ParamsOf<'getTransaction'>): Promise<ResultOf<'getTransaction'>> {
    this.guard();
    return this.readTx(params.signature);
  }

  async getNoteStatus(params: ParamsOf<'getNoteStatus'>): Promise<ResultOf<'getNoteStatus'>> {
    this.guard();
    const { nullifier } = parseParams(M.getNoteStatus.params, params);
    const [status] = await this.heavyReads().noteStatuses([nullifier], this.clock.current);
    return status!;
  }

  async getNoteStatuses(params: ParamsOf<'getNoteStatuses'>): Promise<ResultOf<'getNoteStatuses'>> {
    this.guard();
    const { nullifiers } = parseParams(M.getNoteStatuses.params, params);
    return this.heavyReads().noteStatuses(nullifiers, this.clock.current);
  }

  async getSpentNullifiers(params: ParamsOf<'getSpentNullifiers'>): Promise<ResultOf<'getSpentNullifiers'>> {
    this.guard();
    const { from } = parseParams(M.getSpentNullifiers.params, params);
    return this.queries.spentNullifiers(from);
  }

  async getLiveLocks(params: ParamsOf<'getLiveLocks'>): Promise<ResultOf<'getLiveLocks'>> {
    this.guard();
    const { from } = parseParams(M.getLiveLocks.params, params);
    return this.queries.liveLocks(from, this.clock.current);
  }

  /** A signer's landed deposits, oldest first: how a wallet with only its seed finds its deposit notes. */
  async getDeposits(params: ParamsOf<'getDeposits'>): Promise<ResultOf<'getDeposits'>> {
    this.guard();
    const { owner, from } = parseParams(M.getDeposits.params, params);
    return { deposits: await this.heavyReads().deposits(owner, from ?? 0) };
  }

  /** Fill memos by global index, for clients recovering their notes from the ledger alone. */
  async getMemos(params: ParamsOf<'getMemos'>): Promise<ResultOf<'getMemos'>> {
    this.guard();
    const { from, to } = parseParams(M.getMemos.params, params);
    if (to < from) throw new RpcError(RPC_ERRORS.invalidParams, 'from must not exceed to');
    return { memos: await this.heavyReads().memos(from, to) };
  }

  /** The memos stored with one settlement transaction. */
  async getMemosBySignature(
    params: ParamsOf<'getMemosBySignature'>,
  ): Promise<ResultOf<'getMemosBySignature'>> {
    this.guard();
    const { signature } = parseParams(M.getMemosBySignature.params, params);
    return { memos: this.queries.memosOf(signature) };
  }

  async getSolvency(params: ParamsOf<'getSolvency'> = {}): Promise<ResultOf<'getSolvency'>> {
    this.guard();
    parseParams(M.getSolvency.params, params);
    return { slot: this.clock.current, mints: this.queries.solvency() };
  }

  /** Every transaction that landed in a finalized slot, as sent, in landing order. */
  async getBlock(params: ParamsOf<'getBlock'>): Promise<ResultOf<'getBlock'>> {
    this.guard();
    const { slot } = parseParams(M.getBlock.params, params);
    const finalized = this.slotAt('finalized');
    if (slot > finalized || this.clock.current < COMMITMENT_LAG.finalized)
      throw new RpcError(
        RPC_ERRORS.invalidParams,
        `slot ${slot} is not finalized (the finalized slot is ${finalized})`,
      );
    const transactions = await this.heavyReads().block(slot);
    return { slot, transactions };
  }

  protected readTx(signature: unknown): TransactionRecord | null {
    if (typeof signature !== 'string') return null;
    const row = this.readStmts.tx.get(signature) as
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
}
