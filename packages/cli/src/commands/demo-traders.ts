/**
 * `nightjar demo-traders` (internal; `start --demo-traders N` runs it in its own process): N
 * simulated traders on the SDK that fund themselves from the dev faucet and quote one-SOL limit
 * orders around a moving price, some of them crossing, so orders match and settle.
 */
import { NoteProver } from '@nightjar/circuits';
import { positiveIntOption } from '../args.js';
import { str, type Command } from '../command.js';
import { referencePrice, Trader } from '../demo/trader.js';
import { readReady } from '../config.js';
import { CliError, EXIT } from '../exit-codes.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const demoTraders: Command = {
  name: 'demo-traders',
  summary: 'run N simulated traders against the local venue (what start --demo-traders runs)',
  hidden: true,
  usage: `nightjar demo-traders [--traders N] [--since UNIX_MS]

  --traders N      how many (default 4)
  --since UNIX_MS  report times from this moment (start passes its own launch time)`,
  options: { traders: { type: 'string' }, since: { type: 'string' } },
  async run({ out, paths, values }) {
    const n = positiveIntOption('traders', str(values, 'traders'), 4);
    const since = Number(str(values, 'since') ?? Date.now());
    const t = () => `${((Date.now() - since) / 1000).toFixed(1)}s`;
    const log = (text: string) => out.line({ t_ms: Date.now() - since, text }, `[demo ${t()}] ${text}`);
    const prover = new NoteProver({ workers: Math.max(1, Math.min(4, n)), singleThread: true });
    // Every trader has its own wallet (so its own trading key and owner: no self-trades between
    // them) but they share the dev admin account, so a plain `nightjar watch` shows their orders.
    const admin = readReady(paths).admin;
    if (!admin) throw new CliError('demo traders need a dev venue (ready.json has no dev admin)', EXIT.usage);
    const traders = await Promise.all(
      Array.from({ length: n }, (_, i) => Trader.open(paths, `trader-${i}`, admin, prover)),
    );
    let running = true;
    const stop = () => (running = false);
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    let firstFill = true;
    log(`${n} traders funding (faucet, 4 notes per side each)`);
    await Promise.all(traders.map((tr) => tr.fund(4, '400', '2')));
    for (const tr of traders)
      await tr.listen((kind, orderId) => {
        if (!tr.client.wallet.orders.has(orderId)) return; // another trader's (same account)
        if (kind !== 'fully_filled' && kind !== 'partially_filled' && kind !== 'settlement_failed') return;
        if (kind === 'fully_filled' && firstFill) {
          firstFill = false;
          log(`FIRST fully_filled ${orderId} (${tr.name}) ${t()} after start`);
        } else log(`${tr.name} ${orderId.slice(0, 8)} ${kind}`);
      });
    log('funded; quoting around 150 USDC');
    await Promise.all(
      traders.map(async (tr, i) => {
        await sleep(i * 300);
        for (let round = 0; running; round++) {
          const mid = referencePrice(Date.now() - since);
          // The first round alternates sides and crosses, so a newcomer sees a fill at once;
          // then mostly passive, sometimes crossing by up to 0.4.
          const side = round === 0 ? (i % 2 === 0 ? 'bid' : 'ask') : Math.random() < 0.5 ? 'bid' : 'ask';
          const offset = round === 0 ? -0.3 : -0.2 + Math.random() * 0.6;
          const price = side === 'bid' ? mid - offset : mid + offset;
          try {
            const placed = await tr.quote(side, price, '1', 60);
            if (placed) log(`${tr.name} ${side} 1 SOL @ ${price.toFixed(2)} → ${placed.orderId.slice(0, 8)}`);
          } catch (err) {
            log(`${tr.name} ${err instanceof Error ? err.message : String(err)}`);
          }
          await sleep(1_500 + Math.random() * 1_500);
        }
      }),
    );
    for (const tr of traders) await tr.close();
    await prover.close();
    return 0;
  },
};
