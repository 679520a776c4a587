/** Progress frames (issue 32 item 9): one frame per stage with its detail, never a bare repeat. */
import { describe, expect, it } from 'vitest';
import type { AppEvent } from '../api-types.js';
import { progressFrames, proofProgress, splitDetail, withProgress, type Progress } from './progress.js';

type Frame = Extract<AppEvent, { type: 'progress' }>;

function recorder() {
  const frames: Frame[] = [];
  const progress = progressFrames((e) => frames.push(e as Frame), 'withdrawal', 'w-1');
  const told = () => frames.map((f) => (f.detail ? `${f.stage}: ${f.detail}` : f.stage));
  return { frames, progress, told };
}

/** Runs `steps` as an action whose proofs tell `progress` (as the app's actions run). */
const inAction = (progress: Progress, steps: () => void) =>
  withProgress(
    progress,
    () => undefined,
    async () => steps(),
  );

describe('progressFrames', () => {
  it('drops a bare or identical repeat of the stage just told, keeps a repeat with a new detail', () => {
    const { frames, progress, told } = recorder();
    progress('proving', 'the spend proof of 5 USDC');
    progress('proving');
    progress('proving', 'the spend proof of 5 USDC');
    progress('sending', 'the transaction to the ledger');
    progress('landed', 'ledger transaction abc');
    expect(told()).toEqual([
      'proving: the spend proof of 5 USDC',
      'sending: the transaction to the ledger',
      'landed: ledger transaction abc',
    ]);
    expect(frames[0]).toMatchObject({ type: 'progress', action: 'withdrawal', client_ref: 'w-1' });
  });

  it("tells an order's note split once per step, not `preparing_note` six times without detail", async () => {
    const { progress, told } = recorder();
    await inAction(progress, () => {
      progress('checking');
      progress('preparing_note', 'choosing a note that covers the order');
      proofProgress({ proof: 'valid_join_split', stage: 'start' });
      progress('preparing_note', splitDetail({ stage: 'proving', inputs: [{}] } as never));
      proofProgress({ proof: 'valid_join_split', stage: 'done' });
      progress('preparing_note', splitDetail({ stage: 'sending' } as never));
      progress('preparing_note', splitDetail({ stage: 'landed' } as never));
      progress('preparing_note', splitDetail({ stage: 'usable' } as never));
      proofProgress({ proof: 'valid_input', stage: 'start' });
      proofProgress({ proof: 'valid_input', stage: 'done' });
      progress('accepted', 'order-1');
    });
    const lines = told();
    expect(lines).toEqual([
      'checking',
      'preparing_note: choosing a note that covers the order',
      'preparing_note: proving a note split',
      'preparing_note: sending the split to the ledger',
      'preparing_note: split landed, waiting until final',
      'preparing_note: the new notes are usable',
      'proving',
      'sending: the order to the venue',
      'accepted: order-1',
    ]);
    expect(new Set(lines).size).toBe(lines.length);
    expect(lines.filter((l) => l === 'preparing_note')).toEqual([]);
  });

  it("the prover's own `proving` after the action said it is not told again", async () => {
    const { progress, told } = recorder();
    await inAction(progress, () => {
      progress('proving', 'the spend proof of 5 USDC');
      proofProgress({ proof: 'valid_spend', stage: 'start' });
      proofProgress({ proof: 'valid_spend', stage: 'done' });
    });
    expect(told()).toEqual(['proving: the spend proof of 5 USDC', 'sending: the transaction to the ledger']);
  });
});
