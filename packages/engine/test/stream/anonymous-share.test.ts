/**
 * Sixteen source addresses holding their eight sockets each fill the 128 sockets that may wait
 * to log in; a trader from a seventeenth address still connects and logs in (no 503). Real
 * sockets from real source addresses: loopback is 127.0.0.0/8, so each client binds its own
 * 127.0.0.x (the engine listens on 127.0.0.1), with the venue's default limits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestVenue, type TestVenue } from '@nightjar/testkit';
import { eventually, StreamClient } from './stream-client.js';

const ATTACKER_ADDRESSES = Array.from({ length: 16 }, (_, i) => `127.0.0.${i + 2}`);
const TRADER_ADDRESS = '127.0.0.18';

describe('the anonymous socket budget is shared fairly between addresses', () => {
  let v: TestVenue;
  let attackers: StreamClient[][] = [];

  beforeAll(async () => {
    v = await startTestVenue({ loginRateLimit: { capacity: 1000, refillPerSecond: 1000 } });
  });
  afterAll(async () => {
    await Promise.all(attackers.flat().map((c) => c.close()));
    await v.close();
  });

  const hub = () => v.engine.context.streamHub;

  it('sixteen addresses fill the budget; a trader from a seventeenth connects and logs in', async () => {
    expect(new URL(v.engine.url).hostname).toBe('127.0.0.1');
    attackers = [];
    for (const address of ATTACKER_ADDRESSES)
      attackers.push(
        await Promise.all(Array.from({ length: 8 }, () => StreamClient.connect(v, '/v1/stream', address))),
      );
    expect(hub().stats()).toMatchObject({ anonymous: 128, authenticated: 0 });

    const { token, accountId } = await v.newAccount();
    const trader = await StreamClient.login(v, token, {}, TRADER_ADDRESS);
    expect(trader.loginReply).toMatchObject({ op: 'login', result: { account_id: accountId } });
    // Its slot came from the oldest socket of an address holding the most (eight), closed 4408.
    expect(await attackers[0]![0]!.closed).toEqual({
      code: 4408,
      reason: 'no login yet: slot given to a new connection',
    });
    expect(hub().stats()).toMatchObject({ anonymousEvictions: 1, authenticated: 1 });
    // Logged in, the trader left the anonymous budget: the evicted slot is free again, and the
    // address that lost it may take it back, but no more than its share (128 / 16 = 8).
    await eventually(() => hub().stats().anonymous === 127, 'the evicted socket to go');
    attackers[0]!.push(await StreamClient.connect(v, '/v1/stream', ATTACKER_ADDRESSES[0]));
    expect(hub().stats()).toMatchObject({ anonymous: 128, anonymousEvictions: 1 });

    // A second trader's socket from the same new address waits for its login beside the 128,
    // and an attacker address at its share is refused rather than taking its slot.
    const waiting = attackers.map((sockets) => sockets.filter((c) => c !== attackers[0]![0]));
    const victim = Promise.race(
      waiting.flatMap((sockets, i) => sockets.map((c) => c.closed.then((closed) => ({ i, closed })))),
    );
    const second = await StreamClient.connect(v, '/v1/stream', TRADER_ADDRESS);
    expect(hub().stats()).toMatchObject({ anonymous: 128, anonymousEvictions: 2 });
    const { i, closed } = await victim;
    expect(closed.code).toBe(4408);
    await expect(StreamClient.connect(v, '/v1/stream', ATTACKER_ADDRESSES[i])).rejects.toThrow(
      'upgrade answered 503',
    );
    const other = await v.newAccount();
    expect(await second.request({ op: 'login', token: other.token })).toMatchObject({ op: 'login' });
    await Promise.all([trader.close(), second.close()]);
  }, 60_000);
});
