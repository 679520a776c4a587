/** The app's statuses and codes per SDK error code as before the one vocabulary; each `fix` is the SDK's sentence. */
import {
  NightjarError,
  NIGHTJAR_ERROR__ATTESTATION_COMPOSE_HASH as COMPOSE_HASH,
  NIGHTJAR_ERROR__ATTESTATION_EVIDENCE as EVIDENCE,
  NIGHTJAR_ERROR__FAUCET_REFUSED as FAUCET_REFUSED,
  NIGHTJAR_ERROR__FAUCET_UNAVAILABLE as FAUCET_UNAVAILABLE,
  NIGHTJAR_ERROR__INVALID_RESPONSE as INVALID_RESPONSE,
  NIGHTJAR_ERROR__LEDGER_REFUSED as LEDGER_REFUSED,
  NIGHTJAR_ERROR__NOTE_HELD as NOTE_HELD,
  NIGHTJAR_ERROR__PARAMETER as PARAMETER,
  NIGHTJAR_ERROR__TRANSPORT_CLOSED as TRANSPORT_CLOSED,
  NIGHTJAR_ERROR__WALLET_DECRYPT as WALLET_DECRYPT,
  venueError,
} from '@nightjar/sdk';
import { describe, expect, it } from 'vitest';
import { toAppError } from './errors.js';

/** Status and body; `fix_plain` and `hint` only split `fix` in two (fix-hints.test.ts checks them). */
const answer = (err: unknown) => {
  const e = toAppError(err);
  const { fix_plain: _plain, hint: _hint, ...error } = e.body().error;
  return { status: e.status, ...error };
};

const VENUE_CASES: [string, unknown, Record<string, unknown>][] = [
  [
    '1401 with Retry-After',
    venueError(1401, 429, 'x', { retryAfterSeconds: 3 }),
    {
      status: 429,
      code: 'RATE_LIMITED',
      message: 'x (code 1401)',
      fix: 'Wait 3 s, then try again.',
      venue_code: 1401,
    },
  ],
  [
    'a 4xx spec code',
    venueError(1003, 400, 'x'),
    {
      status: 422,
      code: 'VENUE_REFUSED',
      message: 'the venue refused (1003): x (code 1003)',
      venue_code: 1003,
    },
  ],
  ['5000', venueError(5000, 500, 'x'), { status: 502, code: 'VENUE_REFUSED' }],
  ['a stream code', venueError(4290, 0, 'x'), { status: 502, code: 'VENUE_REFUSED' }],
  ['1150', venueError(1150, 403, 'x'), { status: 403, code: 'ACCOUNT_SUSPENDED' }],
  [
    'an unknown code answered 404',
    venueError(1999, 404, 'x'),
    {
      status: 404,
      code: 'NOT_FOUND',
      message: 'the venue knows no such thing: x (code 1999)',
      venue_code: 1999,
    },
  ],
];

describe('toAppError by code', () => {
  it('transport: a closed socket is the venue down, a failed check is an attestation failure', () => {
    expect(answer(new NightjarError(TRANSPORT_CLOSED, { detail: 'x' }))).toEqual({
      status: 503,
      code: 'VENUE_UNAVAILABLE',
      message: 'the connection to the venue closed: x',
      fix: 'Check that the venue is running, then try again. (`npm start`; the app reconnects and checks it again)',
    });
    expect(answer(new NightjarError(COMPOSE_HASH, { detail: 'x' }))).toMatchObject({
      status: 503,
      code: 'ATTESTATION_FAILED',
      message: "the venue's transport attestation failed (ATTESTATION_COMPOSE_HASH, check (c)): x",
      venue_code: 'ATTESTATION_COMPOSE_HASH',
    });
    expect(answer(new NightjarError(EVIDENCE, { detail: 'x' })).message).toBe(
      "the venue's transport attestation failed (ATTESTATION_EVIDENCE): x",
    );
  });

  it('the faucet: none on this ledger is dev-only; unreachable is retryable; refused is a 400', () => {
    expect(answer(new NightjarError(FAUCET_UNAVAILABLE, { rpcCode: -32006, detail: 'x' }))).toMatchObject({
      status: 403,
      code: 'DEV_ONLY',
      venue_code: -32006,
    });
    expect(answer(new NightjarError(FAUCET_UNAVAILABLE, { rpcCode: -32005, detail: 'x' }))).toEqual({
      status: 503,
      code: 'FAUCET_UNAVAILABLE',
      message: 'x',
      fix: 'Check that the venue and its ledger are running, then try again. (`npm start`)',
      venue_code: -32005,
    });
    expect(answer(new NightjarError(FAUCET_REFUSED, { rpcCode: -32602, detail: 'x' }))).toMatchObject({
      status: 400,
      code: 'FAUCET_REFUSED',
    });
  });

  it.each(VENUE_CASES)('venue answers: %s', (_case, err, expected) => {
    expect(answer(err)).toMatchObject(expected);
  });

  it('notes, parameters, the ledger, the wallet file and the rest', () => {
    const held = answer(new NightjarError(NOTE_HELD, { mint: 'M', required: 1n, available: 0n, readyAt: 0 }));
    expect(held).toMatchObject({ status: 409, code: 'NOTE_HELD' });
    expect(held.fix).toBe("Wait until the deposit's hold ends (1970-01-01T00:00:00.000Z), then try again.");
    expect(answer(new NightjarError(PARAMETER, { detail: 'price off the tick: use 1.5' }))).toEqual({
      status: 400,
      code: 'BAD_REQUEST',
      message: 'price off the tick: use 1.5',
      fix: 'Change the value as the message says. (use 1.5)',
    });
    const refused = { instruction: 'withdraw', ledgerCode: 'NoteSpent', landed: true, signature: 's' };
    expect(answer(new NightjarError(LEDGER_REFUSED, refused))).toMatchObject({
      status: 502,
      code: 'LEDGER_REFUSED',
      fix: 'Sync the wallet: a note is already spent. (GET /api/v1/balances)',
      venue_code: 'NoteSpent',
    });
    const wallet = answer(new NightjarError(WALLET_DECRYPT, { detail: 'x' }));
    expect([wallet.status, wallet.code, wallet.message, wallet.fix]).toEqual([
      500,
      'WALLET',
      'cannot open the wallet',
      "Give the wallet's right password, or restore the file. (<data-dir>/app/wallet-password)",
    ]);
    expect(answer(new NightjarError(INVALID_RESPONSE, { detail: 'x' }))).toEqual({
      status: 500,
      code: 'INTERNAL',
      message: 'x',
      fix: "Use an SDK of the venue's release.",
    });
  });
});
