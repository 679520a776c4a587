/**
 * The assets (symbol and decimals by mint) this process has learnt from venues' instruments, so
 * errors thrown deep in the note code can speak in the asset's units ("12.5 USDC") without a
 * request. Mints are Base58 addresses, unique across venues: one registry serves every client.
 * `getAssets`/`getInstruments` and order preparation fill it.
 */
import type { Instrument } from '@nightjar/protocol';

/** An asset a market trades: its symbol (`SOL`, `USDC`, from the instrument's symbol), mint and decimals. */
export interface Asset {
  symbol: string;
  /** Base58. */
  mint: string;
  decimals: number;
}

const byMint = new Map<string, Asset>();
const bySymbol = new Map<string, Instrument>();

/** Records the market's instrument and both its assets (`SOL` and `USDC` of `SOL-USDC`). */
export function registerInstrument(inst: Instrument): void {
  bySymbol.set(inst.symbol, inst);
  const [base, quote] = inst.symbol.split('-');
  byMint.set(inst.base_mint, {
    symbol: base || inst.base_mint,
    mint: inst.base_mint,
    decimals: inst.base_decimals,
  });
  byMint.set(inst.quote_mint, {
    symbol: quote || inst.quote_mint,
    mint: inst.quote_mint,
    decimals: inst.quote_decimals,
  });
}

/** The asset of `mint` when an instrument named it, else undefined. */
export function knownAsset(mint: string): Asset | undefined {
  return byMint.get(mint);
}

/** `1500000000n` with 9 decimals → `"1.5"` (a copy of `formatUnits`, without its module's imports). */
function human(value: bigint, decimals: number): string {
  const neg = value < 0n;
  const abs = neg ? -value : value;
  const scale = 10n ** BigInt(decimals);
  const frac = (abs % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${abs / scale}${frac ? `.${frac}` : ''}`;
}

/** `"12.5 USDC"`; for a mint no instrument named, `"12500000 atomic units of <mint>"`. */
export function describeAmount(mint: string, amount: bigint): string {
  const a = byMint.get(mint);
  return a ? `${human(amount, a.decimals)} ${a.symbol}` : `${amount} atomic units of ${mint}`;
}

/** An amount without its symbol, in human units when known (`"12.5"`), for a suggested call. */
export function humanAmount(mint: string, amount: bigint): string {
  const a = byMint.get(mint);
  return a ? human(amount, a.decimals) : `${amount}n`;
}

/** `USDC`, or the mint itself when no instrument named it. */
export function assetName(mint: string): string {
  return byMint.get(mint)?.symbol ?? mint;
}

/** The instrument of a market this process has learnt (`SOL-USDC`), if any. */
export function knownInstrument(symbol: string): Instrument | undefined {
  return bySymbol.get(symbol);
}
