/**
 * An optional random hold before a newly deposited note may back an order (issue 30, item 6).
 * A deposit was spent by the first settlement after it became final (rank 1 of 38): the deposit
 * and the order's settlement were tied by timing alone. With a hold, a deposit note waits a
 * uniform, crypto-random time after the client first finds it in the venue's tree (final) before
 * it backs an order, directly or through a split or merge made for one. Off by default.
 *
 * The hold is the client's memory: a restarted client draws a new hold for a note it has not yet
 * used (later, never earlier). Notes made by trades, change and join-splits are not held.
 */
import { randomInt } from 'node:crypto';
import type { WalletNote } from './wallet.js';

export interface FreshNoteHoldOptions {
  /** Largest hold in ms; each deposit note draws its own in `[0, maxMs]`. 0 turns it off. */
  maxMs: number;
  /** Unix ms (tests move it by hand); default `Date.now`. */
  now?: () => number;
  /** A uniform integer in `[0, maxInclusive]`; default `crypto.randomInt`. */
  random?: (maxInclusive: number) => number;
}

export class FreshNoteHold {
  private readonly until = new Map<string, number>();
  /** The hold's clock (Unix ms). */
  readonly now: () => number;
  private readonly random: (maxInclusive: number) => number;

  constructor(readonly options: FreshNoteHoldOptions) {
    if (!Number.isSafeInteger(options.maxMs) || options.maxMs < 0)
      throw new RangeError('freshNoteHold.maxMs must be a non-negative integer (ms)');
    this.now = options.now ?? Date.now;
    this.random = options.random ?? ((m) => randomInt(0, m + 1));
  }

  /** Whether holds apply at all. */
  get enabled(): boolean {
    return this.options.maxMs > 0;
  }

  /**
   * When `note` may back an order (Unix ms), or undefined when it is not held. `final`: the venue's
   * tree has the note; its hold starts the first time it is seen so. A deposit not yet final is
   * held indefinitely (`Infinity`): its hold has not begun.
   */
  releaseAt(note: WalletNote, final: boolean): number | undefined {
    if (!this.enabled || note.origin !== 'deposit') return undefined;
    let at = this.until.get(note.commitment);
    if (at === undefined) {
      if (!final) return Infinity;
      at = this.now() + this.random(this.options.maxMs);
      this.until.set(note.commitment, at);
    }
    return at > this.now() ? at : undefined;
  }

  /** Whether `note` may back an order now (see {@link releaseAt}). */
  ready(note: WalletNote, final: boolean): boolean {
    return this.releaseAt(note, final) === undefined;
  }
}
