/**
 * Every example in examples/ runs against a started venue (issue 20, item 8), as a user runs it:
 * its own process (`node --import tsx examples/X.ts`), pointed at the venue's data dir, its own
 * trading account (created once with the dev admin, kept beside its wallet file) and wallet file.
 * The quickstart program (examples/quickstart.ts) is the one docs/quickstart.md and docs/sdk.md
 * show: the test checks both code blocks equal the file, then runs it twice (the second run
 * reopens the wallet and reuses the account). One venue with 200 ms slots serves every example.
 *
 * The examples run side by side (each its own account and wallet, so they share nothing but the
 * venue), the longest (ladder) first; most of their time is waits on slots and the ledger. Only
 * these orderings hold: the wrong-password run needs the quickstart's wallet file; recover-wallet
 * needs place-and-cancel's wallet; and market-maker waits for the quickstart, because its asks
 * (150.5 up) would cross the quickstart's bid at 155 and take the fill meant for the seller.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { gate } from '@nightjar/testkit/gate';
import {
  createAccount,
  createClient,
  createWallet,
  deposit,
  placeOrder,
  requestFaucet,
  type Client,
} from '../src/index.js';
import { FAST_SLOTS, killAll, startVenueProcess, stopVenueProcess, track } from '@nightjar/testkit/process';
import type { ChildProcess } from 'node:child_process';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PASSWORD = 'examples test';

interface Run {
  code: number | null;
  out: string;
  err: string;
}

let dir: string;
let venue: ChildProcess | undefined;
let seller: Client | undefined;

/**
 * A second trader (its own account) with a resting ask at the quickstart's price: the quickstart's
 * bid crosses it and ends on `fully_filled` within seconds instead of waiting for its expiry.
 */
async function restingAsk(): Promise<void> {
  if (!seller) {
    const ready = JSON.parse(readFileSync(join(dir, 'ready.json'), 'utf8')) as {
      base_url: string;
      ledger_url: string;
      compose_hash: string;
      platform_root: string;
      ledger_dev_secret: string;
      admin: { api_key: string; api_secret: string; passphrase: string };
    };
    const conn = {
      baseUrl: ready.base_url,
      pinnedRoot: readFileSync(ready.platform_root),
      composeHash: ready.compose_hash,
      ledgerUrl: ready.ledger_url,
      ledgerDevSecret: ready.ledger_dev_secret, // the faucet is a dev-only call (28.10)
    };
    const admin = await createClient({ ...conn, credentials: ready.admin });
    const account = await createAccount(admin, { label: 'examples-seller' });
    await admin.close();
    const wallet = createWallet({
      path: join(dir, 'seller.wallet'),
      password: 'seller',
      scrypt: { N: 2 ** 10, r: 8, p: 1 },
    });
    seller = await createClient({
      ...conn,
      credentials: account,
      wallet,
      stateDir: join(dir, 'seller-state'),
    });
  }
  await requestFaucet(seller, { asset: 'SOL', amount: '1.01' }); // the ask's fee comes on top
  await deposit(seller, { asset: 'SOL', amount: '1.01' });
  await placeOrder(seller, {
    symbol: 'SOL-USDC',
    side: 'ask',
    amount: '1',
    price: '155',
    expiry: { seconds: 120 },
  });
}

