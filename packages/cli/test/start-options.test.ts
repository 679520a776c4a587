/** `nightjar start`'s options that reach the engine and the ledger client (issue 30 items 4 and 5). */
import { DEFAULT_FILL_PUSH_HOLD_MS } from '@nightjar/engine';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/args.js';
import {
  fillPushHoldOption,
  ledgerTlsPinOption,
  MAX_FILL_PUSH_HOLD_MS,
  START_USAGE,
} from '../src/commands/start.js';
import { scaleOutOptions } from '../src/commands/start-options.js';

describe('nightjar start --fill-push-hold-ms', () => {
  it("is the engine's fillPushHold.maxDelayMs: its default when absent, 0..10000 given", () => {
    expect(fillPushHoldOption(undefined)).toBe(DEFAULT_FILL_PUSH_HOLD_MS);
    expect(fillPushHoldOption('0')).toBe(0);
    expect(fillPushHoldOption('2500')).toBe(2500);
    expect(fillPushHoldOption(String(MAX_FILL_PUSH_HOLD_MS))).toBe(10_000);
    expect(START_USAGE).toContain('--fill-push-hold-ms N');
  });

  it('refuses what is out of range or not a whole number of milliseconds', () => {
    for (const bad of ['10001', '-1', '1.5', '', 'x', '1e3'])
      expect(() => fillPushHoldOption(bad)).toThrow(UsageError);
    expect(() => fillPushHoldOption('10001')).toThrow('--fill-push-hold-ms must be 0..10000, got 10001');
  });
});

describe('nightjar start --ledger-tls-pin', () => {
  const pin = 'AB'.repeat(32);
  it('pins an https --ledger (lower-cased); absent, nothing is pinned', () => {
    expect(ledgerTlsPinOption('https://ledger.example:8900/', pin)).toBe('ab'.repeat(32));
    expect(ledgerTlsPinOption('https://ledger.example:8900/', undefined)).toBeUndefined();
    expect(ledgerTlsPinOption(undefined, undefined)).toBeUndefined();
  });

  it('is refused without an https --ledger, or when it is not 64 hex digits', () => {
    expect(() => ledgerTlsPinOption(undefined, pin)).toThrow(/https:\/\/ --ledger/);
    expect(() => ledgerTlsPinOption('http://127.0.0.1:8899/', pin)).toThrow(UsageError);
    expect(() => ledgerTlsPinOption('https://ledger.example/', 'abc')).toThrow(/64 hex/);
  });
});

describe('nightjar start --store', () => {
  it('takes a postgres:// URL to the engine, with the URL clients reach this engine at; absent, the SQLite file', () => {
    const url = 'https://10.0.0.2:8443';
    expect(scaleOutOptions('postgres://u:p@db:5432/nightjar', url)).toEqual({
      store: 'postgres://u:p@db:5432/nightjar',
      publicUrl: url,
    });
    expect(scaleOutOptions('postgresql://db/nightjar', url).store).toBe('postgresql://db/nightjar');
    expect(scaleOutOptions(undefined, undefined)).toEqual({});
    expect(START_USAGE).toContain('--store URL');
  });

  it('refuses anything else, and a store without the public URL the other engines list', () => {
    for (const bad of ['', 'sqlite://x', 'db:5432'])
      expect(() => scaleOutOptions(bad, 'https://h:1')).toThrow('--store takes a PostgreSQL URL');
    expect(() => scaleOutOptions('postgres://db/n', undefined)).toThrow('--store needs --public-url');
  });
});
