/**
 * Restart reconciliation: each journaled match that had not reached `done`/`failed` is classified
 * from the ledger alone (its own journaled settle transactions, then its inputs' note states by
 * nullifier). Every settle transaction the engine ever signed is journaled before it is sent, so
 * "settled by us" is decided by those records; an input consumed any other way is never guessed
 * about: it goes to the operator. This module reads the ledger and decides; the pipeline executes
 * the decisions.
 */
import type { LedgerClient, MatchOutcome, NoteStatus } from '@nightjar/ledger';
import type { JobState } from './types.js';

export type RecoveryClass =
  /** One of its settle transactions landed with this match ok. */
  | 'already_settled'
  /**
   * Both inputs still locked well ahead, its settle_by_slot not passed, and its proof and memos
   * journaled: settle it again (a fresh signature).
   */
  | 'redrive'
  /**
   * Nothing consumed and it cannot settle (its locks end too soon, or it stopped before its proof
   * was journaled, e.g. killed while proving): its locks expire (expired ones are released).
   */
  | 'release'
  /** An input consumed, but not by this match's settlement: the operator decides. */
  | 'indeterminate';

export interface RecoveryFacts {
  settledOk: boolean;
  bid: NoteStatus;
  ask: NoteStatus;
  slot: number;
}

/** Slots a lock must still hold for a redrive to be attempted. */
export const REDRIVE_MIN_LOCK_SLOTS = 4;

export function classifyJob(job: JobState, f: RecoveryFacts): RecoveryClass {
  if (f.settledOk) return 'already_settled';
  if (f.bid.state === 'spent' || f.ask.state === 'spent') return 'indeterminate';
  // A proof is not made again after a restart: the witness paths and the prover's work are gone.
  if (!job.proof || !job.memos) return 'release';
  if (f.slot + REDRIVE_MIN_LOCK_SLOTS > Number(job.plan.settleBySlot)) return 'release';
  const holds = (s: NoteStatus) =>
    s.state === 'locked' && (s.locked_until_slot ?? 0) > f.slot + REDRIVE_MIN_LOCK_SLOTS;
  if (holds(f.bid) && holds(f.ask)) return 'redrive';
  return 'release';
}

/** What recovery does with one reopened job. */
export type RecoveryDecision =
  | { kind: 'already_settled'; job: JobState; signature: string }
  | { kind: Exclude<RecoveryClass, 'already_settled'>; job: JobState };

/**
 * One decision per job of a reopened batch, in journal order, from the ledger as it is now (after
 * the fence): its own settle transactions that landed, its inputs' note states, the slot.
 */
export async function recoveryDecisions(
  ledger: Pick<LedgerClient, 'getSlot' | 'getTransaction' | 'getNoteStatuses'>,
  jobs: JobState[],
): Promise<RecoveryDecision[]> {
  const slot = await ledger.getSlot();
  const sigResults = new Map<string, MatchOutcome[]>();
  for (const sig of new Set(jobs.flatMap((j) => j.settleSignatures))) {
    const rec = await ledger.getTransaction({ signature: sig });
    if (rec && !rec.err) sigResults.set(sig, rec.result?.matches ?? []);
  }
  const statuses = await ledger.getNoteStatuses({
    nullifiers: jobs.flatMap((j) => [j.plan.bid.inputNullifier, j.plan.ask.inputNullifier]),
  });
  return jobs.map((job, i) => {
    const okSig = job.settleSignatures.find((s) =>
      sigResults.get(s)?.some((m) => m.match_idx === job.plan.matchIdx && m.ok),
    );
    const kind = classifyJob(job, {
      settledOk: okSig !== undefined,
      bid: statuses[2 * i]!,
      ask: statuses[2 * i + 1]!,
      slot,
    });
    return kind === 'already_settled' ? { kind, job, signature: okSig! } : { kind, job };
  });
}
