/**
 * `nightjar demo-traders` (internal; `start --demo-traders N` runs it in its own process): N
 * simulated traders on the SDK that fund themselves from the dev faucet with one deposit per side
 * and quote small two-sided ladders around a moving price (`demo/quote-round.ts`), refilling,
 * rebalancing and merging dust as they go, so orders keep matching and settling for hours.
 */
import { availableParallelism } from 'node:os';
import { NoteProver } from '@nightjar/circuits';
import { formatPrice, formatUnits } from '@nightjar/sdk';
import { positiveIntOption, UsageError } from '../args.js';
import { str, type Command } from '../command.js';
import { levelsFor, lifetimeSeconds, TimedProver } from '../demo/proof-pace.js';
import type { Side } from '../demo/quote-plan.js';
import { quoteRound, type RoundEvent } from '../demo/quote-round.js';
import { referencePrice, SYMBOL, Trader } from '../demo/trader.js';
import { readReady } from '../config.js';
import { CliError, EXIT } from '../exit-codes.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const [BASE, QUOTE] = SYMBOL.split('-') as [string, string];

/** A positive decimal option, as the string the SDK's deposit takes. */
function amountOption(name: string, value: string | undefined, fallback: string): string {
  if (value === undefined) return fallback;
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0)
    throw new UsageError(`--${name} must be a positive decimal, got ${value}`);
  return value;
}

/** One line per event: `[demo 27.6s] text`, or with --json the text and the event's fields. */
type Log = (text: string, fields?: Record<string, unknown>) => void;

/** Until SIGTERM or SIGINT: `running()` turns false and `stopped` settles. */
function untilSignal(): { running: () => boolean; stopped: Promise<void> } {
  let running = true;
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      running = false;
      resolve();
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  return { running: () => running, stopped };
}

/** Logs each trader's own fills and failed settlements; the first full fill says how long it took. */
async function logFills(traders: readonly Trader[], log: Log, t: () => string): Promise<void> {
  let firstFill = true;
  for (const tr of traders)
    await tr.listen((kind, orderId, _timeMs, reason) => {
      const order = tr.client.wallet.orders.get(orderId);
      if (!order) return; // another trader's (same account)
      if (kind !== 'fully_filled' && kind !== 'partially_filled' && kind !== 'settlement_failed') return;
      const fields = {
        trader: tr.name,
        event: kind,
        side: order.side,
        orderId,
        ...(reason ? { reason } : {}),
      };
      if (kind === 'fully_filled' && firstFill) {
        firstFill = false;
        log(`FIRST fully_filled ${orderId} (${tr.name}) ${t()} after start`, fields);
      } else
        log(`${tr.name} ${orderId.slice(0, 8)} ${order.side} ${kind}${reason ? ` (${reason})` : ''}`, fields);
    });
}

/** A trader's round events as log lines, in the market's units (nothing once stopping). */
function roundReporter(market: Trader['market'], log: Log, running: () => boolean) {
  const base = (a: bigint) => `${formatUnits(a, market.base_decimals)} ${BASE}`;
  const price = (p: bigint) => formatPrice(p, market);
  const asset = (side: Side) => (side === 'ask' ? BASE : QUOTE);
  const collateral = (side: Side, a: bigint) =>
    side === 'ask' ? base(a) : `${formatUnits(a, market.quote_decimals)} ${QUOTE}`;
  return (tr: Trader) => (e: RoundEvent) => {
    if (!running()) return;
    const fields = { trader: tr.name, ...e };
    if (e.event === 'placed')
      log(`${tr.name} ${e.side} ${base(e.amount)} @ ${price(e.price)} → ${e.orderId.slice(0, 8)}`, fields);
    else if (e.event === 'failed')
      log(`${tr.name} ${e.side} ${base(e.amount)} @ ${price(e.price)} failed: ${e.error}`, fields);
    else if (e.event === 'merge_failed' || e.event === 'refill_failed')
      log(`${tr.name} ${e.event.replace('_', ' ')} (${asset(e.side)}): ${e.error}`, fields);
    else if (e.event === 'merge')
      log(`${tr.name} merged ${e.notes} ${asset(e.side)} notes into ${collateral(e.side, e.amount)}`, fields);
    else
      log(
        `${tr.name} refill: ${asset(e.side)} ran out, +${collateral(e.side, e.amount)} from the faucet`,
        fields,
      );
  };
}

interface LoopSetting {
  since: number;
  pace: TimedProver;
  refill: { quote: string; base: string };
  report: (tr: Trader) => (e: RoundEvent) => void;
  reportPace: ReturnType<typeof paceReporter>;
  running: () => boolean;
  log: Log;
}

