/**
 * The stream on an engine whose accounts are in PostgreSQL: a disable made at another engine
 * closes the account's sessions here (1150, then 4403); while the store is unreachable a frame is
 * answered 5001 and the session stays open, working again once the store is back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, startTestVenue, type TestVenue } from '@nightjar/testkit';
import { startPostgres, type TestPostgres } from '@nightjar/testkit/postgres';
import { PgEngines, pollUntil } from '../pg-helpers.js';
import { StreamClient } from './stream-client.js';

let server: TestPostgres;
let venue: TestVenue;
let engines: PgEngines;
beforeAll(async () => {
  server = await startPostgres();
  venue = await startTestVenue({ store: server.url });
  engines = new PgEngines(server.url);
});
afterAll(async () => {
  await venue?.close();
  await engines?.close();
  await server?.close();
});

describe('stream sessions on a shared account store', () => {
  it('closes at once when another engine disables the account', async () => {
    const { token, credentials } = await venue.newAccount();
    const session = await StreamClient.login(venue, token);
    const other = await engines.accounts(); // another engine on the same database
    await pollUntil(() => other.stats().accounts === 2, 'the other engine to load the accounts');
    await other.disable(credentials.api_key);
    expect(await session.find((f) => f.op === 'error')).toMatchObject({ code: 1150 });
    expect((await session.closed).code).toBe(4403);
  });

  it('answers 5001 while the store is down and keeps the session', async () => {
    const { token } = await venue.newAccount();
    const session = await StreamClient.login(venue, token);
    await server.stop();
    try {
      let reply: Record<string, unknown> = {};
      await pollUntil(async () => {
        reply = await session.request({ op: 'subscribe', channels: ['orders'] });
        return reply.op === 'error';
      }, 'the engine to see the outage');
      expect(reply).toMatchObject({ code: 5001, message: 'account store unavailable; new trading paused' });
    } finally {
      await server.start();
    }
    await pollUntil(
      async () => (await session.request({ op: 'subscribe', channels: ['orders'] })).op === 'subscribe',
      'the session to work again',
    );
    expect(await login(venue.client, venue.admin)).toMatch(/^nj1\./);
    await session.close();
  });
});
