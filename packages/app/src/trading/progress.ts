/**
 * Progress frames of an action (an order, a deposit, a withdrawal): the stages the app tells, and
 * the proofs the SDK's client makes told as the stage of the action they belong to.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { JoinSplitProgress, ProofProgress } from '@nightjar/sdk';
import type { AppEvent } from '../api-types.js';
import { toAppError } from '../errors.js';

export type Progress = (stage: string, detail?: string) => void;

/** The order (or transfer) whose progress a prover call belongs to. */
const progressContext = new AsyncLocalStorage<Progress>();

/** A join-split's stage as a progress detail. */
export function splitDetail(p: JoinSplitProgress): string {
  switch (p.stage) {
    case 'proving':
      return `proving a note ${p.inputs.length === 1 ? 'split' : 'merge'}`;
    case 'sending':
      return 'sending the split to the ledger';
    case 'landed':
      return 'split landed, waiting until final';
    case 'usable':
      return 'the new notes are usable';
  }
}

/** A proof's start or end as the progress of the order (or transfer) it belongs to (`client.onProof`). */
export function proofProgress(e: ProofProgress): void {
  const emit = progressContext.getStore();
  if (e.proof === 'valid_join_split') {
    if (e.stage === 'start') emit?.('preparing_note', 'proving a note split');
  } else if (e.stage === 'start') emit?.('proving');
  else
    emit?.('sending', e.proof === 'valid_input' ? 'the order to the venue' : 'the transaction to the ledger');
}

/**
 * The progress frames of `action` (named by the request's `client_ref`, if any). A stage is told
 * once: a repeat of the stage just told goes out only when it brings a new detail (a split's next
 * step), which a reader shows in place of the last one; a bare or identical repeat (the prover's
 * own "proving" after the action said so) is dropped.
 */
export function progressFrames(
  emit: (e: AppEvent) => void,
  action: string,
  ref: string | undefined,
): Progress {
  let last: { stage: string; detail: string | undefined } | undefined;
  return (stage, detail) => {
    if (last?.stage === stage && (detail === undefined || detail === last.detail)) return;
    last = { stage, detail };
    emit({
      type: 'progress',
      ...(ref === undefined ? {} : { client_ref: ref }),
      action,
      stage,
      ...(detail === undefined ? {} : { detail }),
    });
  };
}

/**
 * Runs an action with its progress frames (its proofs' too), its failure told as a `failed` stage
 * after `failed(err)` heard of it.
 */
export async function withProgress<T>(
  progress: Progress,
  failed: (err: unknown) => void,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await progressContext.run(progress, work);
  } catch (err) {
    const e = toAppError(err);
    failed(err);
    progress('failed', `${e.code}: ${e.message}`);
    throw err;
  }
}
