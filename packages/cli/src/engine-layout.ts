/** Which engine serves which market (`/instruments`' `base_url`), for `nightjar status`. */
import { engineOrigin } from '@nightjar/sdk';

/** One engine of the venue and the markets it serves. */
export interface EngineMarkets {
  base_url: string;
  markets: string[];
}

/**
 * The venue's engines, the one at `ownUrl` first; a market without `base_url` is its. One engine
 * alone (every market at `ownUrl`) is the venue as before.
 */
export function engineLayout(
  instruments: readonly { symbol: string; base_url?: string | undefined }[],
  ownUrl: string,
): EngineMarkets[] {
  const byOrigin = new Map<string, EngineMarkets>([
    [engineOrigin(ownUrl), { base_url: ownUrl, markets: [] }],
  ]);
  for (const i of instruments) {
    const url = i.base_url ?? ownUrl;
    const origin = engineOrigin(url);
    let entry = byOrigin.get(origin);
    if (!entry) byOrigin.set(origin, (entry = { base_url: url, markets: [] }));
    entry.markets.push(i.symbol);
  }
  return [...byOrigin.values()];
}

/** The text lines: none for one engine, else each engine with its markets. */
export function engineLines(layout: readonly EngineMarkets[]): string[] {
  if (layout.length < 2) return [];
  return [
    '',
    'markets on several engines (each verified before it is sent anything):',
    ...layout.map((e, i) => `  ${e.base_url}${i === 0 ? ' (this one)' : ''}: ${e.markets.join(', ') || '-'}`),
  ];
}
