/**
 * Timing of the settlement pipeline's ledger traffic for settlement.bench.ts, taken at the
 * `LedgerClient` seam (the pipeline is not changed for it): how long each `sendTransaction` took
 * (the in-process ledger lands the transaction before it answers, proof checks included), when
 * the clock reached the slot that made it `confirmed`, and when the pipeline first saw it so.
 */
import type { LedgerClient, TransactionRecord } from '@nightjar/ledger';

export interface SendSample {
  instruction: string;
  signature: string;
  /** `performance.now()` when the send was made and answered. */
  startedAt: number;
  endedAt: number;
}

export interface TxTimeline {
  instruction: string;
  /** Send, landing and proof checks (the in-process ledger answers once the transaction landed). */
  sendMs: number;
  /** From the answer to the clock reaching the slot after the landing slot (`confirmed`). */
  slotWaitMs: number;
  /** From that slot to the pipeline's first `getTransaction` that read `confirmed`. */
  observeMs: number;
}

export class LedgerProbe {
  readonly sends = new Map<string, SendSample>();
  /** Signature → when a `getTransaction` first returned it past `processed`, and its slot. */
  readonly confirmedSeen = new Map<string, { at: number; slot: number }>();
  /** Slot → `performance.now()` when the bench's ticker moved the clock to it. */
  readonly slotReachedAt = new Map<number, number>();

  wrap(ledger: LedgerClient): LedgerClient {
    return new Proxy(ledger, {
      get: (target, prop, recv) => {
        if (prop === 'sendTransaction')
          return async (p: Parameters<LedgerClient['sendTransaction']>[0]) => {
            const startedAt = performance.now();
            try {
              return await target.sendTransaction(p);
            } finally {
              const sig = p.transaction.signature;
              if (!this.sends.has(sig))
                this.sends.set(sig, {
                  instruction: p.transaction.instruction.name,
                  signature: sig,
                  startedAt,
                  endedAt: performance.now(),
                });
            }
          };
        if (prop === 'getTransaction')
          return async (p: Parameters<LedgerClient['getTransaction']>[0]) => {
            const rec: TransactionRecord | null = await target.getTransaction(p);
            if (rec && rec.confirmation_status !== 'processed' && !this.confirmedSeen.has(p.signature))
              this.confirmedSeen.set(p.signature, { at: performance.now(), slot: rec.slot });
            return rec;
          };
        const value = Reflect.get(target, prop, recv) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  /** The clock moved to `slot` at `at` (the bench's ticker reports it). */
  slotReached(slot: number, at: number): void {
    this.slotReachedAt.set(slot, at);
  }

  /** One timeline per pipeline transaction that was sent and seen confirmed. */
  timelines(instructions: string[]): TxTimeline[] {
    const out: TxTimeline[] = [];
    for (const s of this.sends.values()) {
      if (!instructions.includes(s.instruction)) continue;
      const seen = this.confirmedSeen.get(s.signature);
      const confirmingSlotAt = seen && this.slotReachedAt.get(seen.slot + 1);
      if (!seen || confirmingSlotAt === undefined) continue;
      out.push({
        instruction: s.instruction,
        sendMs: s.endedAt - s.startedAt,
        slotWaitMs: Math.max(0, confirmingSlotAt - s.endedAt),
        observeMs: Math.max(0, seen.at - Math.max(confirmingSlotAt, s.endedAt)),
      });
    }
    return out;
  }
}
