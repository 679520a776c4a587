/**
 * Routes each bus event to the sessions that should see it: `orders` and `fills` to the
 * subscribed sessions of the account recorded at intake, `tree` to every tree subscriber. The body
 * is serialized once per event, and only if someone receives it.
 */
import type { BusEvent } from '../event-bus.js';
import { eventTail } from './frames.js';
import type { StreamHub } from './hub.js';

export function routeBusEvent(hub: StreamHub, event: BusEvent): void {
  switch (event.channel) {
    case 'orders':
    case 'fills': {
      const sessions = hub.sessionsOf(event.accountId);
      if (!sessions) return;
      let tail: string | undefined;
      for (const session of sessions) {
        if (!session.channels.has(event.channel)) continue;
        tail ??= eventTail(event.body);
        session.pushEvent(event.channel, tail, event.emittedAt);
      }
      return;
    }
    case 'tree': {
      if (hub.treeSubscribers.size === 0) return;
      const tail = eventTail(event.body);
      for (const session of hub.treeSubscribers) session.pushEvent('tree', tail, event.emittedAt);
      return;
    }
    case 'tree-reset':
      hub.failTreeSubscribers(`tree shard ${event.treeId} rebuilt from the chain; refresh tree state`);
      return;
  }
}
