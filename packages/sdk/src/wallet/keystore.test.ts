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
import { openExclusive, unseal, WalletSealer, writeFileAtomic } from './keystore.js';
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

describe('WalletSealer: scrypt once per wallet, not once per save', () => {
  const fields = (sealed: string) => JSON.parse(sealed) as { salt: string; iv: string; kdf: { N: number } };

  it('saves under one salt (one derived key) with a fresh IV each time; each file opens with the password', () => {
    const sealer = new WalletSealer('pw', FAST);
    const files = ['a', 'b', 'c'].map((t) => sealer.seal(t));
    expect(new Set(files.map((f) => fields(f).salt)).size).toBe(1);
    expect(new Set(files.map((f) => fields(f).iv)).size).toBe(3);
    expect(files.map((f) => unseal(f, 'pw'))).toEqual(['a', 'b', 'c']);
    expect(() => unseal(files[0]!, 'wrong')).toThrow(/wrong password/);
  });

  it('after opening a file, saves keep its salt; a file of another cost is re-sealed at this cost', () => {
    const first = new WalletSealer('pw', FAST).seal('state');
    const reopened = new WalletSealer('pw', FAST);
    expect(reopened.unseal(first)).toBe('state');
    expect(fields(reopened.seal('next')).salt).toBe(fields(first).salt);
    const other = new WalletSealer('pw', { N: 2048, r: 8, p: 1 });
    expect(other.unseal(first)).toBe('state');
    const resealed = other.seal('next');
    expect(fields(resealed).kdf.N).toBe(2048);
    expect(fields(resealed).salt).not.toBe(fields(first).salt);
    expect(unseal(resealed, 'pw')).toBe('next');
  });

  it('a wrong password opens nothing and lends the sealer no key', () => {
    const file = new WalletSealer('pw', FAST).seal('state');
    const sealer = new WalletSealer('other', FAST);
    expect(() => sealer.unseal(file)).toThrow(/wrong password/);
    expect(fields(sealer.seal('x')).salt).not.toBe(fields(file).salt);
  });
});
