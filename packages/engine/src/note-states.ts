/**
 * The engine's mirror of the ledger's nullifier set: which notes are spent and which are under a
 * live lock, so intake and every auction refuse an unusable note without asking the ledger per
 * order. It follows the ledger's `note` events; at start (after subscribing, so nothing that lands
 * meanwhile is missed) and after a `resync` it reads the sets back page by page
 * (`getSpentNullifiers`, `getLiveLocks`). The spent set only grows, so its read resumes from its
 * cursor. A lock a settlement found on a note, or a spend, is learnt at once (`learn`).
 */
import { LOCK_TTL_CEILING_SLOTS } from '@nightjar/protocol';
import type { LedgerClient, LedgerEvent } from '@nightjar/ledger';

export type NoteState = 'free' | 'locked' | 'spent';

type NoteEvent = Extract<LedgerEvent, { type: 'note' }>;
export type NoteStateLedger = Pick<LedgerClient, 'subscribe' | 'getSpentNullifiers' | 'getLiveLocks'>;

export class NoteStateMirror {
  private readonly spent = new Set<string>();
  /** Live locks by nullifier: the slot they hold until. */
  private readonly locks = new Map<string, number>();
  private spentCursor = 0;
  /** Nullifiers an event spoke of while the locks were read: the event is the newer word. */
  private touchedDuringLoad: Set<string> | undefined;
  private loading: Promise<void> | undefined;
  private reloadAgain = false;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly ledger: NoteStateLedger,
    private readonly log: (msg: string, fields?: object) => void = () => undefined,
  ) {}

  async start(): Promise<void> {
    this.unsubscribe = this.ledger.subscribe((e) => this.onEvent(e));
    await this.reload();
  }

  stop(): void {
    this.unsubscribe?.();
  }

  /** How many spent nullifiers the mirror holds: grows whenever it learns of one. */
  get spentCount(): number {
    return this.spent.size;
  }

  isSpent(nullifier: string): boolean {
    return this.spent.has(nullifier);
  }

  /** The note's state at `slot` as far as the mirror knows (a lock at or past its end is free). */
  state(nullifier: string, slot: number): NoteState {
    if (this.isSpent(nullifier)) return 'spent';
    return (this.locks.get(nullifier) ?? 0) > slot ? 'locked' : 'free';
  }

  /** The slot the note's live lock holds until, if it is locked at `slot`. */
  lockedUntil(nullifier: string, slot: number): number | undefined {
    const until = this.locks.get(nullifier);
    return until !== undefined && until > slot ? until : undefined;
  }

  /**
   * What a refused lock told the engine (`NoteSpent`, `NoteLocked`): remembered at once, so the same
   * note is refused at intake even if its event has not arrived. A lock of unknown end is taken to
   * hold for the longest a lock can; its release event clears it.
   */
  learn(nullifier: string, state: 'spent' | 'locked', slot: number): void {
    if (state === 'spent') this.markSpent(nullifier);
    else if (this.lockedUntil(nullifier, slot) === undefined)
      this.locks.set(nullifier, slot + Number(LOCK_TTL_CEILING_SLOTS));
  }

  private onEvent(e: LedgerEvent): void {
    if (e.type === 'note') this.apply(e);
    else if (e.type === 'resync') void this.reload().catch((err: unknown) => this.readFailed(err));
  }

  private apply(e: NoteEvent): void {
    this.touchedDuringLoad?.add(e.nullifier);
    if (e.state === 'spent') this.markSpent(e.nullifier);
    else if (e.state === 'locked' && e.locked_until_slot !== undefined)
      this.locks.set(e.nullifier, e.locked_until_slot);
    else this.locks.delete(e.nullifier);
  }

  private markSpent(nullifier: string): void {
    this.locks.delete(nullifier);
    this.spent.add(nullifier);
  }

  private readFailed(err: unknown): void {
    this.log('note-state mirror: reading the ledger failed; events still apply', {
      err: err instanceof Error ? err.message : 'unknown',
    });
  }

  /** One read of both sets at a time; a resync during a read reads again after it. */
  private reload(): Promise<void> {
    if (this.loading) {
      this.reloadAgain = true;
      return this.loading;
    }
    this.loading = (async () => {
      try {
        do {
          this.reloadAgain = false;
          await this.readSpent();
          await this.readLocks();
        } while (this.reloadAgain);
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }

  private async readSpent(): Promise<void> {
    for (;;) {
      const page = await this.ledger.getSpentNullifiers({ from: this.spentCursor });
      if (page.nullifiers.length === 0) return;
      for (const n of page.nullifiers) this.markSpent(n);
      this.spentCursor = page.next;
    }
  }

  /** The live locks as the ledger holds them now, except where an event since spoke later. */
  private async readLocks(): Promise<void> {
    this.touchedDuringLoad = new Set();
    try {
      const read = new Map<string, number>();
      for (let from = 0; ;) {
        const page = await this.ledger.getLiveLocks({ from });
        if (page.locks.length === 0) break;
        for (const l of page.locks) read.set(l.nullifier, l.until_slot);
        from = page.next;
      }
      for (const n of [...this.locks.keys()])
        if (!read.has(n) && !this.touchedDuringLoad.has(n)) this.locks.delete(n);
      for (const [n, until] of read) if (!this.touchedDuringLoad.has(n)) this.locks.set(n, until);
    } finally {
      this.touchedDuringLoad = undefined;
    }
  }
}
