import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { VenueError } from '@nightjar/protocol';
import { describe, expect, it } from 'vitest';
import { AccountService, type AccountEvent, type AccountServiceOptions } from './account-service.js';
import { CredentialHasher } from './credential-hasher.js';
import { SqliteAccountStore } from './sqlite-store.js';
import { TokenCodec } from './tokens.js';

const CHEAP = { memoryCost: 1024, timeCost: 1, parallelism: 1 };
const T0 = 1_750_003_200_250;

async function service(options: Partial<AccountServiceOptions> = {}) {
  const clock = { ms: T0 };
  const db = new Database(':memory:');
  const accounts = await AccountService.open({
    hasher: CHEAP,
    now: () => clock.ms,
    ...options,
    store: new SqliteAccountStore(db),
  });
  return { accounts, clock, db };
}

async function codeOf(fn: () => unknown): Promise<number | undefined> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof VenueError) return err.code;
    throw err;
  }
  return undefined;
}

async function rejection(p: Promise<unknown>): Promise<VenueError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof VenueError) return err;
    throw err;
  }
  throw new Error('expected a VenueError');
}

describe('AccountService', () => {
  it('validates the token lifetime', async () => {
    await expect(service({ tokenTtlSeconds: 0 })).rejects.toThrow(RangeError);
    await expect(service({ tokenTtlSeconds: 3601 })).rejects.toThrow(RangeError);
    await expect(service({ tokenTtlSeconds: 1.5 })).rejects.toThrow(RangeError);
    expect((await service({ tokenTtlSeconds: 1 })).accounts.tokenTtlSeconds).toBe(1);
  });

  it('creates the dev admin once, even when asked twice at the same time', async () => {
    const { accounts } = await service();
    const [a, b] = await Promise.all([accounts.ensureDevAdmin(), accounts.ensureDevAdmin()]);
    const created = [a, b].filter((x) => x !== undefined);
    expect(created).toHaveLength(1);
    expect(created[0]!.is_admin).toBe(true);
    expect(await accounts.ensureDevAdmin()).toBeUndefined();
    expect(accounts.stats()).toMatchObject({ accounts: 1, enabledAdmins: 1 });
  });

  it('issues tokens whose principal follows the current account state', async () => {
    const { accounts, clock } = await service({ tokenTtlSeconds: 10 });
    const admin = (await accounts.ensureDevAdmin())!;
    const user = await accounts.createAccount({ label: 'u' });
    const res = await accounts.login(user);
    expect(res.expires_in).toBe(10);
    const p = accounts.authenticate(`Bearer ${res.access_token}`);
    expect(p).toMatchObject({
      accountId: user.account_id,
      apiKey: user.api_key,
      isAdmin: false,
      issuedAtS: Math.floor(T0 / 1000),
      expiresAtMs: T0 + 10_000,
    });
    expect(accounts.authenticateToken(res.access_token)).toEqual(p);
    expect(accounts.revalidate(p)).toEqual(p);
    await accounts.disable(user.api_key);
    expect(await codeOf(() => accounts.revalidate(p))).toBe(1150);
    await accounts.enable(user.api_key);
    clock.ms = T0 + 10_000;
    expect(await codeOf(() => accounts.revalidate(p))).toBe(1101);
    expect(await codeOf(() => accounts.disable(admin.api_key))).toBe(1206);
  });

  it('parses the Authorization header strictly', async () => {
    const { accounts } = await service();
    const admin = (await accounts.ensureDevAdmin())!;
    const { access_token: token } = await accounts.login(admin);
    expect(accounts.authenticate(`BEARER   ${token}`).apiKey).toBe(admin.api_key);
    for (const header of [
      undefined,
      '',
      token,
      `Bearer${token}`,
      `Basic ${token}`,
      `Bearer ${token} extra`,
    ]) {
      expect(await codeOf(() => accounts.authenticate(header))).toBe(1101);
    }
  });

  it('notifies listeners of suspensions and revocations as they are stored', async () => {
    const { accounts } = await service();
    await accounts.ensureDevAdmin();
    const user = await accounts.createAccount();
    const events: AccountEvent[] = [];
    const stop = accounts.onChange((e) => events.push(e));
    const principal = accounts.authenticateToken((await accounts.login(user)).access_token);
    await accounts.disable(user.api_key);
    await accounts.disable(user.api_key); // no change, no event
    await accounts.enable(user.api_key);
    await accounts.revokeTokens(user.api_key);
    await accounts.revoke(principal);
    stop();
    await accounts.disable(user.api_key);
    const id = user.account_id;
    expect(events).toEqual([
      { type: 'disabled', accountId: id },
      { type: 'enabled', accountId: id },
      { type: 'tokens-revoked', accountId: id },
      { type: 'token-revoked', accountId: id, jti: principal.jti },
    ]);
  });

  it('sees a suspension that lands while the credentials are being verified', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const verifying = new Promise<void>((r) => (started = r));
    class Held extends CredentialHasher {
      protected override async verifyOne(hash: string, secret: string): Promise<boolean> {
        started();
        await gate;
        return super.verifyOne(hash, secret);
      }
    }
    const hasher = new Held(CHEAP);
    const { accounts } = await service({ hasher });
    await accounts.ensureDevAdmin();
    const user = await accounts.createAccount();
    const login = accounts.login(user);
    await verifying;
    await accounts.disable(user.api_key);
    release();
    const err = await rejection(login);
    expect([err.code, err.message]).toEqual([1150, 'account disabled']);
  });

  it('prunes expired denylist entries from memory and disk', async () => {
    const { accounts, clock, db } = await service({ tokenTtlSeconds: 60 });
    const admin = (await accounts.ensureDevAdmin())!;
    for (let i = 0; i < 5; i++) {
      await accounts.revoke(accounts.authenticateToken((await accounts.login(admin)).access_token));
    }
    expect(accounts.stats().denylisted).toBe(5);
    clock.ms += 30_000;
    const late = accounts.authenticateToken((await accounts.login(admin)).access_token);
    await accounts.revoke(late);
    clock.ms = T0 + 60_000; // the first five have expired, the sixth has not
    expect(await accounts.pruneDenylist()).toBe(5);
    expect(accounts.stats().denylisted).toBe(1);
    expect(db.prepare('SELECT COUNT(*) AS n FROM revoked_tokens').get()).toEqual({ n: 1 });
    // Revoking also sweeps, at most once a minute.
    clock.ms = T0 + 120_000; // the sixth expired at T0 + 90 s; the last sweep was a minute ago
    const another = accounts.authenticateToken((await accounts.login(admin)).access_token);
    await accounts.revoke(another);
    expect(accounts.stats().denylisted).toBe(1);
    expect(await codeOf(() => accounts.revalidate(another))).toBe(1101);
  });

  it('answers unknown accounts with 1301 on admin and settings calls', async () => {
    const { accounts } = await service();
    for (const fn of [
      () => accounts.disable('nj_x'),
      () => accounts.enable('nj_x'),
      () => accounts.revokeTokens('nj_x'),
      () => accounts.getSettings('0'.repeat(32)),
      () => accounts.putSettings('0'.repeat(32), { cancel_on_disconnect_default: true }),
    ]) {
      expect(await codeOf(fn)).toBe(1301);
    }
  });

  it('never lets revoke-tokens move the cut-off backwards', async () => {
    const { accounts, clock } = await service();
    const admin = (await accounts.ensureDevAdmin())!;
    const user = await accounts.createAccount();
    await accounts.revokeTokens(user.api_key); // cut-off: the second of T0
    clock.ms -= 5000; // the wall clock steps back
    await accounts.revokeTokens(user.api_key);
    clock.ms = T0 + 500; // still the second of the first revocation
    const sameSecond = await accounts.login(user);
    expect(await codeOf(() => accounts.authenticateToken(sameSecond.access_token))).toBe(1101);
    clock.ms = T0 + 1000;
    const fresh = await accounts.login(user);
    expect(accounts.authenticateToken(fresh.access_token).accountId).toBe(user.account_id);
    expect(accounts.authenticateToken((await accounts.login(admin)).access_token).isAdmin).toBe(true);
  });

  it("refuses a key holder's token issued in the future or living longer than the TTL (issue 28.1)", async () => {
    const tokenKey = randomBytes(32);
    const { accounts, clock } = await service({ tokenKey, tokenTtlSeconds: 60 });
    const user = await accounts.createAccount();
    const codec = new TokenCodec(tokenKey);
    const nowS = Math.floor(T0 / 1000);
    const mint = (issuedAtS: number, lifetimeS: number) =>
      codec.issue(user.account_id, issuedAtS, issuedAtS * 1000 + lifetimeS * 1000).token;
    // Within the skew, a token of the configured lifetime (the longest a login issues) is accepted.
    expect(accounts.authenticateToken(mint(nowS + 30, 60)).accountId).toBe(user.account_id);
    expect(accounts.authenticateToken(mint(nowS, 61)).accountId).toBe(user.account_id);
    const year2100 = mint(4_102_444_800, 60);
    for (const token of [mint(nowS + 31, 60), year2100, mint(nowS, 62), mint(nowS - 3600, 7200)])
      expect(await codeOf(() => accounts.authenticateToken(token))).toBe(1101);
    // And so nothing a key holder mints outlives revoke-tokens by more than the skew.
    await accounts.revokeTokens(user.api_key);
    clock.ms += 1000;
    expect(await codeOf(() => accounts.authenticateToken(year2100))).toBe(1101);
    expect(await codeOf(() => accounts.authenticateToken(mint(nowS, 60)))).toBe(1101);
  });
});
