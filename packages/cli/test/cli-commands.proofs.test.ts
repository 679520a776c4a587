/**
 * The real binary against a venue started here: login, account create, wallet init, deposit, two
 * crossing orders from two accounts, `watch` until both fill, balances, withdraw; `--json` parsed
 * throughout; a wrong flag and a missing venue fail with a clear message and their exit codes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressToBase58 } from '@nightjar/protocol';
import {
  BIN,
  killAll,
  nightjar,
  nightjarJson as json,
  startVenueProcess,
  stopVenueProcess,
  track,
} from '@nightjar/testkit/process';
import type { Run } from '@nightjar/testkit/process';

/** Starts `nightjar watch --json`: `live` resolves on its `subscribed` line, `done` when it exits. */
function watchJson(args: string[], env: Record<string, string>): { live: Promise<void>; done: Promise<Run> } {
  const proc = spawn(process.execPath, [BIN, 'watch', ...args, '--json'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(proc);
  let stdout = '';
  let stderr = '';
  let onLive: () => void = () => {};
  const live = new Promise<void>((resolve) => (onLive = resolve));
  proc.stdout.on('data', (d) => {
    stdout += String(d);
    if (stdout.includes('"type":"subscribed"')) onLive();
  });
  proc.stderr.on('data', (d) => (stderr += String(d)));
  const done = new Promise<Run>((resolve) =>
    proc.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr })),
  );
  // A watch that exits before it is live fails the wait for it with what it printed.
  const failed = done.then((r) => {
    throw new Error(`watch exited ${r.code} before it was live: ${r.stderr}`);
  });
  return { live: Promise.race([live, failed]), done };
}

