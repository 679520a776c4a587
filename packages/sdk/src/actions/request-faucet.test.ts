/**
 * `requestFaucet`: the dev ledger's airdrop in atomic units, to the funding account or `owner`;
 * amounts that are not positive never reach the ledger. (The ledger's refusals, `FAUCET_UNAVAILABLE`
 * and `FAUCET_REFUSED`, are asserted in get-assets.test.ts.)
 */
import { FAKE_SOL, FAKE_USDC, fakeClient } from '@nightjar/testkit/sdk-fakes';
import type { LedgerClient } from '@nightjar/protocol/ledger-client';
import { describe, expect, it } from 'vitest';
import { requestFaucet } from './request-faucet.js';

/** A ledger whose faucet records each airdrop, or throws `failure`. */
function faucet(failure?: Error) {
  const airdrops: unknown[] = [];
  const ledger = {
    requestAirdrop: async (p: unknown) => {
      if (failure) throw failure;
      airdrops.push(p);
      return { signature: `sig-${airdrops.length}` };
    },
  } as unknown as LedgerClient;
  return { ledger, airdrops };
}

describe('requestFaucet', () => {
  it('takes a mint and atomic units, or a symbol and human units; credits `owner` when given', async () => {
    const { ledger, airdrops } = faucet();
    const { client, wallet } = fakeClient({ ledger });
    const funding = wallet.keys.funding.address;
    expect(await requestFaucet(client, { mint: FAKE_SOL, amount: 7n })).toEqual({
      signature: 'sig-1',
      owner: funding,
      mint: FAKE_SOL,
      amount: 7n,
    });
    const other = 'Other11111111111111111111111111111111111111';
    expect(await requestFaucet(client, { asset: 'sol', amount: '0.5', owner: other })).toMatchObject({
      owner: other,
      amount: 500_000_000n,
    });
    expect(airdrops).toEqual([
      { owner: funding, mint: FAKE_SOL, amount: '7' },
      { owner: other, mint: FAKE_SOL, amount: '500000000' },
    ]);
  });

  it('zero is refused before the ledger; a failure without a JSON-RPC code is thrown as it is', async () => {
    const { ledger, airdrops } = faucet();
    const zero = await requestFaucet(fakeClient({ ledger }).client, { asset: 'USDC', amount: '0' }).catch(
      (e: unknown) => e,
    );
    expect(zero).toMatchObject({ message: 'a faucet request must be positive: give an amount above 0' });
    expect(airdrops).toEqual([]);
    const odd = new Error('socket hang up');
    const thrown = await requestFaucet(fakeClient(faucet(odd)).client, { mint: FAKE_USDC, amount: 1n }).catch(
      (e: unknown) => e,
    );
    expect(thrown).toBe(odd);
  });
});
