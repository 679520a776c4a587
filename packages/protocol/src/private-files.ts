/**
 * Private directories and secret files, as ssh's StrictModes treats them: a data or state
 * directory is used only when this user owns it and nobody else may write to it, a secret file
 * only when this user owns it and nobody else may read or write it, and a secret is only ever
 * created afresh (O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600), never by opening what someone planted.
 * Engine, ledger, app, CLI and SDK all create and adopt their files through here.
 */
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** A directory or file another user could have made, changed or read: refused, never adopted. */
export class UnsafePathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafePathError';
  }
}

const GROUP_OTHER_WRITE = 0o022;
const GROUP_OTHER_ANY = 0o077;

function currentUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(3, '0');

function refuseForeignOwner(path: string, st: Stats): void {
  const uid = currentUid();
  if (uid !== undefined && st.uid !== uid)
    throw new UnsafePathError(
      `refusing ${path}: it is owned by uid ${st.uid}, not by this user (uid ${uid}); ` +
        `another user may have planted it: remove it, or \`chown ${uid} ${path}\` if it is yours`,
    );
}

/**
 * Creates `path` (and missing parents) mode 0700, or adopts an existing directory only if this
 * user owns it and neither group nor others may write to it; one that others may only read or
 * enter (an older version's 0755) is narrowed to 0700.
 */
export function ensurePrivateDir(path: string): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  const st = statSync(path);
  if (!st.isDirectory()) throw new UnsafePathError(`refusing ${path}: it is not a directory`);
  refuseForeignOwner(path, st);
  if ((st.mode & GROUP_OTHER_WRITE) !== 0)
    throw new UnsafePathError(
      `refusing ${path}: group or others may write to it (mode ${octal(st.mode)}); ` +
        `check nothing was planted in it, then \`chmod 700 ${path}\``,
    );
  if ((st.mode & GROUP_OTHER_ANY) !== 0) chmodSync(path, 0o700);
}

/** Throws unless the file is a regular file of ours that nobody else may read or write. */
function checkSecretStats(path: string, st: Stats): void {
  if (!st.isFile()) throw new UnsafePathError(`refusing ${path}: it is not a regular file`);
  refuseForeignOwner(path, st);
  if ((st.mode & GROUP_OTHER_ANY) !== 0)
    throw new UnsafePathError(
      `refusing ${path}: group or others may read or write it (mode ${octal(st.mode)}); ` +
        `if nobody else could have changed it, \`chmod 600 ${path}\``,
    );
}

/**
 * Reads a secret file (UTF-8), or returns undefined when there is none. Opened without following
 * a symlink and checked on the open descriptor, so what is checked is what is read.
 */
export function readSecretFile(path: string): string | undefined {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO planted at the name is refused below instead of blocking the open.
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw new UnsafePathError(`refusing ${path}: it is a symbolic link`);
    throw err;
  }
  try {
    checkSecretStats(path, fstatSync(fd));
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * Creates `path` for writing, mode 0600, only if nothing is there: never opens an existing file
 * (whose mode and owner would stay) and never follows a symlink planted at that name.
 */
export function openExclusive(path: string): number {
  const fd = openSync(
    path,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o600,
  );
  // The umask may narrow the mode but never widen it; set it exactly anyway.
  fchmodSync(fd, 0o600);
  return fd;
}

/** Writes `content` to a fresh exclusive temp file beside `path` (fsynced); returns its name. */
function writeTemp(path: string, content: string | Uint8Array): string {
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(12).toString('hex')}.tmp`);
  const fd = openExclusive(tmp);
  try {
    writeFileSync(fd, content);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
  closeSync(fd);
  return tmp;
}

function fsyncDir(dir: string): void {
  const fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `content` to `path` atomically with mode 0600 (in a private directory, created if
 * missing): an exclusive temp file, fsync, rename over `path`, fsync of the directory.
 */
export function writeSecretFile(path: string, content: string | Uint8Array): void {
  ensurePrivateDir(dirname(path));
  const tmp = writeTemp(path, content);
  try {
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  fsyncDir(dirname(path));
}

/**
 * Creates the secret file `path` with `content` unless one exists (then returns false and leaves
 * it alone): whole or not at all, and never over a file another process made first.
 */
export function createSecretFile(path: string, content: string | Uint8Array): boolean {
  ensurePrivateDir(dirname(path));
  const tmp = writeTemp(path, content);
  try {
    linkSync(tmp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
  fsyncDir(dirname(path));
  return true;
}

/**
 * The secret kept in `path`, made by `make` (and kept there, 0600) when there is none. A file
 * another process created first wins, so every process agrees on one secret.
 */
export function loadOrCreateSecretFile(path: string, make: () => string): string {
  const existing = readSecretFile(path);
  if (existing !== undefined) return existing;
  createSecretFile(path, make());
  const stored = readSecretFile(path);
  if (stored === undefined) throw new Error(`${path} vanished while it was being created`);
  return stored;
}

/**
 * Makes a SQLite database file private before it is opened: created empty with mode 0600 when
 * absent (an empty file is a valid database, and SQLite gives its -wal and -shm the main file's
 * mode), else refused unless ours and narrowed to 0600 with any -wal/-shm (an older version's 0644).
 */
export function preparePrivateDatabase(path: string): void {
  ensurePrivateDir(dirname(path));
  if (!existsSync(path)) {
    try {
      closeSync(openExclusive(path));
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) {
    let st: Stats;
    try {
      st = lstatSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    if (!st.isFile()) throw new UnsafePathError(`refusing ${file}: it is not a regular file`);
    refuseForeignOwner(file, st);
    if ((st.mode & GROUP_OTHER_ANY) !== 0) chmodSync(file, 0o600);
  }
}
