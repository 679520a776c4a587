/**
 * Typed listeners by event type: what the stream's connection, its client and the wallet's
 * follower each publish their events through. `EventSource` is the subscribing side alone.
 */

/** Anything listeners can subscribe to, one event type at a time. */
export interface EventSource<E extends { type: string }> {
  /** Registers a callback for one event type; returns the unsubscribe function. */
  on<T extends E['type']>(type: T, listener: (event: Extract<E, { type: T }>) => void): () => void;
}

export class Listeners<E extends { type: string }> implements EventSource<E> {
  private readonly byType = new Map<string, Set<(e: E) => void>>();

  on<T extends E['type']>(type: T, listener: (event: Extract<E, { type: T }>) => void): () => void {
    const set = this.byType.get(type) ?? new Set();
    this.byType.set(type, set);
    const l = listener as (e: E) => void;
    set.add(l);
    return () => set.delete(l);
  }

  /** Calls every listener of the event's type, in the order they were added. */
  emit(e: E): void {
    for (const l of this.byType.get(e.type) ?? []) l(e);
  }
}
