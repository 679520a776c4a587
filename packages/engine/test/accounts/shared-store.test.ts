/**
 * Two engines' account services on one PostgreSQL: what one does, the other honours. Tokens stay
 * per engine (each its own MAC key): a token is only ever checked by the engine that issued it,
 * so a jti revoked at A matters at B only if B issued it, which only a restart of the same engine
 * (same key) does; the denylist is shared all the same.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '@nightjar/testkit/postgres';
import type { AccountEvent, AccountService } from '../../src/accounts/account-service.js';
import { migrate } from '../../src/pg/migrate.js';
import { codeOf, PgEngines, pollUntil } from '../pg-helpers.js';

let server: TestPostgres;
let engines: PgEngines;
const clock = { ms: Date.now() };
const now = () => clock.ms;

beforeAll(async () => {
  server = await startPostgres();
  const setup = new PgEngines(server.url);
  await migrate(setup.pool());
  await setup.close();
});
afterAll(async () => {
  await server?.close();
});
beforeEach(async () => {
  engines = new PgEngines(server.url);
  await engines.pool().query('TRUNCATE accounts, revoked_tokens, rate_buckets');
});
afterEach(async () => {
  await engines.close();
});

/** B's account events from `action` on (a live list), once B has heard of at least one. */
async function heardAtB(b: AccountService, action: () => Promise<unknown>): Promise<AccountEvent[]> {
  const events: AccountEvent[] = [];
  b.onChange((e) => events.push(e));
  await action();
  await pollUntil(() => events.length > 0, 'B to hear of the change');
  return events;
}

/** A new account made at A, once B knows every account A does, and a token B issued it. */
async function userWithTokenAtB(a: AccountService, b: AccountService) {
  const user = await a.createAccount();
  await pollUntil(() => b.stats().accounts === a.stats().accounts, 'B to learn the accounts');
  return { user, token: (await b.login(user)).access_token };
}

async function twoEngines(tokenKey?: Uint8Array) {
  const key = tokenKey ? { tokenKey } : {};
  const a = await engines.accounts({ now, ...key });
  const b = await engines.accounts({ now, ...key });
  return { a, b };
}

describe('accounts shared by two engines on one PostgreSQL', () => {
  it('an account created at A logs in at B', async () => {
    const { a, b } = await twoEngines();
    const user = await a.createAccount({ label: 'u' });
    await pollUntil(async () => (await codeOf(() => b.login(user))) === undefined, 'login at B');
    const token = (await b.login(user)).access_token;
    expect(b.authenticateToken(token).accountId).toBe(user.account_id);
    // Each engine's tokens are its own: A cannot check B's.
    expect(await codeOf(() => a.authenticateToken(token))).toBe(1101);
  });

  it('a disable at A makes B refuse B’s token with 1150 and emit disabled; enable restores it', async () => {
    const { a, b } = await twoEngines();
    await a.ensureFirstAdmin('root');
    const { user, token } = await userWithTokenAtB(a, b);
    const events = await heardAtB(b, () => a.disable(user.api_key));
    expect(events).toEqual([{ type: 'disabled', accountId: user.account_id }]);
    expect(await codeOf(() => b.authenticateToken(token))).toBe(1150);
    await a.enable(user.api_key);
    await pollUntil(
      async () => (await codeOf(() => b.authenticateToken(token))) === undefined,
      'enable at B',
    );
    expect(events.at(-1)).toEqual({ type: 'enabled', accountId: user.account_id });
  });

  it('revoke-tokens at A makes B refuse tokens B issued before it', async () => {
    const { a, b } = await twoEngines();
    const { user, token: old } = await userWithTokenAtB(a, b);
    const events = await heardAtB(b, () => a.revokeTokens(user.api_key));
    expect(events).toEqual([{ type: 'tokens-revoked', accountId: user.account_id }]);
    expect(await codeOf(() => b.authenticateToken(old))).toBe(1101);
    clock.ms += 1000; // the next second's tokens work
    expect(b.authenticateToken((await b.login(user)).access_token).accountId).toBe(user.account_id);
  });

  it('a jti revoked at A is refused at B only if B issued it (the same engine restarted: same key)', async () => {
    const { a, b } = await twoEngines(randomBytes(32));
    const other = await engines.accounts({ now }); // another engine: its own key
    const user = await a.createAccount();
    await pollUntil(() => b.stats().accounts === 1 && other.stats().accounts === 1, 'the account');
    const principal = a.authenticateToken((await a.login(user)).access_token);
    const token = (await a.login(user)).access_token;
    const revoked = a.authenticateToken(token);
    await a.revoke(revoked);
    await pollUntil(() => b.stats().denylisted === 1 && other.stats().denylisted === 1, 'the denylist');
    expect(await codeOf(() => b.authenticateToken(token))).toBe(1101); // 'token revoked'
    expect(() => b.authenticateToken(token)).toThrow('token revoked');
    expect(() => other.authenticateToken(token)).toThrow('invalid token'); // never B's to check
    expect(b.revalidate(principal).accountId).toBe(user.account_id); // A's other token still good
  });

  it('keeps one enabled admin when two engines disable the last two at once', async () => {
    const { a, b } = await twoEngines();
    const x = (await a.ensureFirstAdmin('x'))!;
    const y = await a.createAccount({ is_admin: true });
    await pollUntil(() => b.stats().enabledAdmins === 2, 'B to learn both admins');
    const codes = await Promise.all([codeOf(() => a.disable(x.api_key)), codeOf(() => b.disable(y.api_key))]);
    expect(codes.sort()).toEqual([1206, undefined].sort());
    await pollUntil(() => a.stats().enabledAdmins === 1 && b.stats().enabledAdmins === 1, 'both to agree');
  });

  it('makes one first admin when two engines boot together', async () => {
    const { a, b } = await twoEngines();
    const made = await Promise.all([a.ensureFirstAdmin('a'), b.ensureFirstAdmin('b')]);
    expect(made.filter((m) => m !== undefined)).toHaveLength(1);
    // The loser learned the winner's admin at once.
    expect(a.stats().accounts).toBe(1);
    expect(b.stats().accounts).toBe(1);
  });

  it('catches up on a change it missed once its lost change feed reconnects', async () => {
    const { a, b } = await twoEngines();
    const { user, token } = await userWithTokenAtB(a, b);
    const db = engines.pool();
    // A change whose notification never came (made while the feeds were down, say)...
    await db.query('UPDATE accounts SET enabled = false WHERE account_id = $1', [user.account_id]);
    expect(b.authenticateToken(token).accountId).toBe(user.account_id);
    // ...is caught up when the feed's connection is lost and made again.
    const events = await heardAtB(b, async () => {
      const cut = await db.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN nightjar_accounts'`,
      );
      expect(cut.rowCount).toBe(2);
    });
    expect(events).toEqual([{ type: 'disabled', accountId: user.account_id }]);
    expect(await codeOf(() => b.authenticateToken(token))).toBe(1150);
  });

  it('shares one login bucket per account between the engines', async () => {
    const login = { capacity: 2, refillPerSecond: 0.001 };
    const a = await engines.accounts({
      now,
      loginLimiter: engines.limiter({ bucket: 'login', ...login, now }),
    });
    const b = await engines.accounts({
      now,
      loginLimiter: engines.limiter({ bucket: 'login', ...login, now }),
    });
    const { user } = await userWithTokenAtB(a, b); // B's first attempt
    await a.login(user); // A's: the second of two
    expect(await codeOf(() => b.login(user))).toBe(1401);
    expect(await codeOf(() => a.login(user))).toBe(1401);
  });
});
