/**
 * The engine's mirror of the on-chain note trees, one shard per tree_id. It follows the ledger's
 * leaf events but applies a leaf only once its slot is finalized (31 slots), so what it serves is
 * the finalized tree (spec: `/tree/root` equals the finalized on-chain root). Each shard keeps its
 * recent-root window by age (recent-roots.ts: every root of the last 181 slots, however many
 * appends), read back from the ledger (`getRootWindow`) whenever a shard is rebuilt.
 * After every slot it compares each shard's root with the chain's; a mismatch at equal size marks
 * the shard diverged, and every tree read for it answers 503 5002 until a resync agrees.
 */
import { TreeShard } from '@nightjar/crypto';
import { fieldToHex } from '@nightjar/protocol';
import { COMMITMENT_LAG, type LedgerClient, type LedgerEvent } from '@nightjar/ledger';
import { RecentRoots } from './recent-roots.js';

type LeafEvent = Extract<LedgerEvent, { type: 'leaf' }>;

/** Pending leaf events beyond this many per shard mean we are hopelessly behind: resync instead. */
const MAX_PENDING_PER_SHARD = 100_000;
const PAGE = 10_000;

/** The leaves of one append instruction, as the mirror applied them. */
export interface AppliedLeaves {
  treeId: number;
  firstLeafIndex: number;
  /** Note commitments, hex, in leaf order. */
  values: string[];
  /** The shard's root after the instruction. */
  merkleRoot: string;
  /** Slot the instruction landed in. */
  slot: number;
}

interface ShardState {
  tree: TreeShard;
  /** The chain's root window for this shard, as of the tree's size. */
  window: RecentRoots;
  /** Leaf events not yet finalized, in arrival order. */
  pending: LeafEvent[];
  diverged: boolean;
  /** Slot at which the shard last agreed with the chain. */
  syncedSlot: number;
  /** Set while the shard is being rebuilt from the chain. */
  resyncing: Promise<void> | undefined;
}

export class TreeMirror {
  private shards: ShardState[] = [];
  private unsubscribe: (() => void) | undefined;
  private checking: Promise<void> | undefined;
  private recheck = false;
  private started = false;
  /** The latest slot the ledger announced: the recent-root window's clock. */
  private slot = 0;
  private readonly leafListeners = new Set<(leaves: AppliedLeaves) => void>();
  private readonly resetListeners = new Set<(treeId: number) => void>();

  constructor(
    private readonly ledger: LedgerClient,
    private readonly log: (msg: string, fields?: object) => void = () => undefined,
  ) {}

  get numTrees(): number {
    return this.shards.length;
  }

  async start(numTrees: number): Promise<void> {
    this.shards = Array.from({ length: numTrees }, (_, i) => {
      const tree = new TreeShard(i);
      return {
        tree,
        window: new RecentRoots([tree.root], 0),
        pending: [],
        diverged: false,
        syncedSlot: 0,
        resyncing: undefined,
      };
    });
    // Subscribe first so that nothing appended during the initial sync is missed.
    this.unsubscribe = this.ledger.subscribe((e) => this.onEvent(e));
    for (let t = 0; t < numTrees; t++) await this.resync(t);
    this.started = true;
  }

  /** Every finalized leaf group the mirror applies, in order. Listeners must not throw (errors are logged). */
  onLeaves(listener: (leaves: AppliedLeaves) => void): () => void {
    this.leafListeners.add(listener);
    return () => this.leafListeners.delete(listener);
  }