/** Runs examples/<name>.ts to its end (bounded) with the venue's data dir; its exit code and output. */
function runExample(name: string, env: Record<string, string> = {}, timeoutMs = 240_000): Promise<Run> {
  return new Promise((resolve) => {
    const child = track(
      spawn(
        process.execPath,
        ['--conditions=nightjar-source', '--import', 'tsx', join('examples', `${name}.ts`)],
        {
          cwd: ROOT,
          env: {
            ...process.env,
            NIGHTJAR_DATA_DIR: dir,
            WALLET_PASSWORD: PASSWORD,
            NIGHTJAR_API_KEY: '',
            ...env,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      ),
    );
    let out = '';
    let err = '';
    child.stdout?.on('data', (d) => (out += String(d)));
    child.stderr?.on('data', (d) => (err += String(d)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

/** Asserts a clean exit, showing the output when it was not. */
function succeeded(run: Run): string {
  if (run.code !== 0) throw new Error(`exited ${run.code}\n--- stdout\n${run.out}\n--- stderr\n${run.err}`);
  return run.out;
}

/** The code blocks of a markdown file. */
function codeBlocks(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'nightjar-examples-'));
  venue = await startVenueProcess(dir, FAST_SLOTS);
}, 180_000);

afterAll(async () => {
  await seller?.close().catch(() => undefined);
  await stopVenueProcess(venue).catch(() => undefined);
  killAll();
  rmSync(dir, { recursive: true, force: true });
});

describe.concurrent('examples/ against a started venue', () => {
  const quickstartDone = gate();
  const placeAndCancelDone = gate();

  it('ladder: one deposit, five orders from one split, merged back, split and joined, 12.34 USDC withdrawn', async ({
    expect,
  }) => {
    const out = succeeded(await runExample('ladder'));
    expect(out).toContain('deposited 800 USDC');
    expect(out.match(/^placed /gm)).toHaveLength(5);
    expect(out).toContain('cancelled 5, refused 0');
    expect(out).toContain('1 split(s)');
    expect(out).toContain('split into 100 USDC, 100 USDC, ');
    expect(out).toContain('joined into 200 USDC');
    expect(out).toContain('withdrew 12.34 USDC');
    expect(out).toContain('USDC available 787.66');
  });

  it('docs/quickstart.md and docs/sdk.md show examples/quickstart.ts as it is', ({ expect }) => {
    const file = readFileSync(join(ROOT, 'examples/quickstart.ts'), 'utf8');
    expect(codeBlocks('docs/quickstart.md')).toContain(file);
    expect(codeBlocks('docs/sdk.md')[0]).toBe(file);
  });

  it('quickstart: its own account and a wallet file; ends on the order’s terminal event; a second run reuses both', async ({
    expect,
  }) => {
    try {
      // A seller's ask at the bid's price: the quickstart's bid fills, and the program ends there.
      const [first] = await Promise.all([runExample('quickstart'), restingAsk()]);
      const kinds = succeeded(first).trim().split('\n');
      expect(kinds.at(-1)).toBe('fully_filled');
      const account = JSON.parse(readFileSync(join(dir, 'first-trade.account.json'), 'utf8')) as {
        api_key: string;
      };
      const ready = JSON.parse(readFileSync(join(dir, 'ready.json'), 'utf8')) as {
        admin: { api_key: string };
      };
      expect(account.api_key).not.toBe(ready.admin.api_key);
      const wallet = createWallet({ path: join(dir, 'first-trade.wallet'), password: PASSWORD });
      expect(wallet.depositCount).toBe(1);
      const seed = Buffer.from(wallet.seed).toString('hex');

      const [second] = await Promise.all([runExample('quickstart'), restingAsk()]);
      expect(succeeded(second).trim().split('\n').at(-1)).toBe('fully_filled');
      const again = createWallet({ path: join(dir, 'first-trade.wallet'), password: PASSWORD });
      expect(Buffer.from(again.seed).toString('hex')).toBe(seed);
      expect(again.depositCount).toBe(2);
      expect(JSON.parse(readFileSync(join(dir, 'first-trade.account.json'), 'utf8'))).toEqual(account);
    } finally {
      quickstartDone.open();
    }
  });

  it('place-and-cancel: faucet, deposit (usable when it resolves), place, reprice, cancel', async ({
    expect,
  }) => {
    try {
      const out = succeeded(await runExample('place-and-cancel'));
      expect(out).toContain('created account');
      expect(out).toMatch(/placed [0-9a-f]{32} (pending|open)/);
      expect(out).toMatch(/^markets SOL-USDC.* at slot \d+$/m);
      expect(out).toContain('open orders 1');
      expect(out).toContain('USDC locked');
      expect(out).toContain('cancelled cancelled');
      expect(existsSync(join(dir, 'place-and-cancel.account.json'))).toBe(true);
    } finally {
      placeAndCancelDone.open();
    }
  });

  it('market-maker: one round (NIGHTJAR_EXAMPLE_ROUNDS=1) quotes six orders and cancels them', async ({
    expect,
  }) => {
    await quickstartDone.opened;
    const out = succeeded(await runExample('market-maker', { NIGHTJAR_EXAMPLE_ROUNDS: '1' }));
    expect(out).toMatch(/quoting around [0-9.]+: 6 orders, \d+ split\(s\)/);
    expect(out).toContain('stopped: 6 orders cancelled');
  });

  it('quickstart surfaces an error instead of looping: a wrong wallet password fails at once', async ({
    expect,
  }) => {
    await quickstartDone.opened;
    const run = await runExample('quickstart', { WALLET_PASSWORD: 'not the password' }, 60_000);
    expect(run.code).not.toBe(0);
    expect(run.err).toContain('wrong password or damaged wallet file');
  });

  it('recover-wallet: the place-and-cancel wallet rebuilt from its seed alone', async ({ expect }) => {
    await placeAndCancelDone.opened;
    const out = succeeded(await runExample('recover-wallet'));
    expect(out).toMatch(/scanned \d+ memos/);
    expect(out).toContain('200 USDC free');
    expect(out).toMatch(/USDC available 200 locked 0/);
  });
});
