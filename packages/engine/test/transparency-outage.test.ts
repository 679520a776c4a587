/** `/transparency` during a ledger outage is a subsystem outage (503 5001), never an internal error. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestVenue, type TestVenue } from '@nightjar/testkit';

describe('/transparency during a ledger outage', () => {
  let v: TestVenue;
  let now = Date.now();
  const logged: string[] = [];

  beforeAll(async () => {
    v = await startTestVenue({
      now: () => now,
      logger: { level: 'error', stream: { write: (line: string) => void logged.push(line) } },
    });
  });
  afterAll(async () => {
    await v.close();
  });

  it('answers 503 5001 whether or not the engine has noticed the outage yet, logs no unhandled error, and recovers', async () => {
    expect((await v.client.send('/transparency')).status).toBe(200);
    await v.ledger.setFaults({ outage: true });
    now += 5_000; // past the snapshot cache

    // The chain view has not polled yet: the ledger read itself fails.
    const unnoticed = await v.client.send('/transparency');
    expect([unnoticed.status, unnoticed.body.code]).toEqual([503, 5001]);

    // The chain view knows: refused before any ledger read.
    await v.engine.context.chain.poll();
    expect(v.engine.context.chain.available).toBe(false);
    const known = await v.client.send('/transparency');
    expect([known.status, known.body.code]).toEqual([503, 5001]);
    expect(logged.filter((line) => line.includes('unhandled error'))).toEqual([]);

    await v.ledger.setFaults({ outage: false });
    await v.engine.context.chain.poll();
    const back = await v.client.send('/transparency');
    expect(back.status).toBe(200);
    expect(back.body.shards).toHaveLength(4);
  });
});
