/**
 * VALID_LOCK proofs of partially filled orders' change notes (DESIGN 6 "Partial fills"). A change
 * note is not locked on chain after its fill (no relock: that would publish its nullifier beside
 * its commitment and chain the order's fills). The engine, which made the note, proves VALID_LOCK
 * for it as soon as its settlement is confirmed and the note's leaf index is known, so the
 * remainder's next match locks it with no wait for finality and no new client proof.
 *
 * The path: the ledger accepts a lock against any root its shard ever had, so the proof need not
 * wait for the tree mirror (finalized leaves only). Each shard has a copy here that runs ahead of
 * the mirror to the end of the confirmed settlement (its leaves read from the ledger): the root
 * after that settlement's appends is a root the shard had. Should the ledger refuse it anyway,
 * `reprove` proves again against the mirror's finalized root once the leaf is there.
 */
import { TreeShard, type MerkleProof } from '@nightjar/crypto';
import { bytesToHex, fieldToHex, parseAddress, type Instrument } from '@nightjar/protocol';
import type { LedgerClient, TransactionRecord } from '@nightjar/ledger';
import type { ChainView } from '../chain-view.js';
import type { FairProofQueue } from './fair-proof-queue.js';
import { inputPath, type PathMirror } from './input-path.js';
import type { MatchProver } from './match-prover.js';
import type { SettlementMetrics } from './metrics.js';
import { circuitTerms, useTagFor } from './order-terms.js';
import type { ChangeLockSource } from './phases.js';
import type { JobState, OutputPlan, PartyPlan } from './types.js';

/** Change notes whose proofs are kept (a remainder's next lock needs its note's); oldest go first. */
const MAX_KEPT = 65_536;
/** Slots a re-proof waits for the leaf to reach the finalized mirror (finality is 31). */
const REPROVE_WAIT_SLOTS = 64;
/** The queue lane of lock proofs: served in turn with each market's match proofs. */
const LANE = 'change-locks';

export interface ChangeLocksDeps {
  ledger: Pick<LedgerClient, 'getLeaves'>;
  trees: PathMirror;
  chain: Pick<ChainView, 'slot' | 'onSlot'>;
  prover: MatchProver;
  queue: FairProofQueue;
  metrics: SettlementMetrics;
  instrument(marketId: string): Instrument | undefined;
  log: { warn(obj: object, msg: string): void };
  /** The SIGKILL test hook. */
  crash(point: string): void;
}

interface ChangeNote {
  marketId: string;
  party: PartyPlan;
  change: OutputPlan;
  leafIndex: number;
  /** The shard's size after the settlement that appended the note (a root the shard had). */
  end: number;
  made: Promise<{ merkle_root: string; proof: string } | undefined>;
}

export class ChangeLocks implements ChangeLockSource {
  readonly #notes = new Map<string, ChangeNote>();
  /** Per shard: the leaves up to the last confirmed settlement the engine proved a change note in. */
  readonly #ahead = new Map<number, TreeShard>();
  /** Per shard: extensions of `#ahead` one at a time (two at once would append the same leaves). */
  readonly #extending = new Map<number, Promise<unknown>>();

  constructor(private readonly d: ChangeLocksDeps) {}