describe('nightjar CLI against a started venue', () => {
  let dir: string;
  let venue: ChildProcess;
  let envA: Record<string, string>;
  let envB: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'nightjar-cli-'));
    venue = await startVenueProcess(dir);
    envA = { NIGHTJAR_DATA_DIR: dir, NIGHTJAR_HOME: join(dir, 'home-a'), NIGHTJAR_WALLET_PASSWORD: 'test a' };
    envB = { NIGHTJAR_DATA_DIR: dir, NIGHTJAR_HOME: join(dir, 'home-b') };
  });

  afterAll(async () => {
    killAll();
    await stopVenueProcess(venue);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a wrong flag is a usage error (2) that names the fix', async () => {
    const run = await nightjar(['order', 'place', '--sidee', 'bid'], envA);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Unknown option '--sidee'.*nightjar order place --help/);
    const sub = await nightjar(['wallet', 'frobnicate'], envA);
    expect(sub.code).toBe(2);
    expect(sub.stderr).toContain('unknown command: wallet frobnicate');
  });

  it('a missing venue is exit 3 with the way to start one, also as JSON', async () => {
    const run = await nightjar(['status', '--json'], { NIGHTJAR_DATA_DIR: join(dir, 'nowhere') });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('no venue found');
    expect(run.stderr).toContain('npm start');
    expect(JSON.parse(run.stdout)).toMatchObject({ error: { exit_code: 3 } });
  });

  it('--help works on every command without a venue', async () => {
    for (const args of [
      ['--help'],
      ['wallet', 'deposit', '--help'],
      ['watch', '--help'],
      ['order', '--help'],
    ]) {
      const run = await nightjar(args, { NIGHTJAR_DATA_DIR: join(dir, 'nowhere') });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('nightjar');
    }
  });

  it('deposit, two crossing orders, watch both fill, balances, withdraw', async () => {
    const status = await json<{ system: { trading: string } }>(['status'], envA);
    expect(status.system.trading).toBe('open');

    // A is the CLI's own account (no flags: made with the dev admin); B is a new account created by the admin.
    const loginA = await json<{ account_id: string }>(['login'], envA);
    expect(loginA.account_id).toMatch(/^[0-9a-f]+$/);
    expect(statSync(join(dir, 'home-a', 'credentials.json')).mode & 0o777).toBe(0o600);
    const created = await json<{ api_key: string; api_secret: string; passphrase: string }>(
      ['account', 'create', '--label', 'trader-b'],
      envA,
    );
    await json(
      [
        'login',
        // The `=` form: a base64url secret may begin with '-', which a separate argument cannot.
        `--api-key=${created.api_key}`,
        `--api-secret=${created.api_secret}`,
        `--passphrase=${created.passphrase}`,
      ],
      envB,
    );
    await Promise.all([json(['wallet', 'init'], envA), json(['wallet', 'init'], envB)]);
    expect(statSync(join(dir, 'home-b', 'wallet-password')).mode & 0o777).toBe(0o600);

    const [depA, depB] = await Promise.all([
      json<{ asset: string; amount: string }>(
        ['wallet', 'deposit', '--asset', 'USDC', '--amount', '400', '--faucet'],
        envA,
      ),
      json<{ asset: string; amount: string }>(
        ['wallet', 'deposit', '--asset', 'SOL', '--amount', '2', '--faucet'],
        envB,
      ),
    ]);
    expect(depA).toMatchObject({ asset: 'USDC', amount: '400000000' });
    expect(depB.asset).toBe('SOL');

    const watchArgs = ['--channels', 'orders,fills', '--until', 'fully_filled', '--timeout', '480'];
    const watchA = watchJson(watchArgs, envA);
    const watchB = watchJson(watchArgs, envB);
    await Promise.all([watchA.live, watchB.live]);

    const [bid, ask] = await Promise.all([
      json<{ order_id: string; status: string }>(
        ['order', 'place', '--symbol', 'SOL-USDC', '--side', 'bid', '--amount', '1', '--price', '150'],
        envA,
      ),
      json<{ order_id: string; status: string }>(
        // The other side's words: buy/sell, --market, --expires-in are aliases.
        [
          'order',
          'place',
          '--market',
          'SOL-USDC',
          '--side',
          'sell',
          '--amount',
          '1',
          '--price',
          '149',
          '--expires-in',
          '600',
        ],
        envB,
      ),
    ]);
    expect(bid.status).toBe('accepted');
    expect(ask.status).toBe('accepted');

    for (const [w, id] of [
      [await watchA.done, bid.order_id],
      [await watchB.done, ask.order_id],
    ] as const) {
      expect(w.code).toBe(0);
      const events = w.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string; event?: { order_id: string; kind?: string } });
      expect(events[0]).toEqual({ type: 'subscribed', channels: ['orders', 'fills'] });
      expect(
        events.some((e) => e.type === 'order' && e.event?.order_id === id && e.event.kind === 'fully_filled'),
      ).toBe(true);
    }

    const st = await json<{ status: string; status_label: string; side_label: string; filled: string }>(
      ['order', 'status', '--id', bid.order_id],
      envA,
    );
    // The state the wallet (and watch) knows, not the venue's `empty`; its label beside it.
    expect(st).toMatchObject({
      status: 'fully_filled',
      status_label: 'Filled',
      side_label: 'Buy',
      filled: '1',
    });
    const text = await nightjar(['order', 'status', '--id', ask.order_id], envB);
    expect(text.stdout).toMatch(/ask \(Sell\) 1 @ 149 +fully_filled \(Filled\)/);

    type Balance = { asset: string; available: string; locked: string };
    const balA = await json<Balance[]>(['wallet', 'balances'], envA);
    const balB = await json<Balance[]>(['wallet', 'balances'], envB);
    expect(balA.find((b) => b.asset === 'SOL')?.available).toBe('1');
    expect(Number(balA.find((b) => b.asset === 'USDC')?.available)).toBeGreaterThan(249);
    expect(Number(balB.find((b) => b.asset === 'USDC')?.available)).toBeGreaterThan(148);
    expect(balB.find((b) => b.asset === 'SOL')?.locked).toBe('0');

    const out = await json<{ amount: string; recipient: string; signature: string }>(
      [
        'wallet',
        'withdraw',
        '--asset',
        'SOL',
        '--amount',
        '1',
        '--to',
        addressToBase58(new Uint8Array(randomBytes(32))),
      ],
      envA,
    );
    expect(out.amount).toBe('1000000000');
    expect(out.signature).toMatch(/^[0-9a-f]+$/);
    const after = await json<Balance[]>(['wallet', 'balances'], envA);
    expect(after.find((b) => b.asset === 'SOL')?.available).toBe('0');
  }, 900_000); // fourteen CLI processes and four proofs; minutes on a slow machine
});
