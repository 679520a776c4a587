/**
 * The note errors of the SDK as the CLI reports them (exit code, stable code, the fix), and the
 * stages a join-split shows on the progress line. No venue: fast.
 */
import {
  NightjarError,
  NIGHTJAR_ERROR__JOIN_SPLIT_AMOUNTS as JOIN_SPLIT_AMOUNTS,
  NIGHTJAR_ERROR__LEDGER_ERROR as LEDGER_ERROR,
  NIGHTJAR_ERROR__LEDGER_REFUSED as LEDGER_REFUSED,
  NIGHTJAR_ERROR__LEDGER_UNAVAILABLE as LEDGER_UNAVAILABLE,
  NIGHTJAR_ERROR__NOTE_NOT_FREE as NOTE_NOT_FREE,
  NIGHTJAR_ERROR__NOTES_PENDING as NOTES_PENDING,
  NIGHTJAR_ERROR__NOTHING_TO_MERGE as NOTHING_TO_MERGE,
  NIGHTJAR_ERROR__SPLIT_OUTPUTS_PENDING as SPLIT_OUTPUTS_PENDING,
} from '@nightjar/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { classifyError } from '../src/classify-error.js';
import { EXIT } from '../src/exit-codes.js';
import { Output } from '../src/output.js';

const MINT = 'So11111111111111111111111111111111111111112';

describe('classifyError on note errors', () => {
  it('the ledger refusing: exit 1 with its code and what to do', () => {
    expect(
      classifyError(
        new NightjarError(LEDGER_REFUSED, {
          instruction: 'join_split',
          ledgerCode: 'NoteLocked',
          landed: true,
          signature: 'ab',
        }),
      ),
    ).toEqual({
      exitCode: EXIT.refused,
      code: 'LEDGER_REFUSED',
      ledgerCode: 'NoteLocked',
      message:
        'the ledger refused the join_split (NoteLocked: note is locked): Wait until the match settles, then try again. (`nightjar watch`)',
    });
    const busy = classifyError(
      new NightjarError(LEDGER_REFUSED, {
        instruction: 'withdraw',
        ledgerCode: '-32007',
        landed: false,
        signature: 'ab',
      }),
    );
    expect(busy).toMatchObject({ exitCode: EXIT.refused, ledgerCode: '-32007' });
    expect(busy.message).toContain(': Try again shortly: the ledger is busy.');
  });

  it('a ledger that is down: exit 3 naming the fix; a ledger error reply: exit 1 with its code', () => {
    const down = classifyError(
      new NightjarError(LEDGER_UNAVAILABLE, {
        method: 'getNonce',
        url: 'http://127.0.0.1:1',
        rpcCode: -32005,
        detail: 'fetch failed',
      }),
    );
    expect(down).toMatchObject({ exitCode: EXIT.unreachable, code: 'LEDGER_UNAVAILABLE' });
    expect(down.message).toContain(
      ": Check that the venue and its ledger are running, then try again. (`npm start`; ready.json's ledger_url)",
    );
    expect(
      classifyError(
        new NightjarError(LEDGER_ERROR, { method: 'getLeaves', rpcCode: -32602, detail: 'bad params' }),
      ),
    ).toMatchObject({
      exitCode: EXIT.refused,
      code: 'LEDGER_ERROR',
      ledgerCode: '-32602',
    });
  });

  it('a note backing an order, nothing to merge, amounts over the note: exit 5 naming the fix', () => {
    const backing = classifyError(
      new NightjarError(NOTE_NOT_FREE, {
        mint: MINT,
        commitment: 'c1',
        reason: 'order',
        required: 5n,
        available: 0n,
      }),
    );
    expect(backing).toMatchObject({ exitCode: EXIT.wallet, code: 'NOTE_NOT_FREE' });
    expect(backing.message).toContain('`nightjar order cancel --id ORDER_ID`');
    expect(classifyError(new NightjarError(NOTHING_TO_MERGE, { mint: MINT, count: 1 }))).toMatchObject({
      exitCode: EXIT.wallet,
      code: 'NOTHING_TO_MERGE',
    });
    expect(
      classifyError(
        new NightjarError(JOIN_SPLIT_AMOUNTS, { detail: 'too much', inputTotal: 5n, outputTotal: 6n }),
      ),
    ).toMatchObject({
      exitCode: EXIT.wallet,
      code: 'JOIN_SPLIT_AMOUNTS',
    });
    // Other amount rules (too many notes) are usage.
    expect(
      classifyError(
        new NightjarError(JOIN_SPLIT_AMOUNTS, { detail: '9 notes', inputTotal: 5n, outputTotal: 5n }),
      ).exitCode,
    ).toBe(EXIT.usage);
  });

  it('notes not final in time: exit 6', () => {
    expect(
      classifyError(
        new NightjarError(NOTES_PENDING, { mint: MINT, required: 5n, available: 0n, waitedMs: 60_000 }),
      ).exitCode,
    ).toBe(EXIT.timeout);
    expect(
      classifyError(
        new NightjarError(SPLIT_OUTPUTS_PENDING, { signature: 'ab', commitments: ['c1'], waitedMs: 60_000 }),
      ),
    ).toMatchObject({
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

  /** Runs `check` with stderr seen as a terminal (or not) and its writes captured. */
  async function onStderr(tty: boolean, check: () => Promise<void>): Promise<void> {
    const was = process.stderr.isTTY;
    process.stderr.isTTY = tty;
    try {
      capture();
      await check();
    } finally {
      process.stderr.isTTY = was;
    }
  }

  it("without a terminal: a line when a stage begins and one with that stage's own duration when it ends", () =>
    onStderr(false, async () => {
      let now = 1_000_000;
      const value = await new Output(false, () => now).progress('splitting', async (stage) => {
        now += 500; // before the first stage
        stage('proving');
        now += 2_000;
        stage('proving'); // unchanged: no new line
        now += 1_000;
        stage('sending');
        now += 250;
        return 7;
      });
      expect(value).toBe(7);
      // proving ran 3.0 s (not "2.5 s from the start", when it began); sending 0.3 s.
      expect(written).toEqual([
        'splitting: proving…\n',
        'splitting: proving took 3.0s\n',
        'splitting: sending…\n',
        'splitting: sending took 0.3s\n',
        'splitting… done (3.8s in all)\n',
      ]);
    }));

  it('on a terminal: the running stage shows its own elapsed time; a failure names the stage it ended in', () =>
    onStderr(true, async () => {
      let now = 0;
      const failing = new Output(false, () => now).progress('withdrawing', async (stage) => {
        now += 4_000;
        stage('proving');
        now += 1_500;
        stage('sending');
        now += 700;
        throw new Error('refused');
      });
      await expect(failing).rejects.toThrow('refused');
      expect(written.map((w) => w.replaceAll('\x1b[K', ''))).toEqual([
        '\rwithdrawing: proving… 0.0s',
        '\rwithdrawing: proving took 1.5s\n',
        '\rwithdrawing: sending… 0.0s',
        '\rwithdrawing: sending failed after 0.7s\n',
        '\rwithdrawing… failed (6.2s in all)\n',
      ]);
    }));

  it('with --json: nothing on stderr', async () => {
    capture();
    await new Output(true).progress('splitting', async (stage) => stage('proving'));
    expect(written).toEqual([]);
  });
});
