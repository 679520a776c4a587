import type { Client } from '../client.js';
import { formatUnits } from '../core/utils/decimal.js';
import type { MintBalance } from '../wallet/wallet.js';
import { venueAssets } from '../core/assets.js';
import { syncWallet } from './sync-wallet.js';
import type { NightjarError } from '../core/errors/index.js';

/** Options of `getBalances`. */
export interface GetBalancesParameters {
  /** Sync the wallet from the ledger first (default true). */
  sync?: boolean;
  /**
   * Key the result by mint (default: `Record<mint, MintBalance>`, atomic units) or by the asset's
   * symbol (`'symbol'`: `Record<'USDC', AssetBalance>`, every asset the venue trades, with human units).
   */
  by?: 'mint' | 'symbol';
}

/** Per mint (Base58): available, locked in orders, pending settlement; atomic units. */
export type GetBalancesReturnType = Record<string, MintBalance>;

/** One asset's balance: atomic units (as `MintBalance`), its mint and decimals, and the same in human units. */
export interface AssetBalance extends MintBalance {
  symbol: string;
  mint: string;
  decimals: number;
  /** The four amounts as human decimal strings (`'12.5'`). */
  formatted: Record<keyof MintBalance, string>;
}

/** Per asset symbol (`USDC`, `SOL`): every asset the venue's markets trade, zero when the wallet holds none. */
export type GetBalancesBySymbolReturnType = Record<string, AssetBalance>;

const ZERO: MintBalance = { available: 0n, locked: 0n, pendingSettlement: 0n, pending: 0n };

/**
 * Balances computed client-side from the wallet's notes (the venue never sends balances):
 * `available` (free notes), `locked` (notes backing resting orders), `pendingSettlement` (notes
 * locked on the ledger while a match settles), `pending` (not landed yet). Keyed by mint in atomic
 * units, or with `by: 'symbol'` by the asset's symbol, with human units beside.
 *
 * @example
 * const balances = await getBalances(client, { by: 'symbol' });
 * console.log(balances.USDC?.formatted.available); // '187.5'
 */
export async function getBalances(
  client: Client,
  params: GetBalancesParameters & { by: 'symbol' },
): Promise<GetBalancesBySymbolReturnType>;
export async function getBalances(
  client: Client,
  params?: GetBalancesParameters & { by?: 'mint' },
): Promise<GetBalancesReturnType>;
/** Either key (an `AssetBalance` is a `MintBalance`). */
export async function getBalances(
  client: Client,
  params?: GetBalancesParameters,
): Promise<GetBalancesReturnType>;
export async function getBalances(
  client: Client,
  params: GetBalancesParameters = {},
): Promise<GetBalancesReturnType | GetBalancesBySymbolReturnType> {
  if (params.sync ?? true) await syncWallet(client);
  const byMint = client.wallet.balances();
  if (params.by !== 'symbol') return byMint;
  const out: GetBalancesBySymbolReturnType = {};
  for (const a of await venueAssets(client)) {
    const b = byMint[a.mint] ?? ZERO;
    const f = (v: bigint) => formatUnits(v, a.decimals);
    out[a.symbol] = {
      ...b,
      symbol: a.symbol,
      mint: a.mint,
      decimals: a.decimals,
      formatted: {
        available: f(b.available),
        locked: f(b.locked),
        pendingSettlement: f(b.pendingSettlement),
        pending: f(b.pending),
      },
    };
  }
  return out;
}

/** What `getBalances` throws: the SDK's typed errors (`NightjarError` and its subclasses). */
export type GetBalancesErrorType = NightjarError;
