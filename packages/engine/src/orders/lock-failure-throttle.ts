/**
 * Accounts whose orders keep failing their locks because their note was already spent or locked
 * (`note_spent`, `note_locked`): each such failure cost a counterparty its match. After
 * `maxFailures` within `windowSlots` the account's placements are refused (1401) for
 * `coolDownSlots`. An honest trader's lock fails only when it spends a note in the very slot its
 * resting order matches (the mirror drops an order whose note was spent before its auction).
 */
export interface LockFailureLimit {
  maxFailures: number;
  windowSlots: number;
  coolDownSlots: number;
}

export const LOCK_FAILURE_LIMIT: LockFailureLimit = { maxFailures: 3, windowSlots: 300, coolDownSlots: 300 };

export class LockFailureThrottle {
  /** Per account, the slots of its recent failures (at most `maxFailures`). */
  private readonly failures = new Map<string, number[]>();
  private readonly coolUntil = new Map<string, number>();

  constructor(private readonly limit: LockFailureLimit = LOCK_FAILURE_LIMIT) {}

  record(accountId: string, slot: number): void {
    const recent = (this.failures.get(accountId) ?? []).filter((s) => s > slot - this.limit.windowSlots);
    recent.push(slot);
    if (recent.length >= this.limit.maxFailures) {
      this.coolUntil.set(accountId, slot + this.limit.coolDownSlots);
      this.failures.delete(accountId);
    } else this.failures.set(accountId, recent);
  }

  /** Slots left of the account's cool-down at `slot`, or undefined when it may place. */
  coolingDown(accountId: string, slot: number): number | undefined {
    const until = this.coolUntil.get(accountId);
    if (until === undefined) return undefined;
    if (until > slot) return until - slot;
    this.coolUntil.delete(accountId);
    return undefined;
  }
}
