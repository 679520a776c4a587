/** `nightjar status` on a venue with markets on several engines: which engine serves which market. No venue: fast. */
import { describe, expect, it } from 'vitest';
import { engineLayout, engineLines } from '../src/engine-layout.js';

describe('engineLayout', () => {
  it('groups the markets by engine origin, this one first; a market without base_url is this one’s', () => {
    const layout = engineLayout(
      [
        { symbol: 'ETH-USDC', base_url: 'https://b.test:8443' },
        { symbol: 'SOL-USDC', base_url: 'https://a.test:443/' },
        { symbol: 'BTC-USDC' },
      ],
      'https://a.test',
    );
    expect(layout).toEqual([
      { base_url: 'https://a.test', markets: ['SOL-USDC', 'BTC-USDC'] },
      { base_url: 'https://b.test:8443', markets: ['ETH-USDC'] },
    ]);
    expect(engineLines(layout)).toEqual([
      '',
      'markets on several engines (each verified before it is sent anything):',
      '  https://a.test (this one): SOL-USDC, BTC-USDC',
      '  https://b.test:8443: ETH-USDC',
    ]);
  });

  it('one engine: no lines (the venue as before)', () => {
    const layout = engineLayout([{ symbol: 'SOL-USDC' }], 'https://a.test');
    expect(layout).toHaveLength(1);
    expect(engineLines(layout)).toEqual([]);
  });
});
