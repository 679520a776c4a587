/** The journal is never taken for an empty one when the data directory says it existed. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JOURNAL_FILE, JournalDamagedError, SettlementJournal } from '../../src/settlement/journal.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const dir = () => {
  const d = mkdtempSync(join(tmpdir(), 'nightjar-journal-'));
  dirs.push(d);
  return d;
};

describe('settlement journal', () => {
  it('a missing journal where one existed is an error', () => {
    expect(() => new SettlementJournal(dir(), true)).toThrow(JournalDamagedError);
  });
  it('a damaged journal file is an error', () => {
    const d = dir();
    writeFileSync(join(d, JOURNAL_FILE), Buffer.alloc(8192, 0x5a));
    expect(() => new SettlementJournal(d, false)).toThrow(JournalDamagedError);
  });
  it('keeps jobs, nonces and batch ids across reopen', () => {
    const d = dir();
    const j = new SettlementJournal(d, false);
    const party = {
      orderId: '00'.repeat(16),
      accountId: 'a',
      side: 'bid' as const,
      treeId: 0,
      viewingPubkey: '',
      inputNullifier: '01',
      lockUntilSlot: '10',
      outputs: [],
      tradeAmount: '0',
      changeAmount: '0',
      feeAmount: '0',
      newAmount: '0',
      filledAfter: '0',
      continues: false,
    };
    j.write(
      [
        {
          batchId: 7n,
          marketId: 'm',
          plan: { matchIdx: 0, matchId: '1', quantity: '1', bid: party, ask: { ...party, side: 'ask' } },
          stage: 'settling',
          outcome: 'pending',
          createdAtMs: 1,
          updatedAtMs: 2,
          lockSignatures: [],
          settleSignatures: ['s'],
        },
      ],
      [
        {
          tx: { signer: 'x', nonce: '42', instruction: { name: 'n', args: {} }, signature: 's' },
          batchId: 7n,
          kind: 'settle',
        },
      ],
    );
    j.close();
    const again = new SettlementJournal(d, true);
    expect(again.maxBatchId()).toBe(7n);
    // Match ids are per market and never repeat across boots: the next boot starts past them.
    expect(again.lastMatchId('m')).toBe(1n);
    expect(again.lastMatchId('another market')).toBe(0n);
    expect(again.maxNonce()).toBe(42n);
    expect(again.openJobs().map((x) => [x.batchId, x.stage])).toEqual([[7n, 'settling']]);
    again.close();
  });
});
