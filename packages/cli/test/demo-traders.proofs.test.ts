/**
 * `nightjar start --demo-traders 2`: the demo process trades as the dev admin, so a plain
 * `nightjar watch` (no login, no flags but the data dir) sees one of its orders fill. Then the
 * stall of issue 19 (item 5), made short with a small base deposit: a trader sells all its base,
 * refills from the faucet, and its new asks fill (the old traders never quoted an ask again).
 * And the demo under load (issue 32, item 1): with every core busy, fills keep coming.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { BIN, killAll, startVenueProcess, stopVenueProcess, track } from '@nightjar/testkit/process';

/** Runs even when a test times out (its finally block then never runs): no process outlives it. */
afterAll(killAll);

it('start --demo-traders: orders match and settle, and watch shows the fill', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nightjar-demo-'));
  const venue = track(
    spawn(
      process.execPath,
      [BIN, 'start', '--no-app', '--port', '0', '--data-dir', dir, '--demo-traders', '2'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    ),
  );
  let out = '';
  venue.stdout!.on('data', (d) => (out += String(d)));
  try {
    await new Promise<void>((resolve, reject) => {
      venue.stdout!.on('data', () => out.includes('venue ready at') && resolve());
      venue.once('exit', () => reject(new Error(`venue exited early: ${out}`)));
    });
    const watch = await new Promise<{ code: number; stdout: string }>((resolve) =>
      execFile(
        process.execPath,
        [BIN, 'watch', '--channels', 'orders', '--until', 'fully_filled', '--timeout', '240', '--json'],
        { env: { ...process.env, NIGHTJAR_DATA_DIR: dir } },
        (err, stdout) => resolve({ code: err ? Number(err.code) : 0, stdout }),
      ),
    );
    expect(watch.code).toBe(0);
    const kinds = watch.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { event?: { kind?: string } }).event?.kind);
    expect(kinds).toContain('fully_filled');
    expect(out).toContain('FIRST fully_filled');
  } finally {
    await stopVenueProcess(venue);
    rmSync(dir, { recursive: true, force: true });
  }
});

/** One `--json` line of `nightjar demo-traders`. */
interface DemoEvent {
  t_ms: number;
  text: string;
  trader?: string;
  event?: string;
  side?: 'bid' | 'ask';
  orderId?: string;
}

it('demo traders with 1.1 SOL each: a trader that sold its base refills, quotes asks again and they fill', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nightjar-demo-refill-'));
  const venue = await startVenueProcess(dir);
  const demo = track(
    spawn(
      process.execPath,
      [BIN, 'demo-traders', '--traders', '2', '--data-dir', dir, '--base-deposit', '1.1', '--json'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    ),
  );
  const events: DemoEvent[] = [];
  try {
    // Waits on the demo's own events, in order: a trader's base refill, an ask it places after
    // that, and that ask filling. Bounded by the test's timeout, not by a sleep.
    const story = await new Promise<{ trader: string; ask: string }>((resolve, reject) => {
      const refilled = new Set<string>();
      const asks = new Map<string, string>(); // order id → trader, asks placed after a refill
      const filled = new Set<string>(); // a fill can be seen before placeOrders returns
      onDemoEvents(demo, (e) => {
        events.push(e);
        const trader = e.trader ?? '';
        if (e.event === 'refill' && e.side === 'ask') refilled.add(trader);
        if (e.event === 'placed' && e.side === 'ask' && refilled.has(trader)) asks.set(e.orderId!, trader);
        if (e.event === 'fully_filled') filled.add(e.orderId!);
        const seller = asks.get(e.orderId ?? '');
        if (seller && filled.has(e.orderId!)) resolve({ trader: seller, ask: e.orderId! });
      });
      demo.once('exit', (code) =>
        reject(new Error(`demo traders exited (${code}):\n${events.map((e) => e.text).join('\n')}`)),
      );
    });
    expect(events.some((e) => e.text.includes('FIRST fully_filled'))).toBe(true);
    // Its SOL refill (a USDC refill may come first: a bid's note is out of use from its fill
    // until the fill's change note arrives).
    const refill = events.findIndex(
      (e) => e.event === 'refill' && e.side === 'ask' && e.trader === story.trader,
    );
    expect(events[refill]!.text).toContain(`${story.trader} refill: SOL ran out, +1.1 SOL from the faucet`);
    // Before the refill, that trader had sold its base: one of its asks filled.
    const ownAsks = new Set(
      events
        .filter((e) => e.trader === story.trader && e.event === 'placed' && e.side === 'ask')
        .map((e) => e.orderId),
    );
    expect(events.slice(0, refill).some((e) => e.event === 'fully_filled' && ownAsks.has(e.orderId))).toBe(
      true,
    );
    // Never an ask its notes could not back (the SDK's INSUFFICIENT_NOTES message).
    expect(
      events.filter((e) => e.event === 'failed' && e.side === 'ask' && /no free \S+ note cover/.test(e.text)),
    ).toEqual([]);
  } finally {
    await stopVenueProcess(demo);
    await stopVenueProcess(venue);
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Calls `onEvent` with each `--json` line of a `nightjar demo-traders` child. */
function onDemoEvents(demo: ChildProcess, onEvent: (e: DemoEvent) => void): void {
  let buffered = '';
  demo.stdout!.on('data', (d) => {
    buffered += String(d);
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) onEvent(JSON.parse(line) as DemoEvent);
  });
}

/** One child per core spinning forever: the machine as busy as it gets. Kill them after. */
function busyEveryCore(): ChildProcess[] {
  return Array.from({ length: availableParallelism() }, () =>
    track(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' })),
  );
}

it('demo traders with every core busy: fills keep coming, and no order is refused for its expiry (1012)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nightjar-demo-load-'));
  const venue = await startVenueProcess(dir);
  const busy = busyEveryCore();
  const demo = track(
    spawn(process.execPath, [BIN, 'demo-traders', '--traders', '2', '--data-dir', dir, '--json'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const events: DemoEvent[] = [];
  try {
    // Waits on the demo's own events: orders filled that were placed after the first fill came
    // (not only the opening pair). Bounded by the test's timeout, not by a sleep.
    const FILLED_AFTER_FIRST = 2;
    await new Promise<void>((resolve, reject) => {
      const filled = new Set<string>();
      const placedAfterFirst = new Set<string>(); // a fill can be seen before its placed event
      onDemoEvents(demo, (e) => {
        events.push(e);
        if (e.event === 'placed' && filled.size > 0) placedAfterFirst.add(e.orderId!);
        if (e.event === 'fully_filled' || e.event === 'partially_filled') filled.add(e.orderId!);
        if ([...placedAfterFirst].filter((id) => filled.has(id)).length >= FILLED_AFTER_FIRST) resolve();
      });
      demo.once('exit', (code) =>
        reject(new Error(`demo traders exited (${code}):\n${events.map((e) => e.text).join('\n')}`)),
      );
    });
    expect(events.some((e) => e.text.includes('FIRST fully_filled'))).toBe(true);
    // Not one order refused because its expiry had run into the settlement buffer on arrival.
    expect(events.filter((e) => e.event === 'failed' && /1012|expiry_slot/.test(e.text))).toEqual([]);
  } finally {
    for (const b of busy) b.kill('SIGKILL');
    await stopVenueProcess(demo);
    await stopVenueProcess(venue);
    rmSync(dir, { recursive: true, force: true });
  }
});
