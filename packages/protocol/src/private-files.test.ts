import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createSecretFile,
  ensurePrivateDir,
  loadOrCreateSecretFile,
  preparePrivateDatabase,
  readSecretFile,
  UnsafePathError,
  writeSecretFile,
} from './private-files.js';

/** Another user's uid: the tests run as root, which may give files away (chown). */
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

const base = mkdtempSync(join(tmpdir(), 'nightjar-private-files-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(base, `case-${++n}`);
const mode = (path: string) => statSync(path).mode & 0o777;

describe('ensurePrivateDir', () => {
  it('creates missing directories 0700 and narrows an own 0755 one', () => {
    const dir = join(fresh(), 'a', 'b');
    ensurePrivateDir(dir);
    expect(mode(dir)).toBe(0o700);
    const old = fresh();
    mkdirSync(old, { mode: 0o755 });
    chmodSync(old, 0o755);
    ensurePrivateDir(old);
    expect(mode(old)).toBe(0o700);
  });

  it('refuses a directory group or others may write to, naming the path and the chmod fix', () => {
    const dir = fresh();
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    expect(() => ensurePrivateDir(dir)).toThrow(UnsafePathError);
    expect(() => ensurePrivateDir(dir)).toThrow(`\`chmod 700 ${dir}\``);
    expect(mode(dir)).toBe(0o777); // refused, not silently repaired
  });

  it.runIf(asRoot)('refuses a directory another user owns, naming the chown fix', () => {
    const dir = fresh();
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, NOBODY, NOBODY);
    expect(() => ensurePrivateDir(dir)).toThrow(/owned by uid 65534.*chown/);
  });
});

describe('secret files', () => {
  it('are created 0600 and exclusively: an existing file is never replaced', () => {
    const dir = fresh();
    const file = join(dir, 'secret');
    expect(createSecretFile(file, 'first\n')).toBe(true);
    expect(mode(dir)).toBe(0o700);
    expect(mode(file)).toBe(0o600);
    expect(createSecretFile(file, 'second\n')).toBe(false);
    expect(readSecretFile(file)).toBe('first\n');
    expect(loadOrCreateSecretFile(file, () => 'third\n')).toBe('first\n');
    expect(loadOrCreateSecretFile(join(dir, 'other'), () => 'made\n')).toBe('made\n');
    writeSecretFile(file, 'replaced\n');
    expect(readSecretFile(file)).toBe('replaced\n');
    expect(mode(file)).toBe(0o600);
    expect(readSecretFile(join(dir, 'missing'))).toBeUndefined();
  });

  it('refuses a secret others may read, and one reached through a symlink', () => {
    const dir = fresh();
    ensurePrivateDir(dir);
    const open = join(dir, 'open');
    writeFileSync(open, 'planted\n');
    chmodSync(open, 0o644);
    expect(() => readSecretFile(open)).toThrow(`\`chmod 600 ${open}\``);
    const target = join(dir, 'target');
    createSecretFile(target, 'x');
    symlinkSync(target, join(dir, 'link'));
    expect(() => readSecretFile(join(dir, 'link'))).toThrow(/symbolic link/);
    expect(() => loadOrCreateSecretFile(join(dir, 'link'), () => 'y')).toThrow(UnsafePathError);
    // A FIFO at the name is refused at once, not waited on.
    execFileSync('mkfifo', ['-m', '600', join(dir, 'fifo')]);
    expect(() => readSecretFile(join(dir, 'fifo'))).toThrow(/not a regular file/);
  });

  it.runIf(asRoot)('refuses a secret another user planted, and never adopts it', () => {
    const dir = fresh();
    ensurePrivateDir(dir);
    const planted = join(dir, 'api-token');
    writeFileSync(planted, 'attacker-token\n', { mode: 0o600 });
    chownSync(planted, NOBODY, NOBODY);
    expect(() => loadOrCreateSecretFile(planted, () => 'ours\n')).toThrow(/owned by uid 65534/);
    expect(readFileSync(planted, 'utf8')).toBe('attacker-token\n');
  });
});

describe('preparePrivateDatabase', () => {
  it('creates the database file 0600 and narrows an older 0644 one and its companions', () => {
    const dir = fresh();
    const db = join(dir, 'x.sqlite');
    preparePrivateDatabase(db);
    expect(mode(db)).toBe(0o600);
    for (const f of [db, `${db}-wal`, `${db}-shm`]) {
      writeFileSync(f, '');
      chmodSync(f, 0o644);
    }
    preparePrivateDatabase(db);
    for (const f of [db, `${db}-wal`, `${db}-shm`]) expect([f, mode(f)]).toEqual([f, 0o600]);
  });

  it.runIf(asRoot)('refuses a database file another user owns', () => {
    const dir = fresh();
    ensurePrivateDir(dir);
    const db = join(dir, 'x.sqlite');
    writeFileSync(db, '');
    chownSync(db, NOBODY, NOBODY);
    expect(() => preparePrivateDatabase(db)).toThrow(/owned by uid 65534/);
  });
});
