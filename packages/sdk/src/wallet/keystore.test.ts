import {
  chmodSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openExclusive, writeFileAtomic } from './keystore.js';
import { createWallet } from './wallet.js';

const FAST = { N: 1024, r: 8, p: 1 };
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'keystore-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const mode = (p: string) => statSync(p).mode & 0o777;

describe('wallet file writes (16.16)', () => {
  it('a symlink planted at the temp path is not followed: its target keeps its bytes', () => {
    const path = join(dir, 'w.wallet');
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'do not touch');
    // The name the temp copy used to have, and any name an attacker might guess.
    symlinkSync(victim, `${path}.tmp`);
    createWallet({ path, password: 'pw', scrypt: FAST });
    expect(readFileSync(victim, 'utf8')).toBe('do not touch');
    expect(lstatSync(path).isFile()).toBe(true);
    expect(readFileSync(path, 'utf8')).toContain('"ciphertext"');
  });

  it('the exclusive create refuses an existing name, a symlink above all, and writes nothing through it', () => {
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'do not touch');
    const link = join(dir, 'link');
    symlinkSync(victim, link);
    expect(() => openExclusive(link)).toThrow(/EEXIST/);
    expect(() => openExclusive(victim)).toThrow(/EEXIST/);
    expect(readFileSync(victim, 'utf8')).toBe('do not touch');
  });

  it('the saved file is 0600 even when the old file and a leftover temp file were 0644', () => {
    const path = join(dir, 'w.wallet');
    const w = createWallet({ path, password: 'pw', scrypt: FAST });
    chmodSync(path, 0o644);
    writeFileSync(`${path}.tmp`, 'leftover from a crash');
    chmodSync(`${path}.tmp`, 0o644);
    w.depositCount = 3;
    w.save();
    expect(mode(path)).toBe(0o600);
    writeFileAtomic(join(dir, 'other'), 'x');
    expect(mode(join(dir, 'other'))).toBe(0o600);
    // No temp file is left behind by a completed write.
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp') && f !== 'w.wallet.tmp')).toEqual([]);
  });
});