  /** A shard rebuilt from the chain (after start) whose size or root changed. */
  onReset(listener: (treeId: number) => void): () => void {
    this.resetListeners.add(listener);
    return () => this.resetListeners.delete(listener);
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  isDiverged(treeId: number): boolean {
    return this.shards[treeId]?.diverged ?? false;
  }

  shard(treeId: number): TreeShard | undefined {
    return this.shards[treeId]?.tree;
  }

  syncedSlot(treeId: number): number {
    return this.shards[treeId]?.syncedSlot ?? 0;
  }

  /**
   * Is `root` (hex) the shard's current root, or was it the shard's root during the last
   * RECENT_ROOT_SLOTS slots (before `slot`, by default the latest the ledger announced)?
   */
  isRecentRoot(treeId: number, rootHex: string, slot: number = this.slot): boolean {
    const s = this.shards[treeId];
    return !!s && !s.diverged && s.window.has(BigInt('0x' + rootHex), slot);
  }

  /** Roots in the shard's recent-root window (tests, telemetry). */
  recentRootCount(treeId: number): number {
    return this.shards[treeId]?.window.size ?? 0;
  }

  private onEvent(e: LedgerEvent): void {
    if (e.type === 'leaf') {
      const s = this.shards[e.tree_id];
      if (!s) return;
      s.pending.push(e);
      if (s.pending.length > MAX_PENDING_PER_SHARD) {
        s.pending = [];
        void this.resync(e.tree_id);
      }
      return;
    }
    if (e.type === 'resync') {
      // The event stream was interrupted: whatever was missed is read back from the chain.
      this.log('ledger events resumed; resyncing the tree mirror');
      for (let t = 0; t < this.shards.length; t++) void this.resync(t);
      return;
    }
    this.slot = Math.max(this.slot, e.slot);
    this.applyFinalized(e.slot - COMMITMENT_LAG.finalized);
    void this.checkAgainstChain();
  }

  /** Applies every pending leaf group whose slot is finalized, one root-window step per group. */
  private applyFinalized(finalizedSlot: number): void {
    this.shards.forEach((s, treeId) => {
      if (s.resyncing) return;
      while (s.pending.length > 0 && s.pending[0]!.slot <= finalizedSlot) {
        const head = s.pending[0]!;
        const group = s.pending.filter((x) => x.seq === head.seq);
        if (group.length < head.count) break; // the rest of this instruction's leaves are still on the way
        s.pending = s.pending.filter((x) => x.seq !== head.seq);
        group.sort((a, b) => a.leaf_index - b.leaf_index);
        if (group[0]!.leaf_index < s.tree.size) continue; // already applied by a resync
        if (group[0]!.leaf_index !== s.tree.size) {
          this.log('tree mirror gap; resyncing', {
            tree_id: treeId,
            expected: s.tree.size,
            got: group[0]!.leaf_index,
          });
          void this.resync(treeId);
          return;
        }
        const values = group.map((x) => BigInt('0x' + x.commitment));
        s.tree.appendBatch(values);
        s.window.push(s.tree.root, head.slot);
        if (this.leafListeners.size > 0)
          this.announce(this.leafListeners, {
            treeId,
            firstLeafIndex: group[0]!.leaf_index,
            values: values.map(fieldToHex),
            merkleRoot: fieldToHex(s.tree.root),
            slot: head.slot,
          });
      }
    });
  }

  /**
   * Compares every shard with the chain's finalized root; marks or clears divergence, and resyncs a
   * shard that is missing finalized leaves. Calls during a running check coalesce into one more run,
   * which the returned promise includes, so a caller always sees a check that started after it asked.
   */
  checkAgainstChain(): Promise<void> {
    if (this.checking) {
      this.recheck = true;
      return this.checking;
    }
    this.checking = (async () => {
      do {
        this.recheck = false;
        await this.checkOnce();
      } while (this.recheck);
    })().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private async checkOnce(): Promise<void> {
    try {
      for (let t = 0; t < this.shards.length; t++) {
        const s = this.shards[t]!;
        if (s.resyncing) continue;
        const chain = await this.ledger.getTreeRoot({ tree_id: t, commitment: 'finalized' });
        if (chain.leaf_count !== s.tree.size) {
          // Finalized leaves we neither hold nor have events for were lost on the way: read them back.
          const coming = s.pending.filter((e) => e.slot <= chain.slot).length;
          if (chain.leaf_count > s.tree.size + coming) await this.resync(t);
          continue; // otherwise in flight: compare when sizes meet
        }
        const agrees = chain.merkle_root === fieldToHex(s.tree.root);
        if (!agrees && !s.diverged)
          this.log('tree mirror diverges from chain', { tree_id: t, leaf_count: chain.leaf_count });
        s.diverged = !agrees;
        if (agrees) s.syncedSlot = chain.slot;
      }
    } catch (err) {
      this.log('tree mirror check failed', { err: err instanceof Error ? err.message : String(err) });
    }
  }

  /**
   * Rebuilds one shard from the chain's finalized leaves and root window (one append would leave
   * a window of one step); a call during a rebuild waits for it. Never rejects.
   */
  resync(treeId: number): Promise<void> {
    const s = this.shards[treeId];
    if (!s) return Promise.resolve();
    s.resyncing ??= this.rebuild(s, treeId)
      .catch((err: unknown) => {
        // The shard keeps what it had; the next check or event tries again.
        this.log('tree mirror resync failed', {
          tree_id: treeId,
          err: err instanceof Error ? err.message : String(err),
        });
      })
      .finally(() => {
        s.resyncing = undefined;
      });
    return s.resyncing;
  }

  private async rebuild(s: ShardState, treeId: number): Promise<void> {
    const chain = await this.ledger.getTreeRoot({ tree_id: treeId, commitment: 'finalized' });
    const tree = new TreeShard(treeId);
    // The ledger may cut a page shorter than asked (its getLeaves cap): go on from what came.
    for (let from = 0; from < chain.leaf_count;) {
      const { leaves } = await this.ledger.getLeaves({
        tree_id: treeId,
        from,
        to: Math.min(chain.leaf_count, from + PAGE),
      });
      if (leaves.length === 0)
        throw new Error(`the ledger returned no leaves from ${from} of shard ${treeId}`);
      tree.appendBatch(leaves.map((l) => BigInt('0x' + l.value)));
      from += leaves.length;
    }
    const window = await this.ledger.getRootWindow({ tree_id: treeId, commitment: 'finalized' });
    const changed = s.tree.size !== tree.size || s.tree.root !== tree.root;
    s.tree = tree;
    this.slot = Math.max(this.slot, chain.slot);
    s.window = RecentRoots.fromChain(window.roots, tree.root, this.slot);
    s.pending = s.pending.filter((e) => e.leaf_index >= tree.size);
    if (changed && this.started) this.announce(this.resetListeners, treeId);
    s.diverged = fieldToHex(tree.root) !== chain.merkle_root;
    s.syncedSlot = chain.slot;
  }

  private announce<T>(listeners: Set<(value: T) => void>, value: T): void {
    for (const listener of listeners) {
      try {
        listener(value);
      } catch (err) {
        this.log('tree mirror listener failed', { err: err instanceof Error ? err.message : String(err) });
      }
    }
  }
}
