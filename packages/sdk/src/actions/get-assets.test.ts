/**
 * Assets by symbol, errors in the asset's units, and the faucet's typed errors (issue 20, item 8),
 * over a stand-in client that answers `GET /instruments` and a ledger whose faucet throws the
 * ledger's JSON-RPC errors.
 */
import { RpcError } from '@nightjar/protocol/ledger-client';
import type { Instrument } from '@nightjar/protocol';
import { describe, expect, it } from 'vitest';
import type { Client } from '../client.js';
import { getAssets } from './get-assets.js';
import { resolveAsset } from '../core/assets.js';
import { requestFaucet } from './request-faucet.js';
import {
  FAUCET_CODES,
  isNightjarError,
  NIGHTJAR_ERROR__INSUFFICIENT_NOTES,
  NIGHTJAR_ERROR__NOTES_PENDING,
  NightjarError,
  PARAMETER_CODES,
} from '../core/errors/index.js';

const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const MARKET = {
  symbol: 'SOL-USDC',
  market_id: '11111111111111111111111111111111',
  base_mint: SOL,
  quote_mint: USDC,
  base_decimals: 9,
  quote_decimals: 6,
  price_scale: 1_000_000_000n,
  tick_size: 1_000n,
  min_order_size: 1_000_000n,
  fee_bps: 10n,
  trading_enabled: true,
} satisfies Instrument;

/** A client with one market and a faucet that throws `faucetError` (or credits). */
function standIn(faucetError?: Error): { client: Client; airdrops: unknown[] } {
  const airdrops: unknown[] = [];
  const client = {
    request: async (path: string) => {
      if (path !== '/instruments') throw new Error(`unexpected ${path}`);
      return [MARKET];
    },
    ledger: {
      requestAirdrop: async (p: unknown) => {
        if (faucetError) throw faucetError;
        airdrops.push(p);
        return { signature: 'sig' };
      },
    },
    wallet: { keys: { funding: { address: 'Funding1111111111111111111111111111111111' } } },
  } as unknown as Client;
  return { client, airdrops };
}

describe('assets by symbol', () => {
  it('lists the venue’s assets and resolves a symbol (any case) or a mint', async () => {
    const { client } = standIn();
    expect(await getAssets(client)).toEqual([
      { symbol: 'SOL', mint: SOL, decimals: 9 },
      { symbol: 'USDC', mint: USDC, decimals: 6 },
    ]);
    expect((await resolveAsset(client, 'usdc')).mint).toBe(USDC);
    expect((await resolveAsset(client, SOL)).symbol).toBe('SOL');
    const err = await resolveAsset(client, 'DOGE').catch((e: unknown) => e);
    expect(isNightjarError(err, PARAMETER_CODES)).toBe(true);
    expect((err as Error).message).toBe(
      'unknown asset DOGE: this venue trades SOL, USDC (give one of them, or its mint)',
    );
  });

  it('note errors speak in the asset’s units and name the fix', async () => {
    await getAssets(standIn().client); // the registry knows SOL-USDC's assets
    expect(
      new NightjarError(NIGHTJAR_ERROR__INSUFFICIENT_NOTES, {
        mint: USDC,
        required: 150_300_000n,
        available: 100_000_000n,
      }).message,
    ).toBe('no free USDC note covers 150.3 USDC (largest free note: 100 USDC)');
    expect(
      new NightjarError(NIGHTJAR_ERROR__INSUFFICIENT_NOTES, { mint: USDC, required: 1n, available: 0n }).fix,
    ).toBe('Deposit more USDC, or merge smaller notes.');
    expect(
      new NightjarError(NIGHTJAR_ERROR__NOTES_PENDING, {
        mint: SOL,
        required: 1_500_000_000n,
        available: 0n,
        waitedMs: 20_000,
      }).message,
    ).toMatch(
      /^no free SOL note covering 1.5 SOL is in the venue's tree yet \(waited 20.0 s; largest usable note: 0 SOL\)$/,
    );
  });
});

describe('requestFaucet', () => {
  it('credits the funding account with the human amount in atomic units', async () => {
    const { client, airdrops } = standIn();
    const r = await requestFaucet(client, { asset: 'USDC', amount: '12.5' });
    expect(r).toMatchObject({ mint: USDC, amount: 12_500_000n });
    expect(airdrops).toEqual([
      { owner: 'Funding1111111111111111111111111111111111', mint: USDC, amount: '12500000' },
    ]);
  });

  it('a production ledger: FAUCET_UNAVAILABLE FAUCET_UNAVAILABLE naming the fix', async () => {
    const { client } = standIn(new RpcError(-32006, 'requestAirdrop is only available in dev mode'));
    const err = await requestFaucet(client, { asset: 'USDC', amount: '200' }).catch((e: unknown) => e);
    expect(isNightjarError(err, FAUCET_CODES)).toBe(true);
    expect(err).toMatchObject({
      codeName: 'FAUCET_UNAVAILABLE',
      retryable: false,
      context: { rpcCode: -32006 },
    });
    expect((err as Error).message).toContain('this ledger has no faucet (a production venue) to fund ');
    expect((err as Error).message).toContain('with 200 USDC');
    expect((err as { fix: string }).fix).toContain('this ledger has no faucet');
  });

  it('an unreachable ledger is retryable; a refused request is FAUCET_REFUSED', async () => {
    const down = await requestFaucet(standIn(new RpcError(-32005, 'ledger unreachable')).client, {
      asset: 'SOL',
      amount: '1',
    }).catch((e: unknown) => e);
    expect(down).toMatchObject({ codeName: 'FAUCET_UNAVAILABLE', retryable: true });
    const refused = await requestFaucet(standIn(new RpcError(-32602, 'no such mint')).client, {
      asset: 'SOL',
      amount: '1',
    }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ codeName: 'FAUCET_REFUSED', context: { rpcCode: -32602 } });
  });
});