  /** A confirmed match: each party whose remainder rests again gets its change note's proof started. */
  begin(j: JobState, record: TransactionRecord): void {
    const outcome = record.result?.matches?.find((m) => m.match_idx === j.plan.matchIdx);
    for (const side of ['bid', 'ask'] as const) {
      const party = j.plan[side];
      if (!party.continues) continue;
      const change = party.outputs.find((o) => o.role === 2)!;
      const leaf = outcome?.output_leaves?.[change.slot];
      if (!leaf || leaf.tree_id !== change.tree_id) continue; // entry() then says it cannot be made
      const end =
        Math.max(
          ...(record.result?.matches ?? [])
            .flatMap((m) => m.output_leaves ?? [])
            .filter((l) => l.tree_id === leaf.tree_id)
            .map((l) => l.leaf_index),
        ) + 1;
      const note: ChangeNote = {
        marketId: j.marketId,
        party,
        change,
        leafIndex: leaf.leaf_index,
        end,
        made: Promise.resolve(undefined),
      };
      note.made = this.#prove(note, false);
      this.#notes.set(change.nullifier, note);
      if (this.#notes.size > MAX_KEPT) this.#notes.delete(this.#notes.keys().next().value!);
    }
  }

  entry(nullifier: string): Promise<{ merkle_root: string; proof: string } | undefined> {
    return this.#notes.get(nullifier)?.made ?? Promise.resolve(undefined);
  }

  reprove(nullifier: string): void {
    const note = this.#notes.get(nullifier);
    if (note) note.made = this.#prove(note, true);
  }

  /** The note was consumed or its order ended: its proof is not needed again. */
  forget(nullifier: string): void {
    this.#notes.delete(nullifier);
  }

  async #prove(
    note: ChangeNote,
    finalized: boolean,
  ): Promise<{ merkle_root: string; proof: string } | undefined> {
    const t0 = performance.now();
    try {
      const { party, change } = note;
      const instrument = this.d.instrument(note.marketId);
      if (!instrument) throw new Error('unknown market');
      const path = finalized ? await this.#finalPath(note) : await this.#aheadPath(note);
      const remainder = circuitTerms(note.marketId, party.side, party.orderId, {
        ...party.terms,
        amount: party.newAmount,
      });
      const r = await this.d.queue.run(LANE, () => {
        this.d.crash('lock_proving');
        return this.d.prover.proveLock({
          mint: parseAddress(party.side === 'bid' ? instrument.quote_mint : instrument.base_mint)!,
          amount: BigInt(change.amount),
          path: { siblings: path.siblings, leafIndex: path.leafIndex },
          merkleRoot: path.root,
          ownerCommitment: BigInt('0x' + party.input.ownerCommitment),
          parentInner: BigInt('0x' + party.input.innerHash),
          remainder,
        });
      });
      const [useTag, root, nullifier] = r.publicInputs;
      // The proof must lock exactly the note the order now rests on, for exactly its remainder.
      if (fieldToHex(nullifier) !== change.nullifier) throw new Error('the proof names another nullifier');
      if (fieldToHex(useTag) !== useTagFor(change.commitment, change.inner, remainder))
        throw new Error('the proof binds another use tag');
      this.d.metrics.count('lock_proofs_made');
      this.d.metrics.sample('lock_prove', performance.now() - t0);
      return { merkle_root: fieldToHex(root), proof: bytesToHex(r.proof) };
    } catch (err) {
      this.d.metrics.count('lock_proofs_failed');
      this.d.log.warn(
        { market_id: note.marketId, why: err instanceof Error ? err.message : String(err) },
        'change note lock proof failed; its remainder ends at its next match',
      );
      return undefined;
    }
  }

  /** The note's path against the shard's root right after its settlement (not yet final). */
  #aheadPath(note: ChangeNote): Promise<MerkleProof> {
    const treeId = note.change.tree_id;
    const run = (this.#extending.get(treeId) ?? Promise.resolve()).then(async () => {
      let ahead = this.#ahead.get(treeId);
      if (!ahead) {
        ahead = new TreeShard(treeId, { historySize: 0 });
        const mirror = this.d.trees.shard(treeId);
        if (mirror && !this.d.trees.isDiverged(treeId)) ahead.appendBatch(mirror.leaves());
        this.#ahead.set(treeId, ahead);
      }
      // Every extension ends where a settlement's appends end, so its root is one the shard had.
      while (ahead.size < note.end) {
        const { leaves } = await this.d.ledger.getLeaves({ tree_id: treeId, from: ahead.size, to: note.end });
        if (leaves.length === 0) throw new Error('the ledger returned no leaves');
        ahead.appendBatch(leaves.map((l) => BigInt('0x' + l.value)));
      }
      if (ahead.leaf(note.leafIndex) !== BigInt('0x' + note.change.commitment)) {
        this.#ahead.delete(treeId); // built on something the chain does not hold: start over next time
        throw new Error('the change note is not at its leaf');
      }
      return ahead.proof(note.leafIndex);
    });
    this.#extending.set(
      treeId,
      run.catch(() => undefined),
    );
    return run;
  }

  /** The note's path against the mirror's finalized root, once the leaf is there. */
  #finalPath(note: ChangeNote): Promise<MerkleProof> {
    return inputPath(
      this.d.trees,
      this.d.chain,
      note.change.tree_id,
      note.change.commitment,
      this.d.chain.slot + REPROVE_WAIT_SLOTS,
    );
  }
}
