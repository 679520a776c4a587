/**
 * `nightjar bench`: a short intake and settlement run against the local venue. Two fresh accounts
 * fund themselves, place N crossing bid/ask pairs at once, and wait for every order to fill.
 * Prints intake (orders/s, proving included) and match → fill latency.
 */
import { NoteProver } from '@nightjar/circuits';
import { positiveIntOption } from '../args.js';
import { str, type Command } from '../command.js';
import { createAccounts, Trader } from '../demo/trader.js';
import { CliError, EXIT } from '../exit-codes.js';

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

export const bench: Command = {
  name: 'bench',
  summary: 'a short intake and settlement run against the local venue',
  usage: `nightjar bench [--pairs N] [--timeout SECONDS]

  --pairs N        crossing bid/ask pairs (default 4; each order is one proof)
  --timeout S      give up waiting for fills after S seconds (default 120)
  Needs a dev venue (faucet and dev admin): \`npm start\`.`,
  options: { pairs: { type: 'string' }, timeout: { type: 'string' } },
  async run({ out, paths, values }) {
    const pairs = positiveIntOption('pairs', str(values, 'pairs'), 4);
    const timeoutMs = positiveIntOption('timeout', str(values, 'timeout'), 120) * 1000;
    const prover = new NoteProver({ workers: 2, singleThread: true });
    const [a, b] = await out.progress('creating two accounts', createAccounts(paths, 2, 'bench'));
    if (!a || !b) throw new Error('accounts were not created');
    const traders = await Promise.all([
      Trader.open(paths, 'bench-bid', a, prover),
      Trader.open(paths, 'bench-ask', b, prover),
    ]);
    try {
      await out.progress(
        `funding (${pairs} notes per side each, waiting for finality)`,
        Promise.all(traders.map((t) => t.fund(pairs, '400', '2'))),
      );
      const matched = new Map<string, number>();
      const filled = new Map<string, number>();
      let allFilled: () => void = () => undefined;
      const done = new Promise<void>((r) => (allFilled = r));
      for (const t of traders)
        await t.listen((kind, orderId, timeMs) => {
          if (kind === 'pending_settlement' && !matched.has(orderId)) matched.set(orderId, timeMs);
          if (kind === 'fully_filled') {
            filled.set(orderId, timeMs);
            if (filled.size >= 2 * pairs) allFilled();
          }
        });
      const [bidder, asker] = traders as [Trader, Trader];
      const started = Date.now();
      const placed = await out.progress(
        `placing ${2 * pairs} orders (proving each)`,
        Promise.all(
          Array.from({ length: pairs }, async () => [
            await bidder.quote('bid', 150.5, '1', 120),
            await asker.quote('ask', 149.5, '1', 120),
          ]),
        ),
      );
      const intakeS = (Date.now() - started) / 1000;
      const ids = placed
        .flat()
        .filter((p) => p !== undefined)
        .map((p) => p.orderId);
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await out.progress(
        'waiting for every order to fill',
        Promise.race([
          done.then(() => false),
          new Promise<boolean>((r) => (timer = setTimeout(() => r(true), timeoutMs))),
        ]),
      );
      clearTimeout(timer);
      const latencies = ids
        .filter((id) => matched.has(id) && filled.has(id))
        .map((id) => (filled.get(id) ?? 0) - (matched.get(id) ?? 0))
        .sort((x, y) => x - y);
      const result = {
        orders: ids.length,
        intake_seconds: intakeS,
        orders_per_second: ids.length / intakeS,
        filled: filled.size,
        match_to_fill_ms: { p50: pct(latencies, 50), p95: pct(latencies, 95), max: latencies.at(-1) ?? NaN },
        total_seconds: (Date.now() - started) / 1000,
      };
      out.result(
        result,
        `intake: ${result.orders} orders in ${intakeS.toFixed(1)} s = ${result.orders_per_second.toFixed(2)} orders/s (proving included)\n` +
          `filled: ${result.filled}/${result.orders}; match → fill p50 ${result.match_to_fill_ms.p50} ms, p95 ${result.match_to_fill_ms.p95} ms, max ${result.match_to_fill_ms.max} ms`,
      );
      if (timedOut)
        throw new CliError(
          `only ${filled.size} of ${ids.length} orders filled within ${timeoutMs / 1000}s`,
          EXIT.timeout,
        );
      return 0;
    } finally {
      for (const t of traders) await t.close();
      await prover.close();
    }
  },
};
