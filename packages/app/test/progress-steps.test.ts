/** The web's progress steps (issue 32 item 9): a stage told again with a new detail is one line. */
import { describe, expect, it } from 'vitest';
import { appendStep } from '../web/progress-steps.js';

describe('appendStep', () => {
  it('keeps one step per stage, with its latest detail, in the order the stages came', () => {
    let steps: { stage: string; detail?: string }[] = [];
    for (const [stage, detail] of [
      ['checking', undefined],
      ['preparing_note', 'choosing a note'],
      ['preparing_note', 'proving a note split'],
      ['preparing_note', 'the new notes are usable'],
      ['proving', undefined],
      ['sending', 'the order to the venue'],
    ] as const)
      steps = appendStep(steps, { stage, ...(detail ? { detail } : {}) });
    expect(steps).toEqual([
      { stage: 'checking' },
      { stage: 'preparing_note', detail: 'the new notes are usable' },
      { stage: 'proving' },
      { stage: 'sending', detail: 'the order to the venue' },
    ]);
  });

  it('keeps the last 20 steps', () => {
    let steps: { stage: string }[] = [];
    for (let i = 0; i < 25; i++) steps = appendStep(steps, { stage: `s${i}` });
    expect(steps).toHaveLength(20);
    expect(steps[0]).toEqual({ stage: 's5' });
  });
});
