/** The CLI's exit codes and messages per SDK error code, as they were before the one vocabulary. */
import {
  NightjarError,
  NIGHTJAR_ERROR__ATTESTATION_COMPOSE_HASH as COMPOSE_HASH,
  NIGHTJAR_ERROR__DEPOSIT_PENDING as DEPOSIT_PENDING,
  NIGHTJAR_ERROR__INSUFFICIENT_NOTES as INSUFFICIENT_NOTES,
  NIGHTJAR_ERROR__LINKS_FUNDING_ADDRESS as LINKS_FUNDING_ADDRESS,
  NIGHTJAR_ERROR__NETWORK as NETWORK,
  NIGHTJAR_ERROR__NOTE_HELD as NOTE_HELD,
  NIGHTJAR_ERROR__PARAMETER as PARAMETER,
  NIGHTJAR_ERROR__PROOF as PROOF,
  NIGHTJAR_ERROR__TRANSACTION_PENDING as TRANSACTION_PENDING,
  NIGHTJAR_ERROR__WALLET_DECRYPT as WALLET_DECRYPT,
  venueCodeOf,
  venueError,
  type VenueAnswerError,
} from '@nightjar/sdk';
import { describe, expect, it } from 'vitest';
import { classifyError } from './classify-error.js';
import { EXIT } from './exit-codes.js';

const MINT = 'So11111111111111111111111111111111111111112';

const LOGIN = 'token expired or credentials refused (CODE): run `nightjar login`';
/** A venue answer, its exit code and the printed line (`CODE`: its code). */
const VENUE_CASES: [string, NightjarError, number, string][] = [
  [
    'a spec code',
    venueError(1003, 400, 'low'),
    EXIT.refused,
    'venue refused (CODE, HTTP 400): low (code CODE)',
  ],
  ['1101', venueError(1101, 401, 'x'), EXIT.auth, LOGIN],
  [
    '1150',
    venueError(1150, 403, 'x'),
    EXIT.auth,
    'account suspended (CODE): ask an operator to run `nightjar account enable`',
  ],
  ['an unknown code answered 401', venueError(1999, 401, 'x'), EXIT.auth, LOGIN],
  [
    'an unknown 10xx code',
    venueError(1099, 400, 'x'),
    EXIT.refused,
    'venue refused (CODE, HTTP 400): x (code CODE)',
  ],
];

describe('classifyError by code', () => {
  it.each(VENUE_CASES)('venue answers: %s', (_case, err, exitCode, message) => {
    const code = venueCodeOf(err as VenueAnswerError);
    expect(classifyError(err)).toEqual({ exitCode, code, message: message.replaceAll('CODE', String(code)) });
  });

  it('transport, network and usage', () => {
    expect(classifyError(new NightjarError(COMPOSE_HASH, { detail: 'd' }))).toEqual({
      exitCode: EXIT.unreachable,
      message:
        'transport verification failed (ATTESTATION_COMPOSE_HASH): d; check the pinned root and compose hash in ready.json',
    });
    expect(classifyError(new NightjarError(NETWORK, { detail: 'down' }))).toEqual({
      exitCode: EXIT.unreachable,
      message: 'venue unreachable: down; is `npm start` running?',
    });
    expect(classifyError(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })).exitCode).toBe(
      EXIT.unreachable,
    );
    expect(classifyError(new NightjarError(PARAMETER, { detail: 'bad' }))).toEqual({
      exitCode: EXIT.usage,
      message: 'bad (see --help)',
    });
    expect(classifyError(new NightjarError(PARAMETER, { detail: 'see --help' })).message).toBe('see --help');
    const link = classifyError(new NightjarError(LINKS_FUNDING_ADDRESS, { recipient: 'R' }));
    expect(link).toMatchObject({ exitCode: EXIT.usage });
    expect(link.message.endsWith(' (see --help)')).toBe(true);
  });

  it('wallet: a file that does not open, too few notes, a proof', () => {
    expect(classifyError(new NightjarError(WALLET_DECRYPT, { detail: 'wrong password' }))).toEqual({
      exitCode: EXIT.wallet,
      message: 'cannot open the wallet: wrong NIGHTJAR_WALLET_PASSWORD or a damaged file',
    });
    const short = classifyError(
      new NightjarError(INSUFFICIENT_NOTES, { mint: MINT, required: 5n, available: 1n, fix: 'merge' }),
    );
    expect(short.exitCode).toBe(EXIT.wallet);
    expect(short.code).toBeUndefined();
    expect(short.message).toMatch(
      /^no free .* note covers .*: deposit more with `nightjar wallet deposit`, or wait for locked notes to free up$/,
    );
    const held = classifyError(
      new NightjarError(NOTE_HELD, { mint: MINT, required: 5n, available: 0n, readyAt: 0 }),
    );
    expect(held.message).toMatch(/random hold until 1970-01-01T00:00:00.000Z: deposit more with/);
    expect(classifyError(new NightjarError(PROOF, { detail: 'x' }))).toEqual({
      exitCode: EXIT.wallet,
      message: 'proof failed: x',
    });
  });

  it('waits that ran out, and codes with no row of their own', () => {
    const tx = new NightjarError(TRANSACTION_PENDING, {
      instruction: 'withdraw',
      signature: 's',
      waitedMs: 5,
    });
    expect(classifyError(tx)).toEqual({
      exitCode: EXIT.timeout,
      code: 'TRANSACTION_PENDING',
      message:
        'withdraw s sent, not landed after 5 ms; it may still land: `nightjar wallet notes` shows the notes once it lands',
    });
    const deposit = new NightjarError(DEPOSIT_PENDING, { signature: 's', commitment: 'c', waitedMs: 5 });
    expect(classifyError(deposit)).toEqual({ exitCode: EXIT.refused, message: deposit.message });
    expect(classifyError(new Error('boom'))).toEqual({ exitCode: EXIT.refused, message: 'boom' });
  });
});
