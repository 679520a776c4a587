import type { Client } from '../client.js';
import type { MintBalance } from '../wallet/wallet.js';
import { syncWallet } from './sync-wallet.js';

/** Options of `getBalances`. */
export interface GetBalancesParameters {
  /** Sync the wallet from the ledger first (default true). */
  sync?: boolean;
}

/** Per mint (Base58): available, locked in orders, pending settlement; atomic units. */
export type GetBalancesReturnType = Record<string, MintBalance>;

/**
 * Balances computed client-side from the wallet's notes (the venue never sends balances):
 * `available` (free notes), `locked` (notes backing resting orders), `pendingSettlement` (notes
 * locked on the ledger while a match settles).
 *
 * @example
 * const balances = await getBalances(client);
 * console.log(balances[USDC]?.available);
 */
export async function getBalances(
  client: Client,
  params: GetBalancesParameters = {},
): Promise<GetBalancesReturnType> {
  if (params.sync ?? true) await syncWallet(client);
  return client.wallet.balances();
}
