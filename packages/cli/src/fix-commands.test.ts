/** Every code's printed fix is the SDK's sentence (`err.fix`), the CLI's command after it in parentheses. */
import { sampleErrors } from '@nightjar/testkit/error-samples';
import { NightjarError, NIGHTJAR_ERROR__NOTE_NOT_FREE, venueError } from '@nightjar/sdk';
import { describe, expect, it } from 'vitest';
import { classifyError } from './classify-error.js';
import { cliFix } from './fix-commands.js';

describe("the CLI's fix", () => {
  it.each(sampleErrors().map((err) => [err.code, err] as const))(
    '%i: the SDK sentence first',
    (_code, err) => {
      const fix = cliFix(err);
      expect(fix.startsWith(err.fix)).toBe(true);
      expect(classifyError(err).message.endsWith(`: ${fix}`)).toBe(true);
    },
  );

  it('the command in parentheses, where the CLI has one', () => {
    const login = venueError(1101, 401, 'x');
    expect(cliFix(login)).toBe('Log in again; the token expired or was revoked. (`nightjar login`)');
    const order = new NightjarError(NIGHTJAR_ERROR__NOTE_NOT_FREE, {
      mint: 'M',
      required: 1n,
      available: 0n,
      commitment: 'c',
      reason: 'reserved',
    });
    expect(cliFix(order)).toBe(order.fix);
  });
});
