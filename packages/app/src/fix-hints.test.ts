/** Every code's `fix` is the SDK's sentence (`err.fix`), the app's hint after it in parentheses. */
import { sampleErrors } from '@nightjar/testkit/error-samples';
import { venueError } from '@nightjar/sdk';
import { describe, expect, it } from 'vitest';
import { toAppError } from './errors.js';

describe("the app's fix", () => {
  it.each(sampleErrors().map((err) => [err.code, err] as const))(
    '%i: the SDK sentence first',
    (_code, err) => {
      expect(toAppError(err).fix?.startsWith(err.fix)).toBe(true);
    },
  );

  it('the route or file in parentheses, where the app has one', () => {
    expect(toAppError(venueError(1150, 403, 'x')).fix).toBe(
      'Ask an operator to enable the account, or use an admin account. (POST /api/v1/operator/accounts/{api_key}/enable)',
    );
  });

  it('the body also carries the plain sentence (what a screen shows) and the hint apart', () => {
    expect(toAppError(venueError(1150, 403, 'x')).body().error).toMatchObject({
      fix_plain: 'Ask an operator to enable the account, or use an admin account.',
      hint: 'POST /api/v1/operator/accounts/{api_key}/enable',
    });
  });

  it.each(sampleErrors().map((err) => [err.code, err] as const))(
    '%i: the plain sentence names no API route',
    (_code, err) => {
      const body = toAppError(err).body().error;
      expect(body.fix_plain ?? body.fix ?? '').not.toMatch(/\/api\/v1|\b(GET|POST|PATCH|DELETE) \//);
    },
  );
});
