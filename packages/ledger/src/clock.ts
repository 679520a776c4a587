/**
 * The slot clock. In `auto` mode a slot passes every `slotMs`; in `manual` mode only
 * {@link SlotClock.advance} moves it, which makes slot-dependent tests deterministic.
 */
export type ClockMode = 'auto' | 'manual';

export interface SlotClockOptions {
  mode: ClockMode;
  slotMs?: number;
  /** Slot to resume from (a restarted ledger continues where it stopped). */
  startSlot?: number;
}

export const DEFAULT_SLOT_MS = 400;

export class SlotClock {
  readonly mode: ClockMode;
  readonly slotMs: number;
  private slot: number;
  private timer: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<(slot: number) => void>();

  constructor(options: SlotClockOptions) {
    this.mode = options.mode;
    this.slotMs = options.slotMs ?? DEFAULT_SLOT_MS;
    if (!(this.slotMs >= 1)) throw new RangeError('slotMs must be at least 1');
    this.slot = options.startSlot ?? 0;
  }

  get current(): number {
    return this.slot;
  }

  /** Subscribes to each new slot; returns the unsubscribe function. */
  onSlot(listener: (slot: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    if (this.mode !== 'auto' || this.timer) return;
    this.timer = setInterval(() => this.tick(), this.slotMs);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Moves the clock forward `slots` slots, one tick at a time. Manual mode only. */
  advance(slots = 1): number {
    if (this.mode !== 'manual') throw new Error('advance() needs a manual clock');
    if (!Number.isInteger(slots) || slots < 0 || slots > 1_000_000)
      throw new RangeError('slots must be 0..1000000');
    for (let i = 0; i < slots; i++) this.tick();
    return this.slot;
  }

  private tick(): void {
    this.slot += 1;
    for (const listener of this.listeners) listener(this.slot);
  }
}
