/** `POST /auth/token`, `POST /auth/token/revoke` and the Bearer guard, over real HTTPS. */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateBootCertificate, type BootCertificate } from '../../src/tls.js';
import {
  GatedHasher,
  CHEAP_ARGON2,
  ManualClock,
  T0,
  bootstrapAdmin,
  createAccount,
  expectError,
  loginOk,
  pick,
  startVenue,
  type Venue,
  type VenueOptions,
} from './helpers.js';

let certificate: BootCertificate;
const venues: Venue[] = [];

beforeAll(async () => {
  certificate = await generateBootCertificate();
});

afterEach(async () => {
  await Promise.all(venues.splice(0).map((v) => v.close()));
});

async function venue(options: Omit<VenueOptions, 'certificate'> = {}): Promise<Venue> {
  const v = await startVenue({ certificate, ...options });
  venues.push(v);
  return v;
}

describe('POST /auth/token', () => {
  it('exchanges good credentials for a Bearer token with the configured lifetime', async () => {
    const v = await venue({ tokenTtlSeconds: 900 });
    const admin = await bootstrapAdmin(v);
    const user = await createAccount(v, admin.token, { label: 'alice' });
    const res = await v.call('/auth/token', { body: pick(user) });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'account_id', 'expires_in', 'token_type']);
    expect(res.body.token_type).toBe('Bearer');
    expect(Number(res.body.expires_in)).toBe(900);
    expect(res.body.account_id).toBe(user.account_id);
    expect(res.headers['cache-control']).toBe('no-store');
    const probe = await v.call('/probe', { token: res.body.access_token });
    expect(probe.status).toBe(200);
    expect(probe.body).toEqual({ account_id: user.account_id, api_key: user.api_key, is_admin: false });
  });

  it('defaults to a one-hour lifetime', async () => {
    const v = await venue();
    const { creds } = await bootstrapAdmin(v);
    const res = await v.call('/auth/token', { body: pick(creds) });
    expect(Number(res.body.expires_in)).toBe(3600);
  });

  it('answers 401 1101 "bad credentials" alike for an unknown key, a wrong secret and a wrong passphrase', async () => {
    const v = await venue();
    const { creds } = await bootstrapAdmin(v);
    const cases = [
      { ...pick(creds), api_key: 'nj_00000000000000000000000000000000' },
      { ...pick(creds), api_secret: `${creds.api_secret}x` },
      { ...pick(creds), passphrase: `${creds.passphrase}x` },
      { ...pick(creds), api_secret: creds.passphrase, passphrase: creds.api_secret },
    ];
    for (const body of cases) {
      const res = await v.call('/auth/token', { body });
      expectError(res, 401, 1101, 'bad credentials');
      // Secrets never come back.
      expect(res.text).not.toContain(creds.api_secret);
      expect(res.text).not.toContain(creds.passphrase);
    }
  });

  it('refuses malformed bodies with 400 1001', async () => {
    const v = await venue();
    const { creds } = await bootstrapAdmin(v);
    const bodies: unknown[] = [
      { api_key: creds.api_key, api_secret: creds.api_secret },
      { ...pick(creds), extra: 1 },
      { ...pick(creds), api_key: '' },
      { ...pick(creds), passphrase: 7 },
      { ...pick(creds), api_secret: 'x'.repeat(257) },
      [],
      null,
    ];
    for (const body of bodies) expectError(await v.call('/auth/token', { body }), 400, 1001);
    expectError(await v.call('/auth/token', { rawBody: '{"api_key":' }), 400, 1001);
    expectError(await v.call('/auth/token', { method: 'POST' }), 400, 1001);
  });

  it('answers 403 1150 "account disabled" for a suspended account with good credentials', async () => {
    const v = await venue();
    const admin = await bootstrapAdmin(v);
    const user = await createAccount(v, admin.token);
    expect(
      (await v.call(`/admin/accounts/${user.api_key}/disable`, { method: 'POST', token: admin.token }))
        .status,
    ).toBe(200);
    expectError(await v.call('/auth/token', { body: pick(user) }), 403, 1150, 'account disabled');
    // Checked after verification: without the secrets, a suspended account looks like any other.
    expectError(
      await v.call('/auth/token', { body: { ...pick(user), passphrase: 'wrong' } }),
      401,
      1101,
      'bad credentials',
    );
    await v.call(`/admin/accounts/${user.api_key}/enable`, { method: 'POST', token: admin.token });
    await loginOk(v, user);
  });

  it('rate-limits logins per account with 429 1401 and an approximate delay, refilling on the clock', async () => {
    const v = await venue({ loginRateLimit: { capacity: 3, refillPerSecond: 0.5 } });
    const admin = await bootstrapAdmin(v); // 1 of the admin's 3
    const user = await createAccount(v, admin.token);
    // Failed attempts cost allowance too.
    for (let i = 0; i < 3; i++) {
      expectError(await v.call('/auth/token', { body: { ...pick(user), api_secret: 'nope' } }), 401, 1101);
    }
    const limited = await v.call('/auth/token', { body: pick(user) });
    expectError(limited, 429, 1401, 'too many login attempts; retry in about 2 s');
    expect(limited.headers['retry-after']).toBe('2');
    // The admin's bucket is separate.
    await loginOk(v, admin.creds);
    v.clock.advance(1999);
    expectError(await v.call('/auth/token', { body: pick(user) }), 429, 1401, /retry in about 1 s/);
    v.clock.advance(1);
    await loginOk(v, user);
    expectError(await v.call('/auth/token', { body: pick(user) }), 429, 1401);
  });

  it('rejects an unknown api_key before any verification and without consuming allowance', async () => {
    const hasher = new GatedHasher(CHEAP_ARGON2);
    const v = await venue({ hasher, loginRateLimit: { capacity: 2, refillPerSecond: 0.5 } });
    const { creds } = await bootstrapAdmin(v);
    const before = { calls: hasher.verifyCalls, buckets: v.accounts.stats().loginBuckets };
    for (let i = 0; i < 30; i++) {
      const body = { ...pick(creds), api_key: `nj_unknown_${i}` };
      expectError(await v.call('/auth/token', { body }), 401, 1101, 'bad credentials');
    }
    expect(hasher.verifyCalls).toBe(before.calls);
    expect(v.accounts.stats().loginBuckets).toBe(before.buckets);
    // The one real account still has exactly its second attempt left.
    await loginOk(v, creds);
    expectError(await v.call('/auth/token', { body: pick(creds) }), 429, 1401);
  });

  it('sheds a burst beyond the verification capacity with 503 1402 at once, not queued', async () => {
    const hasher = new GatedHasher({ ...CHEAP_ARGON2, maxConcurrent: 2 });
    const v = await venue({ hasher, loginRateLimit: { capacity: 25, refillPerSecond: 0.5 } });
    const admin = await bootstrapAdmin(v);
    const user = await createAccount(v, admin.token);
    const drained = await createAccount(v, admin.token);
    for (let i = 0; i < 25; i++) {
      expectError(await v.call('/auth/token', { body: { ...pick(drained), passphrase: 'no' } }), 401, 1101);
    }
    const adminToken = admin.token;

    hasher.close(); // verifications now hold their slot until opened
    const settled: { status: number; code?: number }[] = [];
    let eighteenSettled!: () => void;
    const eighteen = new Promise<void>((resolve) => (eighteenSettled = resolve));
    const burst = Array.from({ length: 20 }, () =>
      v.call('/auth/token', { body: pick(user) }).then((res) => {
        settled.push({ status: res.status, code: Number(res.body?.code) });
        if (settled.length === 18) eighteenSettled();
        return res;
      }),
    );
    // 18 refusals arrive while both admitted logins are still held before hashing.
    await eighteen;
    expect(settled).toEqual(Array.from({ length: 18 }, () => ({ status: 503, code: 1402 })));
    expect(hasher.inFlight).toBe(2);
    expect(hasher.waiting).toBe(2);

    // Order of checks while at capacity: an unknown key is still 401, an empty bucket still 429.
    expectError(await v.call('/auth/token', { body: { ...pick(user), api_key: 'nj_nobody' } }), 401, 1101);
    expectError(await v.call('/auth/token', { body: pick(drained) }), 429, 1401);
    const refusal = await v.call('/auth/token', { body: pick(admin.creds) });
    expectError(refusal, 503, 1402, 'credential verification at capacity; retry shortly');
    expect(refusal.headers['retry-after']).toBeUndefined();
    // Bearer checks need no verification slot.
    expect((await v.call('/admin/probe', { token: adminToken })).status).toBe(200);

    hasher.open();
    const responses = await Promise.all(burst);
    expect(responses.filter((r) => r.status === 200)).toHaveLength(2);
    expect(responses.filter((r) => r.status === 503)).toHaveLength(18);
    expect(responses.some((r) => r.status >= 500 && r.status !== 503)).toBe(false);
    expect(hasher.inFlight).toBe(0);

    // Refused logins were refunded: 25 - 2 admitted = 23 left for `user`.
    for (let i = 0; i < 23; i++) await loginOk(v, user);
    expectError(await v.call('/auth/token', { body: pick(user) }), 429, 1401);
  });
});