/** Says how the machine's proof time paces the demo, when that changes. */
function paceReporter(log: Log): (levels: number, expirySeconds: number, proofMs?: number) => void {
  let said = '';
  return (levels, expirySeconds, proofMs) => {
    const text = `proofs take ${((proofMs ?? 0) / 1000).toFixed(1)} s: up to ${levels} orders a round, living ${expirySeconds} s`;
    if (proofMs === undefined || text === said) return;
    said = text;
    log(text, { event: 'pace', levels, expirySeconds, proofMs: Math.round(proofMs) });
  };
}

/**
 * Trader `i` quotes a round every 2 to 4 s until stopped; a failed round is logged, not fatal.
 * Even traders keep a crossing bid alive, odd ones a crossing ask: a new one once the last is gone.
 */
async function quoteLoop(tr: Trader, i: number, s: LoopSetting): Promise<void> {
  await sleep(i * 300);
  const crossing: Side = i % 2 === 0 ? 'bid' : 'ask';
  let crossingOrderId: string | undefined;
  const report = s.report(tr);
  while (s.running()) {
    const proofMs = s.pace.recentMs();
    const levels = levelsFor(proofMs);
    const expirySeconds = lifetimeSeconds(proofMs);
    if (i === 0) s.reportPace(levels, expirySeconds, proofMs);
    try {
      await quoteRound(tr, {
        mid: referencePrice(Date.now() - s.since),
        crossing,
        ...(crossingOrderId ? { crossingOrderId } : {}),
        levels,
        expirySeconds,
        refill: s.refill,
        onEvent: (e) => {
          if (e.event === 'placed' && e.crossing) crossingOrderId = e.orderId;
          report(e);
        },
      });
    } catch (err) {
      if (!s.running()) break; // stopping: the clients were closed under it
      s.log(`${tr.name} ${err instanceof Error ? err.message : String(err)}`, {
        trader: tr.name,
        event: 'error',
      });
    }
    await sleep(2_000 + Math.random() * 2_000);
  }
}

export const demoTraders: Command = {
  name: 'demo-traders',
  summary: 'run N simulated traders against the local venue (what start --demo-traders runs)',
  hidden: true,
  usage: `nightjar demo-traders [--traders N] [--since UNIX_MS] [--quote-deposit USDC] [--base-deposit SOL]

  --traders N           how many (default 4)
  --since UNIX_MS       report times from this moment (start passes its own launch time)
  --quote-deposit USDC  each trader's quote deposit, and what a refill adds (default 1500)
  --base-deposit SOL    each trader's base deposit, and what a refill adds (default 10)`,
  options: {
    traders: { type: 'string' },
    since: { type: 'string' },
    'quote-deposit': { type: 'string' },
    'base-deposit': { type: 'string' },
  },
  async run({ out, paths, values }) {
    const n = positiveIntOption('traders', str(values, 'traders'), 4);
    const since = Number(str(values, 'since') ?? Date.now());
    const refill = {
      quote: amountOption('quote-deposit', str(values, 'quote-deposit'), '1500'),
      base: amountOption('base-deposit', str(values, 'base-deposit'), '10'),
    };
    const t = () => `${((Date.now() - since) / 1000).toFixed(1)}s`;
    const log: Log = (text, fields = {}) =>
      out.line({ t_ms: Date.now() - since, text, ...fields }, `[demo ${t()}] ${text}`);
    // One worker per core at most: more only share the cores, and every proof takes longer.
    const workers = Math.max(1, Math.min(4, n, availableParallelism()));
    const prover = new TimedProver(new NoteProver({ workers, singleThread: true }));
    // Every trader has its own wallet (so its own trading key and owner: no self-trades between
    // them) but they share the dev admin account, so a plain `nightjar watch` shows their orders.
    const admin = readReady(paths).admin;
    if (!admin) throw new CliError('demo traders need a dev venue (ready.json has no dev admin)', EXIT.usage);
    const traders = await Promise.all(
      Array.from({ length: n }, (_, i) => Trader.open(paths, `trader-${i}`, admin, prover)),
    );
    const { running, stopped } = untilSignal();
    log(
      `${n} traders funding (faucet, one deposit per side each: ${refill.quote} ${QUOTE}, ${refill.base} ${BASE})`,
    );
    await Promise.all(traders.map((tr) => tr.fund(1, refill.quote, refill.base)));
    await logFills(traders, log, t);
    log('funded; quoting around 150 USDC');
    const setting: LoopSetting = {
      since,
      pace: prover,
      refill,
      report: roundReporter(traders[0]!.market, log, running),
      reportPace: paceReporter(log),
      running,
      log,
    };
    const loops = Promise.all(traders.map((tr, i) => quoteLoop(tr, i, setting)));
    // A round may be waiting for a split to be final (up to ~20 s): stop without waiting for it;
    // its calls fail on the closed clients and its loop ends.
    await Promise.race([loops, stopped]);
    for (const tr of traders) await tr.close();
    await prover.close();
    return 0;
  },
};
