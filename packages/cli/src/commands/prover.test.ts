import { describe, expect, it } from 'vitest';
import { UsageError } from '../args.js';
import type { Context } from '../command.js';
import { prover } from './prover.js';
import { proverPoolOption } from './start.js';

const ctx = (values: Context['values']) => ({ values }) as unknown as Context;

describe('nightjar prover', () => {
  it('wants an https:// engine URL and a positive thread count', async () => {
    await expect(prover.run(ctx({ engine: 'http://engine:8443' }))).rejects.toThrow(UsageError);
    await expect(prover.run(ctx({ engine: 'https://engine:8443', threads: '0' }))).rejects.toThrow(
      UsageError,
    );
  });
});

describe('nightjar start --prover-pool', () => {
  it('takes a postgres:// URL and passes the lock key along', () => {
    expect(proverPoolOption(undefined, undefined)).toEqual({});
    expect(() => proverPoolOption('https://db:5432/q', undefined)).toThrow(UsageError);
    expect(proverPoolOption('postgres://u@db:5432/q', undefined)).toEqual({
      proverPool: { queueUrl: 'postgres://u@db:5432/q' },
    });
  });
});
