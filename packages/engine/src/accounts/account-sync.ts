/**
 * Keeps an engine's account cache and denylist in step with a store other engines write too:
 * each change another engine makes (or a reload after the change feed was lost) is applied to the
 * cached rows in place (so a login holding a row sees a disable that lands meanwhile) and emits the
 * same {@link AccountEvent}s as a local change, so stream sessions of a disabled account close.
 */
import type { AccountCache } from './account-cache.js';
import type { TokenDenylist } from './denylist.js';
import type { AccountRow, AccountStore, StoreChange, StoreWatcher } from './store.js';

/** State changes a long-lived session (the stream) must act on at once. Listeners must not throw. */
export type AccountEvent =
  | { type: 'disabled' | 'enabled' | 'tokens-revoked'; accountId: string }
  | { type: 'token-revoked'; accountId: string; jti: string };

export class AccountSync implements StoreWatcher {
  constructor(
    private readonly store: AccountStore,
    private readonly cache: AccountCache,
    private readonly denylist: TokenDenylist,
    private readonly emit: (event: AccountEvent) => void,
  ) {}

  async changed(change: StoreChange): Promise<void> {
    if ('jti' in change) {
      const token = await this.store.revokedToken(change.jti);
      if (token !== undefined && this.denylist.learn(token))
        this.emit({ type: 'token-revoked', accountId: token.accountId, jti: token.jti });
      return;
    }
    const row = await this.store.getAccount(change.accountId);
    if (row !== undefined) this.apply(row);
  }

  async resync(): Promise<void> {
    const rows = await this.store.listAccounts();
    const learned = await this.denylist.reload();
    for (const row of rows) this.apply(row);
    for (const t of learned) this.emit({ type: 'token-revoked', accountId: t.accountId, jti: t.jti });
  }

  /** Updates the cached row in place (api keys never change) and emits what changed. */
  private apply(fresh: AccountRow): void {
    const cached = this.cache.get(fresh.accountId);
    if (cached === undefined) {
      this.cache.add(fresh);
      return;
    }
    const events: AccountEvent['type'][] = [];
    if (cached.enabled !== fresh.enabled) events.push(fresh.enabled ? 'enabled' : 'disabled');
    if (fresh.tokensValidAfterS > cached.tokensValidAfterS) events.push('tokens-revoked');
    Object.assign(cached, fresh, {
      tokensValidAfterS: Math.max(cached.tokensValidAfterS, fresh.tokensValidAfterS),
    });
    for (const type of events) this.emit({ type, accountId: fresh.accountId } as AccountEvent);
  }
}
