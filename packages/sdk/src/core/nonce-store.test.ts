import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileNonceStore, memoryNonceStore } from './nonce-store.js';

describe('nonce stores', () => {
  it('a file store continues after a restart, per key and per kind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nonces-'));
    try {
      const path = join(dir, 'n.json');
      const a = fileNonceStore(path);
      expect(a.next('k1', 'arrival')).toBe(1n);
      expect(a.next('k1', 'arrival')).toBe(2n);
      expect(a.next('k1', 'cancel')).toBe(1n);
      expect(a.next('k2', 'arrival')).toBe(1n);
      const b = fileNonceStore(path);
      expect(b.next('k1', 'arrival')).toBe(3n);
      expect(b.next('k1', 'cancel')).toBe(2n);
      expect(b.last('k2', 'arrival')).toBe(1n);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('a memory store starts above the clock and only increases', () => {
    let now = 1_000;
    const s = memoryNonceStore(() => now);
    expect(s.next('k', 'arrival')).toBe(1_000_000n);
    expect(s.next('k', 'arrival')).toBe(1_000_001n);
    now = 2_000;
    expect(s.next('k', 'arrival')).toBe(2_000_000n);
  });
});
