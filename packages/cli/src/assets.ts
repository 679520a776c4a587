/** Asset names (`SOL`, `USDC`, from the instrument symbols) or Base58 mints, and their decimals. */
import { getInstruments, type Client } from '@nightjar/sdk';
import { UsageError } from './args.js';

export interface Asset {
  name: string;
  mint: string;
  decimals: number;
}

export async function listAssets(client: Client): Promise<Asset[]> {
  const byMint = new Map<string, Asset>();
  for (const i of await getInstruments(client)) {
    const [base = i.base_mint, quote = i.quote_mint] = i.symbol.split('-');
    byMint.set(i.base_mint, { name: base, mint: i.base_mint, decimals: i.base_decimals });
    byMint.set(i.quote_mint, { name: quote, mint: i.quote_mint, decimals: i.quote_decimals });
  }
  return [...byMint.values()];
}

export async function resolveAsset(client: Client, nameOrMint: string): Promise<Asset> {
  const assets = await listAssets(client);
  const found = assets.find(
    (a) => a.mint === nameOrMint || a.name.toUpperCase() === nameOrMint.toUpperCase(),
  );
  if (!found)
    throw new UsageError(`unknown asset ${nameOrMint}: one of ${assets.map((a) => a.name).join(', ')}`);
  return found;
}
