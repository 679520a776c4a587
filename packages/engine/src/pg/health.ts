/**
 * Whether the engine's PostgreSQL store is reachable, shared by the store, the change feed and the
 * rate limiters. Any failed query marks it down (the caller gets 503 5001, "account store
 * unavailable; new trading paused"); only the change feed marks it up again, once it has
 * reconnected and reloaded what it may have missed, so no request is answered from a stale cache.
 */
import { VenueError } from '@nightjar/protocol';

/** What a request gets while a shared store is unreachable (503). */
export function storeUnavailable(): VenueError {
  return new VenueError(5001, 'account store unavailable; new trading paused');
}

export class PgHealth {
  private down = false;
  private readonly downListeners = new Set<() => void>();

  get available(): boolean {
    return !this.down;
  }

  markDown(): void {
    if (this.down) return;
    this.down = true;
    for (const listener of this.downListeners) listener();
  }

  markUp(): void {
    this.down = false;
  }

  /** Called once each time the store goes down (the change feed reconnects on it). */
  onDown(listener: () => void): void {
    this.downListeners.add(listener);
  }

  /** Runs a query; any failure but a venue error marks the store down and becomes 503 5001. */
  async guard<T>(query: () => Promise<T>): Promise<T> {
    try {
      return await query();
    } catch (err) {
      if (err instanceof VenueError) throw err;
      this.markDown();
      throw storeUnavailable();
    }
  }
}
