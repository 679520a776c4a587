import {
  NightjarError,
  NIGHTJAR_ERROR__LEDGER_ERROR,
  NIGHTJAR_ERROR__LEDGER_UNAVAILABLE,
} from '@nightjar/sdk';
import { describe, expect, it } from 'vitest';
import { toAppError } from './errors.js';

describe('toAppError on the ledger', () => {
  it('an unreachable ledger is a 503 LEDGER_UNAVAILABLE naming the fix', () => {
    const e = toAppError(
      new NightjarError(NIGHTJAR_ERROR__LEDGER_UNAVAILABLE, {
        method: 'getNonce',
        url: 'http://127.0.0.1:1',
        rpcCode: -32005,
        detail: 'fetch failed',
      }),
    );
    expect(e.status).toBe(503);
    expect(e.body().error).toMatchObject({ code: 'LEDGER_UNAVAILABLE', venue_code: -32005 });
    expect(e.body().error.fix).toContain('npm start');
  });

  it('a refused ledger read is a 502 LEDGER_ERROR with its JSON-RPC code', () => {
    const e = toAppError(
      new NightjarError(NIGHTJAR_ERROR__LEDGER_ERROR, {
        method: 'getLeaves',
        rpcCode: -32602,
        detail: 'bad params',
      }),
    );
    expect(e.status).toBe(502);
    expect(e.body().error).toMatchObject({ code: 'LEDGER_ERROR', venue_code: -32602 });
  });
});
