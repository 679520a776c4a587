import { describe, expect, expectTypeOf, it } from 'vitest';
import { ERROR_CATALOGUE, type ErrorCode } from '@nightjar/protocol';
import {
  AccountSuspendedError,
  AuthenticationError,
  CapacityError,
  ConflictError,
  DepositPendingError,
  FaucetError,
  ForbiddenError,
  InsufficientCollateralError,
  InternalError,
  InvalidRequestError,
  InvalidResponseError,
  InsufficientNotesError,
  isNightjarError,
  JoinSplitAmountsError,
  LedgerRefusedError,
  NetworkError,
  NoteNotFreeError,
  NothingToMergeError,
  NotFoundError,
  ParameterError,
  SplitOutputsPendingError,
  TransactionPendingError,
  RateLimitError,
  UnavailableError,
  venueError,
} from './errors.js';

describe('typed errors', () => {
  it('maps every spec code to its family with code, status and retryable', () => {
    const retryable = new Set([1401, 1402, 5001, 5002]);
    for (const [k, entry] of Object.entries(ERROR_CATALOGUE)) {
      const code = Number(k) as ErrorCode;
      const err = venueError(code, entry.status, entry.message);
      expect(err.code).toBe(code);
      expect(err.status).toBe(entry.status);
      expect(err.retryable).toBe(retryable.has(code));
    }
  });
  it('picks the class', () => {
    expect(venueError(1001, 400, 'x')).toBeInstanceOf(InvalidRequestError);
    expect(venueError(1003, 400, 'x')).toBeInstanceOf(InsufficientCollateralError);
    expect(venueError(1101, 401, 'x')).toBeInstanceOf(AuthenticationError);
    expect(venueError(1102, 403, 'x')).toBeInstanceOf(ForbiddenError);
    expect(venueError(1150, 403, 'x')).toBeInstanceOf(AccountSuspendedError);
    expect(venueError(1202, 409, 'x')).toBeInstanceOf(ConflictError);
    expect(venueError(1301, 404, 'x')).toBeInstanceOf(NotFoundError);
    expect(venueError(1401, 429, 'x', { retryAfterSeconds: 2 })).toBeInstanceOf(RateLimitError);
    expect(venueError(1402, 503, 'x')).toBeInstanceOf(CapacityError);
    expect(venueError(5001, 503, 'x')).toBeInstanceOf(UnavailableError);
    expect(venueError(5000, 500, 'x')).toBeInstanceOf(InternalError);
    expect(venueError(1401, 429, 'x', { retryAfterSeconds: 2 }).retryAfterSeconds).toBe(2);
  });
});

describe('isNightjarError', () => {
  it('without a code: any error the SDK threw', () => {
    expect(isNightjarError(new NetworkError('down'))).toBe(true);
    expect(isNightjarError(new InvalidResponseError('bad body'))).toBe(true);
    expect(isNightjarError(venueError(1301, 404, 'x'))).toBe(true);
    expect(isNightjarError(new Error('x'))).toBe(false);
    expect(isNightjarError({ code: 1301 })).toBe(false);
  });

  it('with a code: the venue error of that code, narrowed to its class', () => {
    const err: unknown = venueError(1401, 429, 'x', { retryAfterSeconds: 2 });
    expect(isNightjarError(err, 1402)).toBe(false);
    expect(isNightjarError(new NetworkError('down'), 1401)).toBe(false);
    expect(isNightjarError(err, 1401)).toBe(true);
    if (isNightjarError(err, 1401)) {
      expectTypeOf(err).toMatchTypeOf<RateLimitError>();
      expectTypeOf(err.code).toEqualTypeOf<1401>();
      expect(err.retryAfterSeconds).toBe(2);
    }
    const short = venueError(1003, 400, 'x');
    if (isNightjarError(short, 1003)) expectTypeOf(short).toMatchTypeOf<InsufficientCollateralError>();
    expect(isNightjarError(short, 1003)).toBe(true);
  });

  it('agrees with venueError for every spec code', () => {
    for (const [k, entry] of Object.entries(ERROR_CATALOGUE)) {
      const code = Number(k) as ErrorCode;
      expect(isNightjarError(venueError(code, entry.status, entry.message), code)).toBe(true);
    }
  });

  it('a code that does not match the class is not narrowed', () => {
    // Built by hand with a code its class does not own: not the venue's 1003.
    expect(isNightjarError(new InvalidRequestError(1003, 400, 'x'), 1003)).toBe(false);
  });
});

describe('note-management errors', () => {
  it('carry stable codes and stay within the classes callers already handle', () => {
    const notFree = new NoteNotFreeError('MINT', 'ab'.repeat(32), 'order', 5n, 9n);
    expect(notFree).toBeInstanceOf(InsufficientNotesError);
    expect(notFree).toMatchObject({ code: 'NOTE_NOT_FREE', reason: 'order', required: 5n, available: 9n });
    expect(notFree.message).toContain('cancel the order');
    const amounts = new JoinSplitAmountsError('x', 10n, 11n);
    expect(amounts).toBeInstanceOf(ParameterError);
    expect(amounts).toMatchObject({ code: 'JOIN_SPLIT_AMOUNTS', inputTotal: 10n, outputTotal: 11n });
    expect(new NothingToMergeError('MINT', 1).code).toBe('NOTHING_TO_MERGE');
    expect(new TransactionPendingError('join_split', 'sig', 30_000).code).toBe('TRANSACTION_PENDING');
    expect(new SplitOutputsPendingError('sig', ['c'], 20_000).code).toBe('SPLIT_OUTPUTS_PENDING');
    const pending = new DepositPendingError('sig', 'c', 30_000);
    expect(pending).toMatchObject({ code: 'DEPOSIT_PENDING', commitment: 'c', retryable: true });
    expect(pending.message).toContain("wait longer (deposit's `waitMs`)");
    expect(new FaucetError('FAUCET_UNAVAILABLE', -32006, 'no faucet')).toMatchObject({
      code: 'FAUCET_UNAVAILABLE',
      retryable: false,
    });
    for (const e of [notFree, amounts, new NothingToMergeError('MINT', 0)])
      expect(isNightjarError(e)).toBe(true);
  });

  it("LedgerRefusedError: the ledger's code; retryable only when the ledger was busy or down before landing", () => {
    const locked = new LedgerRefusedError('join_split', 'NoteLocked', true, 'sig');
    expect(locked).toMatchObject({
      code: 'LEDGER_REFUSED',
      ledgerCode: 'NoteLocked',
      landed: true,
      retryable: false,
    });
    expect(locked.message).toBe('join_split refused by the ledger: NoteLocked');
    expect(new LedgerRefusedError('join_split', '-32007', false, 'sig').retryable).toBe(true);
    expect(new LedgerRefusedError('join_split', '-32008', false, 'sig').retryable).toBe(true);
    expect(new LedgerRefusedError('join_split', '-32002', false, 'sig').retryable).toBe(false);
  });
});
