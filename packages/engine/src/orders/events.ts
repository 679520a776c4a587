/**
 * Order lifecycle events as the `orders` stream channel will carry them (the stream itself comes
 * with its own issue). Routed by the account recorded at intake; a terminal event is the last.
 */
import { EventEmitter } from 'node:events';
import type { OrderEvent } from '@nightjar/protocol';

export type OrderEventBody = Omit<OrderEvent, 'seq' | 'channel'>;

export class OrderEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  emit(accountId: string, event: OrderEventBody): void {
    this.emitter.emit('event', accountId, event);
  }

  subscribe(listener: (accountId: string, event: OrderEventBody) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }
}
