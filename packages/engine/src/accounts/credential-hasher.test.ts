import { parseOptions } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import {
  CredentialHasher,
  OWASP_ARGON2,
  generateAccountId,
  generateApiKey,
  generateSecret,
} from './credential-hasher.js';

const CHEAP = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

describe('CredentialHasher', () => {
  it('defaults to OWASP Argon2id parameters and 4 concurrent verifications', () => {
    const hasher = new CredentialHasher();
    expect(hasher.parameters).toEqual({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
    expect(OWASP_ARGON2).toEqual(hasher.parameters);
    expect(hasher.maxConcurrent).toBe(4);
  });

  it('hashes with Argon2id, a fresh salt each time, and the configured parameters', async () => {
    const hasher = new CredentialHasher(CHEAP);
    const a = await hasher.hash('secret');
    const b = await hasher.hash('secret');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    expect(a).not.toBe(b);
    expect(parseOptions(a)).toMatchObject({ memoryCost: 1024, timeCost: 1, parallelism: 1, saltLen: 16 });
    expect(a).not.toContain('secret');
  });

  it('verifies all checks and succeeds only if every one matches', async () => {
    const hasher = new CredentialHasher(CHEAP);
    const [h1, h2] = await Promise.all([hasher.hash('one'), hasher.hash('two')]);
    const run = (s1: string, s2: string) =>
      hasher.tryVerify([
        { hash: h1, secret: s1 },
        { hash: h2, secret: s2 },
      ]);
    await expect(run('one', 'two')).resolves.toBe(true);
    await expect(run('one', 'nope')).resolves.toBe(false);
    await expect(run('nope', 'two')).resolves.toBe(false);
    await expect(run('two', 'one')).resolves.toBe(false);
    await expect(hasher.tryVerify([])).resolves.toBe(false);
  });

  it('refuses at once, without queueing, when every slot is busy, and frees slots when done', async () => {
    const hasher = new CredentialHasher({ ...CHEAP, maxConcurrent: 2 });
    const hash = await hasher.hash('s');
    const first = hasher.tryVerify([{ hash, secret: 's' }]);
    const second = hasher.tryVerify([{ hash, secret: 'x' }]);
    expect(first).toBeInstanceOf(Promise);
    expect(second).toBeInstanceOf(Promise);
    expect(hasher.inFlight).toBe(2);
    expect(hasher.tryVerify([{ hash, secret: 's' }])).toBeUndefined();
    expect(await first).toBe(true);
    expect(await second).toBe(false);
    expect(hasher.inFlight).toBe(0);
    await expect(hasher.tryVerify([{ hash, secret: 's' }])).resolves.toBe(true);
  });

  it('frees the slot when verification throws (a corrupt stored hash)', async () => {
    const hasher = new CredentialHasher({ ...CHEAP, maxConcurrent: 1 });
    await expect(hasher.tryVerify([{ hash: 'not a hash', secret: 's' }])).rejects.toThrow();
    expect(hasher.inFlight).toBe(0);
  });

  it('validates its configuration', () => {
    expect(() => new CredentialHasher({ memoryCost: 0 })).toThrow(RangeError);
    expect(() => new CredentialHasher({ timeCost: 1.5 })).toThrow(RangeError);
    expect(() => new CredentialHasher({ memoryCost: 8, parallelism: 2 })).toThrow(RangeError);
    expect(() => new CredentialHasher({ maxConcurrent: 0 })).toThrow(RangeError);
  });
});

describe('generated credentials', () => {
  it('have the documented shapes and are unique', () => {
    const secrets = new Set(Array.from({ length: 100 }, generateSecret));
    expect(secrets.size).toBe(100);
    for (const s of secrets) expect(s).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(generateApiKey()).toMatch(/^nj_[0-9a-f]{32}$/);
    expect(generateAccountId()).toMatch(/^[0-9a-f]{32}$/);
    expect(generateApiKey()).not.toBe(generateApiKey());
  });
});
