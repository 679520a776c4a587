/**
 * examples/python-bot/bot.py against `nightjar start` with the app (real proofs): it reads
 * ready.json and the bot token, checks the attestation, deposits with the faucet, places a bid,
 * watches it and cancels it, and exits 0; with the demo traders running, its default bid fills.
 * The machine must have python3 (the first test says so).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAST_SLOTS, killAll, startAppProcess, type AppProcess } from '@nightjar/testkit/process';

const BOT = fileURLToPath(new URL('../../../examples/python-bot/bot.py', import.meta.url));
const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const hasPython = python.status === 0;

it('python3 is on this machine (the example bot below runs with it)', () => {
  expect(hasPython, 'python3 was not found: install it to run examples/python-bot').toBe(true);
  expect(python.stdout + python.stderr).toMatch(/^Python 3\./);
});

if (hasPython)
  describe('the python bot, standard library only, through the app', () => {
    let proc: AppProcess | undefined;
    let venueLog = ''; // the demo traders' lines among them: what a failed fill met

    beforeAll(async () => {
      // Two demo traders, as `npm start` runs four: the market the bot's default bid is priced for.
      proc = await startAppProcess([...FAST_SLOTS, '--demo-traders', '2']);
      proc.venue.stdout!.on('data', (d) => (venueLog += String(d)));
      proc.venue.stderr?.on('data', (d) => (venueLog += String(d)));
    });

    afterAll(async () => {
      await proc?.close();
      killAll();
    });

    it('checks the attestation, deposits with the faucet, places a bid, watches and cancels it', () => {
      // A bid far below the demo market's price rests: the bot cancels it.
      const run = spawnSync('python3', [BOT, '--data-dir', proc!.dir, '--price', '90', '--wait', '2'], {
        encoding: 'utf8',
        timeout: 240_000,
      });
      expect(run.status, run.stderr + run.stdout).toBe(0);
      expect(run.stdout).toContain('attestation verified');
      expect(run.stdout).toMatch(/deposited 100 USDC: note [0-9a-f]{16}… \(usable\)/);
      expect(run.stdout).toMatch(/order [0-9a-f]{32} pending \(Open\)/);
      const last = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { status: string };
      expect(last.status).toBe('cancelled');
    });

    it("its default bid fills on the demo market (the traders' price, not one below it)", () => {
      const run = spawnSync('python3', [BOT, '--data-dir', proc!.dir, '--wait', '200'], {
        encoding: 'utf8',
        timeout: 280_000,
      });
      expect(run.status, run.stderr + run.stdout).toBe(0);
      expect(run.stdout).toMatch(/bid 0\.5 SOL at 155 USDC/);
      const last = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { status: string; filled: string };
      expect(last, `${run.stdout}\n${venueLog.slice(-6000)}`).toMatchObject({
        status: 'fully_filled',
        filled: '0.5',
      });
    });

    it('exits non-zero with the fix when the app refuses (a bid below the minimum size)', () => {
      const run = spawnSync(
        'python3',
        [BOT, '--data-dir', proc!.dir, '--amount', '0.0000001', '--deposit', '1'],
        {
          encoding: 'utf8',
          timeout: 240_000,
        },
      );
      expect(run.status).not.toBe(0);
      expect(run.stdout + run.stderr).toMatch(/minimum|refused|BAD_REQUEST/);
    });

    it('a wrong token is refused (401) and the bot says so', () => {
      const run = spawnSync(
        'python3',
        [
          '-c',
          `import sys; sys.path.insert(0, ${JSON.stringify(BOT.replace(/\/bot\.py$/, ''))}); import bot; ` +
            `a = bot.connect(${JSON.stringify(proc!.dir)}); a.token = 'wrong'\n` +
            `try:\n  a.call('GET', '/venue')\nexcept bot.ApiError as e:\n  print(e.code, e.status)`,
        ],
        { encoding: 'utf8', env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } },
      );
      expect(run.stdout.trim()).toBe('UNAUTHORIZED 401');
    });

    it('--app-url and --token-file name the app the bot trades through (an app of its own)', () => {
      const dir = mkdtempSync(join(tmpdir(), 'nightjar-bot-token-'));
      try {
        const tokenFile = join(dir, 'api-token');
        writeFileSync(tokenFile, 'not-the-token\n', { mode: 0o600 });
        const run = spawnSync(
          'python3',
          [BOT, '--data-dir', join(dir, 'nowhere'), '--app-url', proc!.origin, '--token-file', tokenFile],
          { encoding: 'utf8', env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } },
        );
        // It asked the app named (no ready.json needed) with the token of that file: refused.
        expect(run.status).not.toBe(0);
        expect(run.stdout + run.stderr).toContain('UNAUTHORIZED (401)');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
