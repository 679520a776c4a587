/**
 * The client's ledger throws typed SDK errors (issue 20, item 8): a JSON-RPC error reply is a
 * `LedgerError` with its `rpcCode` and method, an unreachable or silent ledger a retryable
 * `LedgerUnavailableError` naming its URL and the fix; answers and everything else pass through.
 */
import { RpcError, RpcLedgerClient, type LedgerClient } from '@nightjar/ledger/client';
import { describe, expect, it } from 'vitest';
import { LedgerError, LedgerUnavailableError, NightjarError, ParameterError } from '../errors.js';
import { ledgerError, ledgerRpcCode, typedLedger } from './typed-ledger.js';

/** A ledger whose `getNonce` throws `failure` (or answers '7'). */
function fakeLedger(failure?: unknown) {
  const calls: string[] = [];
  const inner = {
    url: 'http://127.0.0.1:1',
    getNonce: async (p: { signer: string }) => {
      calls.push(p.signer);
      if (failure !== undefined) throw failure;
      return '7';
    },
    subscribe: () => () => calls.push('unsubscribed'),
    close: async () => undefined,
  } as unknown as LedgerClient & { url: string };
  return { inner, calls };
}

const failure = async (ledger: LedgerClient) =>
  ledger.getNonce({ signer: 'S' }).then(
    () => undefined,
    (e: unknown) => e,
  );

describe('typedLedger', () => {
  it('passes answers, params, non-table members and subscriptions through', async () => {
    const { inner, calls } = fakeLedger();
    const ledger = typedLedger(inner);
    expect(await ledger.getNonce({ signer: 'A' })).toBe('7');
    expect(calls).toEqual(['A']);
    expect(ledger.url).toBe('http://127.0.0.1:1');
    ledger.subscribe(() => undefined)();
    expect(calls).toContain('unsubscribed');
    expect(typedLedger(ledger)).toBe(ledger); // wrapping twice is wrapping once
  });

  it('an RPC error reply is a LedgerError with rpcCode and method, the original as cause', async () => {
    const rpc = new RpcError(-32602, 'signer must be a Base58 address');
    const err = await failure(typedLedger(fakeLedger(rpc).inner));
    expect(err).toBeInstanceOf(LedgerError);
    expect(err).not.toBeInstanceOf(LedgerUnavailableError);
    expect(err).toMatchObject({
      code: 'LEDGER_ERROR',
      rpcCode: -32602,
      method: 'getNonce',
      retryable: false,
      cause: rpc,
    });
    expect((err as Error).message).toBe(
      'the ledger refused getNonce (JSON-RPC -32602): signer must be a Base58 address',
    );
    expect(ledgerRpcCode(err)).toBe(-32602);
    expect(ledgerRpcCode(rpc)).toBe(-32602);
    expect(ledgerRpcCode(new Error('x'))).toBeUndefined();
    // A busy ledger may answer later.
    expect(await failure(typedLedger(fakeLedger(new RpcError(-32007, 'busy')).inner))).toMatchObject({
      retryable: true,
    });
  });

  it('an unreachable or silent ledger is a retryable LedgerUnavailableError naming the URL and the fix', async () => {
    for (const [thrown, rpcCode] of [
      [new RpcError(-32005, 'ledger unreachable: fetch failed'), -32005],
      [new RpcError(-32004, 'no response from the node'), -32004],
      [Object.assign(new TypeError('fetch failed'), { cause: new Error('connect ECONNREFUSED') }), -32005],
      [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }), -32005],
      [new DOMException('The operation was aborted due to timeout', 'TimeoutError'), -32005],
    ] as const) {
      const err = await failure(typedLedger(fakeLedger(thrown).inner));
      expect(err).toBeInstanceOf(LedgerUnavailableError);
      expect(err).toBeInstanceOf(LedgerError);
      expect(err).toMatchObject({
        code: 'LEDGER_UNAVAILABLE',
        rpcCode,
        method: 'getNonce',
        url: 'http://127.0.0.1:1',
        retryable: true,
        cause: thrown,
      });
      expect((err as Error).message).toMatch(
        /^the ledger at http:\/\/127\.0\.0\.1:1 is unavailable \(getNonce: .+\): is the venue running \(`npm start`\)\? then try again$/,
      );
    }
  });

  it('anything else a ledger throws is a LedgerError (-32603); an SDK error passes as it is', async () => {
    const bug = new Error('boom');
    expect(await failure(typedLedger(fakeLedger(bug).inner))).toMatchObject({
      code: 'LEDGER_ERROR',
      rpcCode: -32603,
      message: 'the ledger call getNonce failed: boom',
      cause: bug,
    });
    const own = new ParameterError('bad');
    expect(await failure(typedLedger(fakeLedger(own).inner))).toBe(own);
    expect(ledgerError('thrown string', 'getVault')).toBeInstanceOf(NightjarError);
  });

  it('a real RpcLedgerClient on a closed port: LedgerUnavailableError with its URL', async () => {
    const url = 'http://127.0.0.1:9'; // discard: nothing listens
    const inner = new RpcLedgerClient(url);
    try {
      const err = await typedLedger(inner)
        .getBalance({ owner: 'A', mint: 'B' })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LedgerUnavailableError);
      expect((err as Error).message).toContain(`the ledger at ${url} is unavailable (getBalance: `);
      expect((err as Error).message).toContain('`npm start`');
    } finally {
      await inner.close();
    }
  });
});
