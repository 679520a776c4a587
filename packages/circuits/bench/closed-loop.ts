/**
 * The load generator of the proving benchmarks: a closed loop that keeps `inFlight` proofs
 * outstanding until `total` have been started, and reports completed proofs over the wall time
 * from the first submission to the last completion (so a run's ramp-up and drain count against it).
 */
export interface ClosedLoopResult {
  /** Proofs completed (all of them: a failed proof rejects the run). */
  completed: number;
  wallMs: number;
  /** completed / wall time. */
  perSecond: number;
  /** Per proof, submission to result, in completion order. */
  latenciesMs: number[];
  /** The most proofs that were outstanding at once (at most `inFlight`). */
  maxInFlight: number;
}

export async function closedLoop(
  prove: () => Promise<unknown>,
  options: { inFlight: number; total: number; now?: () => number },
): Promise<ClosedLoopResult> {
  const { inFlight, total } = options;
  if (!Number.isInteger(inFlight) || inFlight < 1) throw new RangeError('inFlight must be >= 1');
  if (!Number.isInteger(total) || total < 1) throw new RangeError('total must be >= 1');
  const now = options.now ?? (() => performance.now());
  let started = 0;
  let outstanding = 0;
  let maxInFlight = 0;
  const latenciesMs: number[] = [];
  // Each lane submits its next proof the moment its previous one completes.
  const lane = async (): Promise<void> => {
    while (started < total) {
      started++;
      outstanding++;
      maxInFlight = Math.max(maxInFlight, outstanding);
      const t = now();
      try {
        await prove();
      } finally {
        outstanding--;
      }
      latenciesMs.push(now() - t);
    }
  };
  const t0 = now();
  await Promise.all(Array.from({ length: Math.min(inFlight, total) }, lane));
  const wallMs = now() - t0;
  return {
    completed: latenciesMs.length,
    wallMs,
    perSecond: (latenciesMs.length * 1000) / wallMs,
    latenciesMs,
    maxInFlight,
  };
}

/** The median (mean of the two middle values for an even count). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}
