import { describe, expect, expectTypeOf, it } from 'vitest';
import { ERROR_CATALOGUE, type ErrorCode } from '@nightjar/protocol';
import {
  INSUFFICIENT_NOTES_CODES,
  isNightjarError,
  NightjarError,
  NIGHTJAR_ERROR__DEPOSIT_PENDING,
  NIGHTJAR_ERROR__FAUCET_UNAVAILABLE,
  NIGHTJAR_ERROR__INVALID_RESPONSE,
  NIGHTJAR_ERROR__JOIN_SPLIT_AMOUNTS,
  NIGHTJAR_ERROR__LEDGER_REFUSED,
  NIGHTJAR_ERROR__NETWORK,
  NIGHTJAR_ERROR__NOTE_NOT_FREE,
  NIGHTJAR_ERROR__NOTHING_TO_MERGE,
  NIGHTJAR_ERROR__SPLIT_OUTPUTS_PENDING,
  NIGHTJAR_ERROR__TRANSACTION_PENDING,
  NIGHTJAR_ERROR__UNKNOWN_VENUE_CODE,
  NIGHTJAR_ERROR_FIXES,
  NIGHTJAR_ERROR_NAMES,
  PARAMETER_CODES,
  SDK_ERROR_NAMES,
  venueError,
  venueFamilyOf,
} from './index.js';

const refused = (ledgerCode: string, landed: boolean) =>
  new NightjarError(NIGHTJAR_ERROR__LEDGER_REFUSED, {
    instruction: 'join_split',
    ledgerCode,
    landed,
    signature: 'sig',
  });

describe('venue errors', () => {
  it('maps every spec code to itself with status and retryable', () => {
    const retryable = new Set([1401, 1402, 5001, 5002]);
    for (const [k, entry] of Object.entries(ERROR_CATALOGUE)) {
      const code = Number(k) as ErrorCode;
      const err = venueError(code, entry.status, entry.message);
      expect(err.code).toBe(code);
      expect(err.context.status).toBe(entry.status);
      expect(err.retryable).toBe(retryable.has(code));
      expect(err.message).toBe(`${entry.message} (code ${code})`);
    }
  });

  it('keeps Retry-After and the request id', () => {
    const err = venueError(1401, 429, 'x', { retryAfterSeconds: 2, requestId: 'r1' });
    expect(err.context).toEqual({ status: 429, venueMessage: 'x', retryAfterSeconds: 2, requestId: 'r1' });
  });

  it('an unknown code keeps its number, with the family of its range or status', () => {
    const err = venueError(1099, 400, 'x');
    expect(err.code).toBe(NIGHTJAR_ERROR__UNKNOWN_VENUE_CODE);
    expect(err.message).toBe('x (code 1099)');
    expect(venueFamilyOf(1099, 400)).toBe(1000);
    expect(venueFamilyOf(1299, 500)).toBe(1201);
    expect(venueFamilyOf(7, 401)).toBe(1101);
    expect(venueFamilyOf(7, 429)).toBe(1401);
    expect(venueFamilyOf(7, 418)).toBe(1000);
    expect(venueFamilyOf(7, 502)).toBe(5000);
    expect(venueError(7, 503, 'x').retryable).toBe(true);
    expect(venueError(7, 400, 'x').retryable).toBe(false);
  });
});

describe('isNightjarError', () => {
  it('without a code: any error the SDK threw', () => {
    expect(isNightjarError(new NightjarError(NIGHTJAR_ERROR__NETWORK, { detail: 'down' }))).toBe(true);
    expect(isNightjarError(new NightjarError(NIGHTJAR_ERROR__INVALID_RESPONSE, { detail: 'bad body' }))).toBe(
      true,
    );
    expect(isNightjarError(venueError(1301, 404, 'x'))).toBe(true);
    expect(isNightjarError(new Error('x'))).toBe(false);
    expect(isNightjarError({ code: 1301 })).toBe(false);
  });

  it('with a code: the error of that code, its context narrowed', () => {
    const err: unknown = venueError(1401, 429, 'x', { retryAfterSeconds: 2 });
    expect(isNightjarError(err, 1402)).toBe(false);
    expect(isNightjarError(new NightjarError(NIGHTJAR_ERROR__NETWORK, { detail: 'down' }), 1401)).toBe(false);
    expect(isNightjarError(err, 1401)).toBe(true);
    if (isNightjarError(err, 1401)) {
      expectTypeOf(err.code).toEqualTypeOf<1401>();
      expect(err.context.retryAfterSeconds).toBe(2);
    }
  });

  it('agrees with venueError for every spec code', () => {
    for (const [k, entry] of Object.entries(ERROR_CATALOGUE)) {
      const code = Number(k) as ErrorCode;
      expect(isNightjarError(venueError(code, entry.status, entry.message), code)).toBe(true);
    }
  });

  it('with a group: any code of it', () => {
    const notFree = new NightjarError(NIGHTJAR_ERROR__NOTE_NOT_FREE, {
      mint: 'MINT',
      commitment: 'c',
      reason: 'order',
      required: 5n,
      available: 9n,
    });
    expect(isNightjarError(notFree, INSUFFICIENT_NOTES_CODES)).toBe(true);
    expect(isNightjarError(notFree, PARAMETER_CODES)).toBe(false);
  });
});

