/** Admin account routes, account settings and restart persistence, over real HTTPS. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateBootCertificate, type BootCertificate } from '../../src/tls.js';
import {
  ManualClock,
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
let tmp: string;
const venues: Venue[] = [];

beforeAll(async () => {
  certificate = await generateBootCertificate();
  tmp = mkdtempSync(join(tmpdir(), 'nightjar-accounts-'));
});

afterEach(async () => {
  await Promise.all(venues.splice(0).map((v) => v.close()));
});

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

async function venue(options: Omit<VenueOptions, 'certificate'> = {}): Promise<Venue> {
  const v = await startVenue({ certificate, ...options });
  venues.push(v);
  return v;
}

const ACTIONS = ['disable', 'enable', 'revoke-tokens'] as const;

describe('POST /admin/accounts', () => {
  it('creates an account and returns its credentials once, which then work', async () => {
    const v = await venue();
    const admin = await bootstrapAdmin(v);
    const res = await v.call('/admin/accounts', { token: admin.token, body: { label: 'market maker 1' } });
    expect(res.status).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(Object.keys(res.body).sort()).toEqual([
      'account_id',
      'api_key',
      'api_secret',
      'is_admin',
      'passphrase',
    ]);
    expect(res.body.account_id).toMatch(/^[0-9a-f]{32}$/);
    expect(res.body.api_key).toMatch(/^nj_[0-9a-f]{32}$/);
    expect(res.body.api_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.body.passphrase).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.body.api_secret).not.toBe(res.body.passphrase);
    expect(res.body.is_admin).toBe(false);
    const login = await v.call('/auth/token', { body: pick(res.body) });
    expect(login.status).toBe(200);
    expect(login.body.account_id).toBe(res.body.account_id);
    // A non-admin account is refused on admin routes.
    expectError(await v.call('/admin/probe', { token: login.body.access_token }), 403, 1150);
  });

  it('creates admins that can administer, and accepts an absent body', async () => {
    const v = await venue();
    const admin = await bootstrapAdmin(v);
    const second = await createAccount(v, admin.token, { is_admin: true });
    expect(second.is_admin).toBe(true);
    const token = await loginOk(v, second);
    const noBody = await v.call('/admin/accounts', { method: 'POST', token });
    expect(noBody.status).toBe(201);
    expect(noBody.body.is_admin).toBe(false);
    expect((await v.call('/admin/probe', { token })).status).toBe(200);
  });

  it('refuses malformed bodies with 400 1001', async () => {
    const v = await venue();
    const { token } = await bootstrapAdmin(v);
    for (const body of [{ is_admin: 'yes' }, { label: 'x'.repeat(129) }, { role: 'admin' }, [], null, 5]) {
      expectError(await v.call('/admin/accounts', { token, body }), 400, 1001);
    }
    expectError(await v.call('/admin/accounts', { token, rawBody: '{' }), 400, 1001);
  });
});

describe('admin guards', () => {
  it('401 without a token, 403 1150 for a non-admin on every admin route', async () => {
    const v = await venue();
    const admin = await bootstrapAdmin(v);
    const user = await createAccount(v, admin.token);
    const userToken = await loginOk(v, user);
    expectError(await v.call('/admin/accounts', { token: userToken, body: {} }), 403, 1150, 'admin only');
    expectError(await v.call('/admin/accounts', { body: {} }), 401, 1101);
    for (const action of ACTIONS) {
      const path = `/admin/accounts/${admin.creds.api_key}/${action}`;
      expectError(await v.call(path, { method: 'POST', token: userToken }), 403, 1150, 'admin only');
      expectError(await v.call(path, { method: 'POST' }), 401, 1101);
    }
    // A non-admin cannot probe for account existence either: 403 comes before 404.
    expectError(
      await v.call('/admin/accounts/nj_nobody/disable', { method: 'POST', token: userToken }),
      403,
      1150,
    );
  });

  it('unknown api_key on admin routes is 404 1301', async () => {
    const v = await venue();
    const { token } = await bootstrapAdmin(v);
    for (const action of ACTIONS) {
      expectError(
        await v.call(`/admin/accounts/nj_00000000000000000000000000000000/${action}`, {
          method: 'POST',
          token,
        }),
        404,
        1301,
        'no such account',
      );
    }
  });

  it('refuses to disable the last enabled admin with 409 1206', async () => {
    const v = await venue();
    const first = await bootstrapAdmin(v);
    const selfDisable = `/admin/accounts/${first.creds.api_key}/disable`;
    expectError(await v.call(selfDisable, { method: 'POST', token: first.token }), 409, 1206);
    expect((await v.call('/admin/probe', { token: first.token })).status).toBe(200);

    // A second admin, and a disabled third, do not change who is last.
    const second = await createAccount(v, first.token, { is_admin: true });
    const third = await createAccount(v, first.token, { is_admin: true });
    expect(
      (await v.call(`/admin/accounts/${third.api_key}/disable`, { method: 'POST', token: first.token }))
        .status,
    ).toBe(200);
    const res = await v.call(selfDisable, { method: 'POST', token: first.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      account_id: first.creds.account_id,
      api_key: first.creds.api_key,
      is_admin: true,
      enabled: false,
    });
    expectError(await v.call('/admin/probe', { token: first.token }), 403, 1150, 'account disabled');

    const secondToken = await loginOk(v, second);
    expectError(
      await v.call(`/admin/accounts/${second.api_key}/disable`, { method: 'POST', token: secondToken }),
      409,
      1206,
    );
    // Disabling is idempotent; re-enabling the first admin makes the second disable-able again.
    expect(
      (await v.call(`/admin/accounts/${third.api_key}/disable`, { method: 'POST', token: secondToken })).body
        .enabled,
    ).toBe(false);
    await v.call(`/admin/accounts/${first.creds.api_key}/enable`, { method: 'POST', token: secondToken });
    expect(
      (await v.call(`/admin/accounts/${second.api_key}/disable`, { method: 'POST', token: secondToken }))
        .status,
    ).toBe(200);
    expect(v.accounts.stats().enabledAdmins).toBe(1);
  });
});

describe('/account/settings', () => {
  it('round-trips cancel_on_disconnect_default per account', async () => {
    const v = await venue();
    const admin = await bootstrapAdmin(v);
    const user = await createAccount(v, admin.token);
    const token = await loginOk(v, user);
    expect((await v.call('/account/settings', { token })).body).toEqual({
      cancel_on_disconnect_default: false,
    });
    const put = await v.call('/account/settings', {
      method: 'PUT',
      token,
      body: { cancel_on_disconnect_default: true },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ cancel_on_disconnect_default: true });
    expect((await v.call('/account/settings', { token })).body).toEqual({
      cancel_on_disconnect_default: true,
    });
    // Per account.
    expect((await v.call('/account/settings', { token: admin.token })).body).toEqual({
      cancel_on_disconnect_default: false,
    });
    expect(v.accounts.getSettings(user.account_id)).toEqual({ cancel_on_disconnect_default: true });
  });

  it('refuses malformed settings with 400 1001 and requires a token', async () => {
    const v = await venue();
    const { token } = await bootstrapAdmin(v);
    for (const body of [
      {},
      { cancel_on_disconnect_default: 'true' },
      { cancel_on_disconnect_default: true, x: 1 },
    ]) {
      expectError(await v.call('/account/settings', { method: 'PUT', token, body }), 400, 1001);
    }
    expectError(await v.call('/account/settings', { method: 'PUT', token }), 400, 1001);
    expectError(
      await v.call('/account/settings', { method: 'PUT', body: { cancel_on_disconnect_default: true } }),
      401,
      1101,
    );
  });
});

describe('restart', () => {
  it('tokens, the denylist, suspensions, invalidations and settings survive a new service on the same file', async () => {
    const file = join(tmp, 'engine.sqlite');
    const clock = new ManualClock();
    const db1 = new Database(file);
    // The token key lives outside the database (the engine's token-key file); both boots load it.
    const tokenKey = randomBytes(32);
    const first = await venue({ db: db1, clock, keepDb: true, tokenKey });
    const admin = await bootstrapAdmin(first);
    const alice = await createAccount(first, admin.token);
    const bob = await createAccount(first, admin.token);
    const carol = await createAccount(first, admin.token);
    const kept = await loginOk(first, alice);
    const revoked = await loginOk(first, alice);
    const bobToken = await loginOk(first, bob);
    const carolToken = await loginOk(first, carol);
    await first.call('/auth/token/revoke', { method: 'POST', token: revoked });
    await first.call(`/admin/accounts/${bob.api_key}/disable`, { method: 'POST', token: admin.token });
    await first.call(`/admin/accounts/${carol.api_key}/revoke-tokens`, {
      method: 'POST',
      token: admin.token,
    });
    await first.call('/account/settings', {
      method: 'PUT',
      token: kept,
      body: { cancel_on_disconnect_default: true },
    });
    venues.splice(venues.indexOf(first), 1);
    await first.close();
    db1.close();

    clock.advance(1000);
    const second = await venue({ db: new Database(file), clock, tokenKey });
    expect((await second.call('/probe', { token: kept })).status).toBe(200);
    expectError(await second.call('/probe', { token: revoked }), 401, 1101, 'token revoked');
    expectError(await second.call('/probe', { token: bobToken }), 403, 1150);
    expectError(await second.call('/probe', { token: carolToken }), 401, 1101);
    expect((await second.call('/account/settings', { token: kept })).body).toEqual({
      cancel_on_disconnect_default: true,
    });
    await loginOk(second, carol);
    expectError(await second.call('/auth/token', { body: pick(bob) }), 403, 1150, 'account disabled');
    expect(await second.accounts.ensureDevAdmin()).toBeUndefined();
    expect(second.accounts.stats()).toMatchObject({ accounts: 4, enabledAdmins: 1, denylisted: 1 });
  });
});
