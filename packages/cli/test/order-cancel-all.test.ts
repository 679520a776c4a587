/**
 * `nightjar order cancel --all [--symbol S]`: what it prints (text and `--json`, the app's
 * cancel-all answer) and its exit code, over the SDK's fake venue; its flag rules. No venue: fast.
 */
import { fakeClient, orderStatusBody, refusing, type FakeRequest } from '@nightjar/testkit/sdk-fakes';
import { NIGHTJAR_ERROR__NETWORK, NightjarError } from '@nightjar/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../src/args.js';
import type { Context } from '../src/command.js';
import { orderCancel, runCancelAll } from '../src/commands/order-cancel.js';
import { EXIT } from '../src/exit-codes.js';
import { Output } from '../src/output.js';

const BID = '01'.repeat(16);
const ASK = '02'.repeat(16);
const ETH = '03'.repeat(16);

function venue(refuse?: string) {
  const gone = refusing(1301, 404, 'order not found');
  return fakeClient({
    routes: {
      'GET /account/orders': () => [
        orderStatusBody({ order_id: BID }),
        orderStatusBody({ order_id: ASK, side: 'ask' }),
        orderStatusBody({ order_id: ETH, symbol: 'ETH-USDC' }),
      ],
      'DELETE /orders/:id': (req: FakeRequest) =>
        req.params.id === refuse ? gone(req) : { order_id: req.params.id, status: 'cancelled' },
    },
  });
}

function captureStdout(): () => string {
  const chunks: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  return () => chunks.join('');
}

afterEach(() => vi.restoreAllMocks());

describe('order cancel --all', () => {
  it('--json: the cancelled ids and the refused ones with their stable code; exit 1 on a refusal', async () => {
    const stdout = captureStdout();
    const code = await runCancelAll(venue(ASK).client, new Output(true), undefined);
    expect(code).toBe(EXIT.refused);
    expect(JSON.parse(stdout())).toEqual({
      cancelled: [BID, ETH],
      failed: [{ order_id: ASK, code: 'NOT_FOUND', message: expect.any(String) }],
    });
  });

  it('--symbol: only that market, exit 0; the text names each order', async () => {
    const stdout = captureStdout();
    const { client, requests } = venue();
    expect(await runCancelAll(client, new Output(false), 'ETH-USDC')).toBe(EXIT.ok);
    expect(requests.filter((r) => r.method === 'DELETE').map((r) => r.params.id)).toEqual([ETH]);
    expect(stdout()).toBe(`order ${ETH} cancelled\n`);
  });

  it('an engine of a market on another engine not reached: named, its orders still live, exit 1', async () => {
    const stdout = captureStdout();
    const { client } = venue();
    const down = new NightjarError(NIGHTJAR_ERROR__NETWORK, { detail: 'engine https://b.test: refused' });
    const own = (await client.engines())[0]!;
    client.engines = async () => [own, { baseUrl: 'https://b.test', error: down }];
    expect(await runCancelAll(client, new Output(true), undefined)).toBe(EXIT.refused);
    expect(JSON.parse(stdout())).toEqual({
      cancelled: [BID, ASK, ETH],
      failed: [],
      unreachable: [
        { engine: 'https://b.test', code: 'NETWORK', message: expect.stringContaining('b.test') },
      ],
    });
  });

  it('nothing live: says so', async () => {
    const stdout = captureStdout();
    const { client } = fakeClient({ routes: { 'GET /account/orders': () => [] } });
    expect(await runCancelAll(client, new Output(false), undefined)).toBe(EXIT.ok);
    expect(stdout()).toBe('no live orders to cancel\n');
  });

  it('--all with --id, --symbol (or --market) without --all, or the two disagreeing: a usage error before any connection', async () => {
    const ctx = (values: Context['values']) =>
      ({
        values,
        out: new Output(true),
        paths: {} as Context['paths'],
        positionals: [],
        argv: [],
      }) as Context;
    await expect(orderCancel.run(ctx({ all: true, id: BID }))).rejects.toThrow(UsageError);
    await expect(orderCancel.run(ctx({ symbol: 'SOL-USDC' }))).rejects.toThrow(UsageError);
    // --market is --symbol's alias: alone it is still a market without --all; two that disagree are refused.
    await expect(orderCancel.run(ctx({ market: 'SOL-USDC' }))).rejects.toThrow('--symbol goes with --all');
    await expect(orderCancel.run(ctx({ all: true, symbol: 'SOL-USDC', market: 'ETH-USDC' }))).rejects.toThrow(
      '--symbol and --market name the same thing',
    );
  });
});
