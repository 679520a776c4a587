/** The CLI's exit codes per SDK error code as before the one vocabulary; each line ends with the SDK's fix. */
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

const LOGIN =
  'token expired or credentials refused (CODE): Log in again; the token expired or was revoked. (`nightjar login`)';
const CORRECT = 'Correct the request; the message says what is wrong.';
/** A venue answer, its exit code and the printed line (`CODE`: its code). */
const VENUE_CASES: [string, NightjarError, number, string][] = [
  [
    'a spec code',
    venueError(1003, 400, 'low'),
    EXIT.refused,
    'venue refused (CODE, HTTP 400): low (code CODE): Back the order with a note that covers its cost plus the fee.',
  ],
  ['1101', venueError(1101, 401, 'x'), EXIT.auth, LOGIN],
  [
    '1150',
    venueError(1150, 403, 'x'),
    EXIT.auth,
    'account suspended (CODE): Ask an operator to enable the account, or use an admin account. (an operator runs `nightjar account enable`)',
  ],
  ['an unknown code answered 401', venueError(1999, 401, 'x'), EXIT.auth, LOGIN],
  [
    'an unknown 10xx code',
    venueError(1099, 400, 'x'),
    EXIT.refused,
    `venue refused (CODE, HTTP 400): x (code CODE): ${CORRECT}`,
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
        "transport verification failed (ATTESTATION_COMPOSE_HASH): d: Check the pinned compose hash and measurements against the release you audited; nothing was sent. (ready.json's platform_root and compose_hash)",
    });
    expect(classifyError(new NightjarError(NETWORK, { detail: 'down' }))).toEqual({
      exitCode: EXIT.unreachable,
      message: 'venue unreachable: down: Check that the venue is running, then try again. (`npm start`)',
    });
    expect(classifyError(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })).exitCode).toBe(
      EXIT.unreachable,
    );
    expect(classifyError(new NightjarError(PARAMETER, { detail: 'bad' }))).toEqual({
      exitCode: EXIT.usage,
      message: 'bad: Change the value as the message says. (see --help)',
    });
    expect(classifyError(new NightjarError(PARAMETER, { detail: 'see --help' })).message).toBe(
      'see --help: Change the value as the message says.',
    );
    const link = classifyError(new NightjarError(LINKS_FUNDING_ADDRESS, { recipient: 'R' }));
    expect(link).toMatchObject({ exitCode: EXIT.usage });
    expect(link.message.endsWith(' (see --help)')).toBe(true);
  });

  it('wallet: a file that does not open, too few notes, a proof', () => {
    expect(classifyError(new NightjarError(WALLET_DECRYPT, { detail: 'wrong password' }))).toEqual({
      exitCode: EXIT.wallet,
      message:
        "cannot open the wallet: Give the wallet's right password, or restore the file. (NIGHTJAR_WALLET_PASSWORD)",
    });
    const short = classifyError(
      new NightjarError(INSUFFICIENT_NOTES, { mint: MINT, required: 5n, available: 1n }),
    );
    expect(short.exitCode).toBe(EXIT.wallet);
    expect(short.code).toBeUndefined();
    expect(short.message).toMatch(
      /^no free .* note covers .*\): Deposit more .*, or merge smaller notes\. \(`nightjar wallet deposit`, `nightjar wallet merge`\)$/,
    );
    const held = classifyError(
      new NightjarError(NOTE_HELD, { mint: MINT, required: 5n, available: 0n, readyAt: 0 }),
    );
    expect(held.message).toMatch(
      /random hold until 1970-01-01T00:00:00.000Z: Wait until the deposit's hold ends/,
    );
    expect(classifyError(new NightjarError(PROOF, { detail: 'x' }))).toEqual({
      exitCode: EXIT.wallet,
      message: 'proof failed: x: Try again.',
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
        'withdraw s sent, not landed after 5 ms; it may still land: Wait: the wallet finds its notes once it lands. (`nightjar wallet notes`)',
    });
    const deposit = new NightjarError(DEPOSIT_PENDING, { signature: 's', commitment: 'c', waitedMs: 5 });
    expect(classifyError(deposit)).toEqual({
      exitCode: EXIT.refused,
      message: `${deposit.message}: ${deposit.fix} (\`nightjar wallet notes\`)`,
    });
    expect(classifyError(new Error('boom'))).toEqual({ exitCode: EXIT.refused, message: 'boom' });
  });
});