describe('codes', () => {
  it('every code has one stable name, and no two share one', () => {
    const names = Object.values(NIGHTJAR_ERROR_NAMES);
    expect(new Set(names).size).toBe(names.length);
    expect(SDK_ERROR_NAMES[7004]).toBe('NOTE_NOT_FREE');
    expect(NIGHTJAR_ERROR_NAMES[1401]).toBe('RATE_LIMITED');
  });
});

describe('fixes', () => {
  it("every code has one sentence saying what to do; an unknown venue code has its family's", () => {
    const fixes = Object.values(NIGHTJAR_ERROR_FIXES);
    expect(fixes).toHaveLength(Object.keys(NIGHTJAR_ERROR_NAMES).length);
    for (const fix of fixes) if (typeof fix === 'string') expect(fix).toMatch(/^[A-Z][^\n]*\.$/);
    expect(venueError(1401, 429, 'x', { retryAfterSeconds: 2 }).fix).toBe('Wait 2 s, then try again.');
    expect(venueError(1999, 401, 'x').fix).toBe(venueError(1101, 401, 'x').fix);
  });
});

describe('note-management errors', () => {
  it('carry their codes, contexts and messages', () => {
    const notFree = new NightjarError(NIGHTJAR_ERROR__NOTE_NOT_FREE, {
      mint: 'MINT',
      commitment: 'ab'.repeat(32),
      reason: 'order',
      required: 5n,
      available: 9n,
    });
    expect(notFree).toMatchObject({
      code: 7004,
      codeName: 'NOTE_NOT_FREE',
      context: { reason: 'order', required: 5n, available: 9n },
    });
    expect(notFree.message).toContain('it backs a live order');
    expect(notFree.fix).toBe('Cancel the order the note backs first.');
    const amounts = new NightjarError(NIGHTJAR_ERROR__JOIN_SPLIT_AMOUNTS, {
      detail: 'x',
      inputTotal: 10n,
      outputTotal: 11n,
    });
    expect(isNightjarError(amounts, PARAMETER_CODES)).toBe(true);
    expect(amounts).toMatchObject({
      codeName: 'JOIN_SPLIT_AMOUNTS',
      context: { inputTotal: 10n, outputTotal: 11n },
    });
    expect(new NightjarError(NIGHTJAR_ERROR__NOTHING_TO_MERGE, { mint: 'MINT', count: 1 }).codeName).toBe(
      'NOTHING_TO_MERGE',
    );
    const tx = { instruction: 'join_split', signature: 'sig', waitedMs: 30_000 };
    expect(new NightjarError(NIGHTJAR_ERROR__TRANSACTION_PENDING, tx).codeName).toBe('TRANSACTION_PENDING');
    const outputs = { signature: 'sig', commitments: ['c'], waitedMs: 20_000 };
    expect(new NightjarError(NIGHTJAR_ERROR__SPLIT_OUTPUTS_PENDING, outputs).codeName).toBe(
      'SPLIT_OUTPUTS_PENDING',
    );
    const pending = new NightjarError(NIGHTJAR_ERROR__DEPOSIT_PENDING, {
      signature: 'sig',
      commitment: 'c',
      waitedMs: 30_000,
    });
    expect(pending).toMatchObject({
      codeName: 'DEPOSIT_PENDING',
      context: { commitment: 'c' },
      retryable: true,
    });
    expect(pending.message).toBe("deposit sig landed, but the venue's tree lacked its note after 30.0 s");
    expect(pending.fix).toBe(
      'Wait until the note is final (it is in the wallet); if it never is, check that the venue follows the ledger.',
    );
    const faucet = new NightjarError(NIGHTJAR_ERROR__FAUCET_UNAVAILABLE, {
      rpcCode: -32006,
      detail: 'no faucet',
    });
    expect(faucet).toMatchObject({ codeName: 'FAUCET_UNAVAILABLE', retryable: false });
  });

  it("LEDGER_REFUSED: the ledger's code; retryable only when the ledger was busy or down before landing", () => {
    const locked = refused('NoteLocked', true);
    expect(locked).toMatchObject({
      codeName: 'LEDGER_REFUSED',
      context: { ledgerCode: 'NoteLocked', landed: true },
      retryable: false,
    });
    expect(locked.message).toBe('join_split refused by the ledger: NoteLocked');
    expect(locked.fix).toBe('Wait until the match settles, then try again.');
    expect(refused('-32007', false).fix).toBe('Try again shortly: the ledger is busy.');
    expect(refused('-32007', false).retryable).toBe(true);
    expect(refused('-32008', false).retryable).toBe(true);
    expect(refused('-32002', false).retryable).toBe(false);
  });
});
