import { describe, expect, it } from 'vitest';
import { VenueEventBus, type BusEvent } from '../event-bus.js';
import { EventFeed } from './event-feed.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));
const body = (i: number) => ({
  order_id: i.toString(16).padStart(32, '0'),
  market_id: 'm',
  server_time_ms: i,
  kind: 'expired' as const,
});

describe('EventFeed', () => {
  it('delivers bus events in order, once per turn, with no loss', async () => {
    const bus = new VenueEventBus();
    bus.emit('a', body(0)); // before the feed: not its business
    const seen: number[] = [];
    const losses: string[] = [];
    new EventFeed(
      bus,
      8,
      (e) => seen.push(e.busSeq),
      (r) => losses.push(r),
    );
    for (let i = 1; i <= 5; i++) bus.emit('a', body(i));
    expect(seen).toEqual([]);
    await turn();
    expect(seen).toEqual([2, 3, 4, 5, 6]);
    expect(losses).toEqual([]);
  });

  it('reports the events a full queue dropped, even when they were the last ones', async () => {
    const bus = new VenueEventBus();
    const losses: string[] = [];
    const feed = new EventFeed(
      bus,
      3,
      () => undefined,
      (r) => losses.push(r),
    );
    for (let i = 1; i <= 5; i++) bus.emit('a', body(i));
    await turn();
    expect(losses).toEqual(['2 bus event(s) never reached the sessions']);
    expect(feed.stats()).toMatchObject({ cursor: 5, dropped: 2, backlog: 0 });
    bus.emit('a', body(6));
    await turn();
    expect(losses).toHaveLength(1);
  });

  it('counts an event whose delivery threw as lost, and delivers what delivery itself publishes', async () => {
    const bus = new VenueEventBus();
    const losses: string[] = [];
    const seen: number[] = [];
    new EventFeed(
      bus,
      8,
      (e: BusEvent) => {
        if (e.busSeq === 1) throw new Error('boom');
        if (e.busSeq === 2) bus.emit('a', body(99)); // e.g. a cancel-on-disconnect during fan-out
        seen.push(e.busSeq);
      },
      (r) => losses.push(r),
    );
    bus.emit('a', body(1));
    bus.emit('a', body(2));
    await turn();
    expect(seen).toEqual([2, 3]);
    expect(losses).toEqual(['1 bus event(s) never reached the sessions']);
  });

  it('a throwing bus listener does not stop the others', () => {
    const errors: unknown[] = [];
    const bus = new VenueEventBus((err) => errors.push(err));
    const got: number[] = [];
    bus.subscribe(() => {
      throw new Error('bad listener');
    });
    bus.subscribe((e) => got.push(e.busSeq));
    bus.emit('a', body(1));
    expect(got).toEqual([1]);
    expect(errors).toHaveLength(1);
  });
});
