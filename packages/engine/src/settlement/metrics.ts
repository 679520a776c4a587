/**
 * Settlement telemetry for `/admin/metrics/settlement`: stage latencies (bounded reservoirs),
 * counters. Never amounts, prices, ids or keys.
 */
import { SETTLEMENT_STAGES, type SettlementStage } from '@nightjar/protocol';

const RESERVOIR = 1024;

export const COUNTERS = [
  'batches_submitted',
  'matches_submitted',
  'matches_confirmed',
  'matches_rejected',
  'matches_ambiguous',
  'matches_returned_to_book',
  'lock_transactions',
  'settle_transactions',
  'release_transactions',
  'rebroadcasts',
  'queue_overflow_rejections',
  'recovery_already_settled',
  'recovery_redriven',
  'recovery_released',
  'recovery_indeterminate',
  'indeterminate_for_operator',
  'proofs_failed',
  'proofs_refused_by_local_verifier',
  'lock_proofs_made',
  'lock_proofs_failed',
  'lock_root_reproved',
] as const;
export type Counter = (typeof COUNTERS)[number];

export class SettlementMetrics {
  readonly counters = Object.fromEntries(COUNTERS.map((c) => [c, 0])) as Record<Counter, number>;
  private readonly samples = new Map<string, number[]>();
  readonly reasons = new Map<string, number>();

  count(c: Counter, n = 1): void {
    this.counters[c] += n;
  }

  reason(r: string): void {
    this.reasons.set(r, (this.reasons.get(r) ?? 0) + 1);
  }

  /**
   * A duration sample (ms) under a name: a stage, `match_to_done`, `journal_write`, and per match
   * `prove`, `verify`, and per change note `lock_prove` (its VALID_LOCK, from its settlement's
   * confirmation).
   */
  sample(name: string, ms: number): void {
    let s = this.samples.get(name);
    if (!s) this.samples.set(name, (s = []));
    s.push(ms);
    if (s.length > RESERVOIR) s.shift();
  }

  quantiles(name: string): { count: number; p50_ms: number; p90_ms: number; p99_ms: number } | undefined {
    const s = this.samples.get(name);
    if (!s || s.length === 0) return undefined;
    const sorted = [...s].sort((a, b) => a - b);
    const q = (p: number) =>
      Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! * 100) / 100;
    return { count: s.length, p50_ms: q(0.5), p90_ms: q(0.9), p99_ms: q(0.99) };
  }

  snapshot(queueDepth: Record<SettlementStage, number>, journalMs: number[]) {
    const latency: Record<string, unknown> = {};
    for (const st of SETTLEMENT_STAGES) {
      const q = this.quantiles(st);
      if (q) latency[st] = q;
    }
    for (const name of ['match_to_done', 'match_to_confirmed', 'prove', 'verify', 'lock_prove']) {
      const q = this.quantiles(name);
      if (q) latency[name] = q;
    }
    const sortedJ = [...journalMs].sort((a, b) => a - b);
    const jq = (p: number) =>
      sortedJ.length === 0
        ? 0
        : Math.round(sortedJ[Math.min(sortedJ.length - 1, Math.floor(p * sortedJ.length))]! * 100) / 100;
    return {
      queue_depth: queueDepth,
      stage_latency: latency,
      journal_write: { count: sortedJ.length, p50_ms: jq(0.5), p99_ms: jq(0.99) },
      counters: { ...this.counters },
      rejections_by_reason: Object.fromEntries(this.reasons),
    };
  }
}