describe('bearer tokens', () => {
  it('expire exactly: valid at expires_at - 1 ms, 401 at expires_at', async () => {
    const clock = new ManualClock(T0);
    const v = await venue({ clock, tokenTtlSeconds: 60 });
    const { creds } = await bootstrapAdmin(v);
    const issuedAt = clock.ms;
    const token = await loginOk(v, creds);
    clock.set(issuedAt + 60_000 - 1);
    expect((await v.call('/account/settings', { token })).status).toBe(200);
    expect((await v.call('/probe', { token })).status).toBe(200);
    clock.set(issuedAt + 60_000);
    expectError(await v.call('/account/settings', { token }), 401, 1101, 'token expired');
    expectError(await v.call('/probe', { token }), 401, 1101);
    expectError(await v.call('/auth/token/revoke', { method: 'POST', token }), 401, 1101);
  });

  it('refuses missing, malformed and forged tokens with 401 1101', async () => {
    const v = await venue();
    const { token } = await bootstrapAdmin(v);
    expectError(await v.call('/account/settings'), 401, 1101, 'missing bearer token');
    const headers = [
      'Basic dXNlcjpwYXNz',
      'Bearer',
      `Token ${token}`,
      `Bearer ${token}x`,
      `Bearer ${token.slice(0, -1)}`,
      `Bearer ${token.slice(0, -2)}${token.at(-2) === 'A' ? 'B' : 'A'}${token.at(-1)}`,
      `Bearer ${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`,
    ];
    for (const authorization of headers) {
      expectError(await v.call('/account/settings', { headers: { authorization } }), 401, 1101);
    }
    // A token minted by another venue (another MAC key) for an account id this venue does not know.
    const other = await venue();
    const foreign = await bootstrapAdmin(other);
    expectError(await v.call('/account/settings', { token: foreign.token }), 401, 1101);
    // The scheme is case-insensitive.
    const ok = await v.call('/account/settings', { headers: { authorization: `bearer ${token}` } });
    expect(ok.status).toBe(200);
  });

  it('revoke denylists the presented token at once; other tokens of the account keep working', async () => {
    const v = await venue();
    const { creds } = await bootstrapAdmin(v);
    const first = await loginOk(v, creds);
    const second = await loginOk(v, creds);
    const res = await v.call('/auth/token/revoke', { method: 'POST', token: first });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ revoked: true });
    expectError(await v.call('/account/settings', { token: first }), 401, 1101, 'token revoked');
    expectError(await v.call('/auth/token/revoke', { method: 'POST', token: first }), 401, 1101);
    expect((await v.call('/account/settings', { token: second })).status).toBe(200);
    expectError(await v.call('/auth/token/revoke', { method: 'POST' }), 401, 1101);
  });

  it('suspension gives 403 1150 at once on every authenticated route; enable restores the same token', async () => {
    const v = await venue();
    const admin = await bootstrapAdmin(v);
    const user = await createAccount(v, admin.token);
    const token = await loginOk(v, user);
    expect((await v.call('/probe', { token })).status).toBe(200);

    const disabled = await v.call(`/admin/accounts/${user.api_key}/disable`, {
      method: 'POST',
      token: admin.token,
    });
    expect(disabled.body).toEqual({
      account_id: user.account_id,
      api_key: user.api_key,
      is_admin: false,
      enabled: false,
    });
    expectError(await v.call('/probe', { token }), 403, 1150, 'account disabled');
    expectError(await v.call('/account/settings', { token }), 403, 1150);
    expectError(
      await v.call('/account/settings', {
        method: 'PUT',
        token,
        body: { cancel_on_disconnect_default: true },
      }),
      403,
      1150,
    );
    expectError(await v.call('/auth/token/revoke', { method: 'POST', token }), 403, 1150);

    const enabled = await v.call(`/admin/accounts/${user.api_key}/enable`, {
      method: 'POST',
      token: admin.token,
    });
    expect(enabled.body.enabled).toBe(true);
    expect((await v.call('/probe', { token })).status).toBe(200);
  });

  it('revoke-tokens: older and same-second tokens are 401, a token from a later second works', async () => {
    const clock = new ManualClock(T0); // T0 is 250 ms into its second
    const v = await venue({ clock });
    const admin = await bootstrapAdmin(v);
    const user = await createAccount(v, admin.token);
    const old = await loginOk(v, user);
    clock.advance(2000);
    const earlierSameSecond = await loginOk(v, user);
    clock.advance(100);

    const res = await v.call(`/admin/accounts/${user.api_key}/revoke-tokens`, {
      method: 'POST',
      token: admin.token,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      account_id: user.account_id,
      api_key: user.api_key,
      is_admin: false,
      enabled: true,
    });
    expectError(await v.call('/probe', { token: old }), 401, 1101, 'token invalidated by an operator');
    expectError(await v.call('/probe', { token: earlierSameSecond }), 401, 1101);

    clock.advance(100); // still the same second as the revocation
    const sameSecond = await loginOk(v, user); // the login succeeds...
    expectError(await v.call('/probe', { token: sameSecond }), 401, 1101); // ...but the token is refused

    clock.set(Math.floor(clock.ms / 1000) * 1000 + 1000); // the next second
    const fresh = await loginOk(v, user);
    expect((await v.call('/probe', { token: fresh })).status).toBe(200);
    expectError(await v.call('/probe', { token: old }), 401, 1101);
    expectError(await v.call('/probe', { token: sameSecond }), 401, 1101);
    // Not a suspension, and other accounts are untouched.
    expect((await v.call('/admin/probe', { token: admin.token })).status).toBe(200);
  });
});
