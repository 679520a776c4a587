/**
 * Every account in memory, by id and by api key (the table is operator-sized). `AccountService`
 * updates it with each change once stored, and `AccountSync` with each change another engine
 * stores (rows updated in place), so a token check never touches the store.
 */
import { VenueError } from '@nightjar/protocol';
import type { AccountRow } from './store.js';

export class AccountCache {
  private readonly byId = new Map<string, AccountRow>();
  private readonly byApiKey = new Map<string, AccountRow>();

  get size(): number {
    return this.byId.size;
  }

  add(row: AccountRow): void {
    this.byId.set(row.accountId, row);
    this.byApiKey.set(row.apiKey, row);
  }

  byKey(apiKey: string): AccountRow | undefined {
    return this.byApiKey.get(apiKey);
  }

  get(accountId: string): AccountRow | undefined {
    return this.byId.get(accountId);
  }

  /** The account with this api key, else 1301. */
  require(apiKey: string): AccountRow {
    return this.byKey(apiKey) ?? noSuchAccount();
  }

  /** The account with this id, else 1301. */
  requireId(accountId: string): AccountRow {
    return this.get(accountId) ?? noSuchAccount();
  }

  hasAdmin(): boolean {
    for (const a of this.byId.values()) if (a.isAdmin) return true;
    return false;
  }

  enabledAdminCount(): number {
    let n = 0;
    for (const a of this.byId.values()) if (a.isAdmin && a.enabled) n++;
    return n;
  }
}

function noSuchAccount(): never {
  throw new VenueError(1301, 'no such account');
}
