/**
 * Argon2id hashing and verification of account secrets, with a hard bound on concurrent
 * verifications. Hashing runs on libuv's thread pool (`@node-rs/argon2` is async), so the event
 * loop stays free; the bound keeps a login burst from monopolising that pool and memory
 * (each verification holds `memoryCost` KiB). A login that finds every slot busy is refused at
 * once (the caller answers 503 1402); nothing is queued.
 */
import { randomBytes } from 'node:crypto';
import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';

/** Argon2id; the `@node-rs/argon2` enum is `const`, which `isolatedModules` cannot import. */
const ARGON2ID = 2;

export interface Argon2Parameters {
  /** KiB per hash. OWASP minimum for Argon2id: 19456 (19 MiB). */
  memoryCost: number;
  /** Passes. OWASP: 2 with 19 MiB. */
  timeCost: number;
  /** Lanes. OWASP: 1. */
  parallelism: number;
}

/** OWASP Password Storage Cheat Sheet, Argon2id: m=19456 KiB, t=2, p=1. */
export const OWASP_ARGON2: Readonly<Argon2Parameters> = Object.freeze({
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
});

export interface CredentialHasherOptions extends Partial<Argon2Parameters> {
  /** Concurrent verifications (logins) allowed; default 4. */
  maxConcurrent?: number;
}

/** One stored hash and the presented secret to check against it. */
export interface SecretCheck {
  hash: string;
  secret: string;
}

export class CredentialHasher {
  readonly parameters: Readonly<Argon2Parameters>;
  readonly maxConcurrent: number;
  private active = 0;

  constructor(options: CredentialHasherOptions = {}) {
    const parameters = {
      memoryCost: options.memoryCost ?? OWASP_ARGON2.memoryCost,
      timeCost: options.timeCost ?? OWASP_ARGON2.timeCost,
      parallelism: options.parallelism ?? OWASP_ARGON2.parallelism,
    };
    for (const [name, value] of Object.entries(parameters)) {
      if (!Number.isSafeInteger(value) || value < 1)
        throw new RangeError(`argon2 ${name} must be a positive integer`);
    }
    if (parameters.memoryCost < 8 * parameters.parallelism)
      throw new RangeError('argon2 memoryCost must be at least 8 KiB per lane');
    const maxConcurrent = options.maxConcurrent ?? 4;
    if (!Number.isSafeInteger(maxConcurrent) || maxConcurrent < 1)
      throw new RangeError('maxConcurrent must be a positive integer');
    this.parameters = Object.freeze(parameters);
    this.maxConcurrent = maxConcurrent;
  }

  /** Verifications running now. */
  get inFlight(): number {
    return this.active;
  }

  /** An Argon2id PHC string with a fresh 16-byte salt. Not bounded: used for account creation only. */
  hash(secret: string): Promise<string> {
    return argon2Hash(secret, { ...this.parameters, algorithm: ARGON2ID });
  }

  /**
   * Starts verifying every check if a slot is free and resolves to true only if all match;
   * returns `undefined` at once when all slots are busy. Every check is always evaluated (no
   * short circuit), so the time taken does not say which secret was wrong.
   */
  tryVerify(checks: readonly SecretCheck[]): Promise<boolean> | undefined {
    if (this.active >= this.maxConcurrent) return undefined;
    this.active++;
    return this.verifyAll(checks).finally(() => {
      this.active--;
    });
  }

  /** One comparison; parameters come from the PHC string. A seam for tests that gate the work. */
  protected verifyOne(hash: string, secret: string): Promise<boolean> {
    return argon2Verify(hash, secret);
  }

  private async verifyAll(checks: readonly SecretCheck[]): Promise<boolean> {
    let allMatch = checks.length > 0;
    // One at a time: a login holds at most one pool thread, so `maxConcurrent` bounds threads too.
    for (const check of checks) {
      const match = await this.verifyOne(check.hash, check.secret);
      allMatch = match && allMatch;
    }
    return allMatch;
  }
}

/** A generated secret (api_secret, passphrase): 32 random bytes, base64url (43 characters). */
export function generateSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** A public credential identifier: `nj_` and 16 random bytes in hex. */
export function generateApiKey(): string {
  return `nj_${randomBytes(16).toString('hex')}`;
}

/** A stable account identifier: 16 random bytes in hex (32 characters). */
export function generateAccountId(): string {
  return randomBytes(16).toString('hex');
}
