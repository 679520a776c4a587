/** The connection's events as the stream client delivers them when no wallet follows the stream. */
import { Listeners, type EventSource } from './listeners.js';
import type { ReceivedEvent, StreamClientEvent } from './types.js';

/** Delivers `received` as it is: nothing stored, and a reconnect is a `resync` (then `reconnected`) at once. */
export function unfollowed(received: EventSource<ReceivedEvent>): EventSource<StreamClientEvent> {
  const out = new Listeners<StreamClientEvent>();
  received.on('order', ({ event, engine }) => out.emit({ type: 'order', event, source: 'stream', engine }));
  received.on('fill', ({ event, engine }) => out.emit({ type: 'fill', event, stored: false, engine }));
  received.on('disconnected', (e) => out.emit(e));
  received.on('reconnected', ({ reason, disconnectedAt, engine }) => {
    out.emit({ type: 'resync', reason, engine });
    out.emit({ type: 'reconnected', reason, downtimeMs: Date.now() - disconnectedAt, engine });
  });
  received.on('tree', (e) => out.emit(e));
  received.on('error', (e) => out.emit(e));
  return out;
}
