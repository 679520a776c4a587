/**
 * The note errors of the SDK as the CLI reports them (exit code, stable code, the fix), and the
 * stages a join-split shows on the progress line. No venue: fast.
 */
import {
  JoinSplitAmountsError,
  LedgerError,
  LedgerRefusedError,
  LedgerUnavailableError,
  NoteNotFreeError,
  NotesPendingError,
  NothingToMergeError,
  SplitOutputsPendingError,
} from '@nightjar/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { classifyError } from '../src/classify-error.js';
import { EXIT } from '../src/exit-codes.js';
import { Output } from '../src/output.js';

const MINT = 'So11111111111111111111111111111111111111112';

describe('classifyError on note errors', () => {
  it('the ledger refusing: exit 1 with its code and what to do', () => {
    expect(classifyError(new LedgerRefusedError('join_split', 'NoteLocked', true, 'ab'))).toEqual({
      exitCode: EXIT.refused,
      code: 'LEDGER_REFUSED',
      ledgerCode: 'NoteLocked',
      message:
        'the ledger refused the join_split (NoteLocked: note is locked): a note is locked while a match settles: try again once it settles (`nightjar watch`)',
    });
    const busy = classifyError(new LedgerRefusedError('withdraw', '-32007', false, 'ab'));
    expect(busy).toMatchObject({ exitCode: EXIT.refused, ledgerCode: '-32007' });
    expect(busy.message).toContain('the ledger is busy or down: try again');
  });

  it('a ledger that is down: exit 3 naming the fix; a ledger error reply: exit 1 with its code', () => {
    const down = classifyError(
      new LedgerUnavailableError('getNonce', 'http://127.0.0.1:1', -32005, 'fetch failed'),
    );
    expect(down).toMatchObject({ exitCode: EXIT.unreachable, code: 'LEDGER_UNAVAILABLE' });
    expect(down.message).toContain('is the venue running (`npm start`)?');
    expect(classifyError(new LedgerError('getLeaves', -32602, 'bad params'))).toMatchObject({
      exitCode: EXIT.refused,
      code: 'LEDGER_ERROR',
      ledgerCode: '-32602',
    });
  });

  it('a note backing an order, nothing to merge, amounts over the note: exit 5 naming the fix', () => {
    const backing = classifyError(new NoteNotFreeError(MINT, 'c1', 'order', 5n, 0n));
    expect(backing).toMatchObject({ exitCode: EXIT.wallet, code: 'NOTE_NOT_FREE' });
    expect(backing.message).toContain('`nightjar order cancel --id ORDER_ID`');
    expect(classifyError(new NothingToMergeError(MINT, 1))).toMatchObject({
      exitCode: EXIT.wallet,
      code: 'NOTHING_TO_MERGE',
    });
    expect(classifyError(new JoinSplitAmountsError('too much', 5n, 6n))).toMatchObject({
      exitCode: EXIT.wallet,
      code: 'JOIN_SPLIT_AMOUNTS',
    });
    // Other amount rules (too many notes) are usage.
    expect(classifyError(new JoinSplitAmountsError('9 notes', 5n, 5n)).exitCode).toBe(EXIT.usage);
  });

  it('notes not final in time: exit 6', () => {
    expect(classifyError(new NotesPendingError(MINT, 5n, 0n, 60_000)).exitCode).toBe(EXIT.timeout);
    expect(classifyError(new SplitOutputsPendingError('ab', ['c1'], 60_000))).toMatchObject({
      exitCode: EXIT.timeout,
      code: 'SPLIT_OUTPUTS_PENDING',
    });
  });
});

describe('Output.progress stages', () => {
  let written: string[];
  afterEach(() => vi.restoreAllMocks());

  function capture(): void {
    written = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
  }

  it('without a terminal: one line per new stage, then done', async () => {
    const tty = process.stderr.isTTY;
    process.stderr.isTTY = false;
    try {
      capture();
      const value = await new Output(false).progress('splitting', async (stage) => {
        stage('proving');
        stage('proving'); // unchanged: no new line
        stage('sending');
        return 7;
      });
      expect(value).toBe(7);
      expect(written.map((w) => w.replace(/\(\d+\.\ds\)/, '(Ns)'))).toEqual([
        'splitting: proving (Ns)\n',
        'splitting: sending (Ns)\n',
        'splitting… done (Ns)\n',
      ]);
    } finally {
      process.stderr.isTTY = tty;
    }
  });

  it('with --json: nothing on stderr', async () => {
    capture();
    await new Output(true).progress('splitting', async (stage) => stage('proving'));
    expect(written).toEqual([]);
  });
});
