import { describe, expect, it } from 'vitest';
import { parseChange } from './pg-change-feed.js';

describe('the accounts change feed payload', () => {
  it('names an account or a jti, and nothing else is acted on', () => {
    expect(parseChange('a:' + 'ab'.repeat(16))).toEqual({ accountId: 'ab'.repeat(16) });
    expect(parseChange('j:' + '01'.repeat(16))).toEqual({ jti: '01'.repeat(16) });
    for (const bad of [undefined, '', 'a:', 'x:ab', 'a:AB', "a:ab' OR 1=1", 'j:' + 'f'.repeat(65)])
      expect(parseChange(bad)).toBeUndefined();
  });
});
