/**
 * The wallet file, encrypted at rest: scrypt (memory-hard, N = 2^17, r = 8, p = 1 by default) turns
 * the password into a key, AES-256-GCM seals the JSON state (the seed and the note store). The
 * file is `{version, kdf, salt, iv, tag, ciphertext}`, written atomically (a fresh exclusive temp
 * file, fsync, rename, fsync of the directory) with mode 0600.
 */
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { readSecretFile } from '@nightjar/protocol';
import { NIGHTJAR_ERROR__WALLET_DECRYPT, NightjarError } from '../core/errors/index.js';

/** scrypt cost parameters. */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** The default cost: about 128 MiB and a few hundred ms. */
export const DEFAULT_SCRYPT: ScryptParams = { N: 2 ** 17, r: 8, p: 1 };

interface SealedFile {
  version: 1;
  kdf: { name: 'scrypt' } & ScryptParams;
  salt: string;
  iv: string;
  tag: string;
  ciphertext: string;
}

function deriveKey(password: string, salt: Buffer, p: ScryptParams): Buffer {
  return scryptSync(password.normalize('NFKC'), salt, 32, {
    N: p.N,
    r: p.r,
    p: p.p,
    maxmem: 256 * p.N * p.r + 1024 * 1024,
  });
}

/** AES-256-GCM under `key` with a fresh IV: the sealed file naming `salt` and the scrypt cost. */
function sealWithKey(plaintext: string, key: Buffer, salt: Buffer, params: ScryptParams): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const file: SealedFile = {
    version: 1,
    kdf: { name: 'scrypt', ...params },
    salt: salt.toString('hex'),
    iv: iv.toString('hex'),
    tag: cipher.getAuthTag().toString('hex'),
    ciphertext: ciphertext.toString('hex'),
  };
  return JSON.stringify(file);
}

function parseSealed(sealed: string): SealedFile {
  let file: SealedFile;
  try {
    file = JSON.parse(sealed) as SealedFile;
  } catch {
    throw new NightjarError(NIGHTJAR_ERROR__WALLET_DECRYPT, { detail: 'the wallet file is not valid JSON' });
  }
  if (file.version !== 1 || file.kdf?.name !== 'scrypt')
    throw new NightjarError(NIGHTJAR_ERROR__WALLET_DECRYPT, { detail: 'unknown wallet file format' });
  return file;
}

function openWithKey(file: SealedFile, key: Buffer): string {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(file.iv, 'hex'));
    decipher.setAuthTag(Buffer.from(file.tag, 'hex'));
    return Buffer.concat([decipher.update(Buffer.from(file.ciphertext, 'hex')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw new NightjarError(NIGHTJAR_ERROR__WALLET_DECRYPT, {
      detail: 'wrong password or damaged wallet file',
    });
  }
}

/** Encrypts `plaintext` under `password`. */
export function seal(plaintext: string, password: string, params: ScryptParams = DEFAULT_SCRYPT): string {
  const salt = randomBytes(16);
  return sealWithKey(plaintext, deriveKey(password, salt, params), salt, params);
}

/** Decrypts a sealed file; a wrong password or any tampering throws WALLET_DECRYPT. */
export function unseal(sealed: string, password: string): string {
  const file = parseSealed(sealed);
  let key: Buffer;
  try {
    key = deriveKey(password, Buffer.from(file.salt, 'hex'), file.kdf);
  } catch {
    throw new NightjarError(NIGHTJAR_ERROR__WALLET_DECRYPT, {
      detail: 'wrong password or damaged wallet file',
    });
  }
  return openWithKey(file, key);
}

/**
 * Seals one wallet file again and again. scrypt is deliberately slow (a few hundred ms, on the
 * event loop), so the key is derived once per salt, not on every save: each save is AES-GCM with a
 * fresh IV under the same key (random 96-bit IVs are safe far beyond any wallet's saves).
 */
export class WalletSealer {
  private salt: Buffer = randomBytes(16);
  private key: Buffer | undefined;

  constructor(
    private readonly password: string,
    private readonly params: ScryptParams,
  ) {}

  /** Opens a sealed file; when its cost is this sealer's, its salt and key serve the next saves. */
  unseal(sealed: string): string {
    const file = parseSealed(sealed);
    const salt = Buffer.from(file.salt, 'hex');
    let key: Buffer;
    try {
      key = deriveKey(this.password, salt, file.kdf);
    } catch {
      throw new NightjarError(NIGHTJAR_ERROR__WALLET_DECRYPT, {
        detail: 'wrong password or damaged wallet file',
      });
    }
    const plaintext = openWithKey(file, key);
    const { N, r, p } = file.kdf;
    if (N === this.params.N && r === this.params.r && p === this.params.p) {
      this.salt = salt;
      this.key = key;
    }
    return plaintext;
  }

  seal(plaintext: string): string {
    this.key ??= deriveKey(this.password, this.salt, this.params);
    return sealWithKey(plaintext, this.key, this.salt, this.params);
  }
}

/** Exclusive 0600 creation and atomic private writes: the shared rules (`@nightjar/protocol`). */
export { openExclusive, writeSecretFile as writeFileAtomic } from '@nightjar/protocol';

/** Reads the wallet file: ours alone (owner, mode 0600), never through a symlink. */
export function readText(path: string): string {
  const text = readSecretFile(path);
  if (text === undefined) throw new Error(`${path} does not exist`);
  return text;
}
