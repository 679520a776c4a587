/**
 * The client's ledger throws typed SDK errors (issue 20, item 8): a JSON-RPC error reply is a
 * `LEDGER_ERROR` with its `rpcCode` and method, an unreachable or silent ledger a retryable
 * `LEDGER_UNAVAILABLE` naming its URL and the fix; answers and everything else pass through.
 */
import { RpcError, RpcLedgerClient, type LedgerClient } from '@nightjar/protocol/ledger-client';
import { describe, expect, it } from 'vitest';
import { ledgerError, ledgerRpcCode, typedLedger } from './typed-ledger.js';
import {
  isNightjarError,
  LEDGER_ERROR_CODES,
  NIGHTJAR_ERROR__LEDGER_UNAVAILABLE,
  NIGHTJAR_ERROR__PARAMETER,
  NightjarError,
} from '../errors/index.js';

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

  it('an RPC error reply is a LEDGER_ERROR with rpcCode and method, the original as cause', async () => {
    const rpc = new RpcError(-32602, 'signer must be a Base58 address');
    const err = await failure(typedLedger(fakeLedger(rpc).inner));
    expect(isNightjarError(err, LEDGER_ERROR_CODES)).toBe(true);
    expect(isNightjarError(err, NIGHTJAR_ERROR__LEDGER_UNAVAILABLE)).toBe(false);
    expect(err).toMatchObject({
      codeName: 'LEDGER_ERROR',
      retryable: false,
      cause: rpc,
      context: { rpcCode: -32602, method: 'getNonce' },
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

  it('an unreachable or silent ledger is a retryable LEDGER_UNAVAILABLE naming the URL and the fix', async () => {
    for (const [thrown, rpcCode] of [
      [new RpcError(-32005, 'ledger unreachable: fetch failed'), -32005],
      [new RpcError(-32004, 'no response from the node'), -32004],
      [Object.assign(new TypeError('fetch failed'), { cause: new Error('connect ECONNREFUSED') }), -32005],
      [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }), -32005],
      [new DOMException('The operation was aborted due to timeout', 'TimeoutError'), -32005],
    ] as const) {
      const err = await failure(typedLedger(fakeLedger(thrown).inner));
      expect(isNightjarError(err, NIGHTJAR_ERROR__LEDGER_UNAVAILABLE)).toBe(true);
      expect(isNightjarError(err, LEDGER_ERROR_CODES)).toBe(true);
      expect(err).toMatchObject({
        codeName: 'LEDGER_UNAVAILABLE',
        retryable: true,
        cause: thrown,
        context: { rpcCode, method: 'getNonce', url: 'http://127.0.0.1:1' },
      });
      expect((err as Error).message).toMatch(
        /^the ledger at http:\/\/127\.0\.0\.1:1 is unavailable \(getNonce: .+\)$/,
      );
    }
  });

  it('anything else a ledger throws is a LEDGER_ERROR (-32603); an SDK error passes as it is', async () => {
    const bug = new Error('boom');
    expect(await failure(typedLedger(fakeLedger(bug).inner))).toMatchObject({
      codeName: 'LEDGER_ERROR',
      message: 'the ledger call getNonce failed: boom',
      cause: bug,
      context: { rpcCode: -32603 },
    });
    const own = new NightjarError(NIGHTJAR_ERROR__PARAMETER, { detail: 'bad' });
    expect(await failure(typedLedger(fakeLedger(own).inner))).toBe(own);
    expect(ledgerError('thrown string', 'getVault')).toSatisfy((e: unknown) => isNightjarError(e));
  });

  it('a real RpcLedgerClient on a closed port: LEDGER_UNAVAILABLE with its URL', async () => {
    const url = 'http://127.0.0.1:9'; // discard: nothing listens
    const inner = new RpcLedgerClient(url);
    try {
      const err = await typedLedger(inner)
        .getBalance({ owner: 'A', mint: 'B' })
        .catch((e: unknown) => e);
      expect(isNightjarError(err, NIGHTJAR_ERROR__LEDGER_UNAVAILABLE)).toBe(true);
      expect((err as Error).message).toContain(`the ledger at ${url} is unavailable (getBalance: `);
      expect((err as { fix: string }).fix).toContain('venue and its ledger are running');
    } finally {
      await inner.close();
    }
  });
});
