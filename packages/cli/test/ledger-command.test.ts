import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RpcLedgerClient } from '@nightjar/ledger';
import { afterEach, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/nightjar.mjs', import.meta.url));

function run(args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const line = (re: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const m = out.match(re);
        if (m) resolve(m);
      };
      child.stdout.on('data', check);
      child.on('exit', () => reject(new Error(`exited before printing ${re}: ${err}`)));
      check();
    });
  return { child, exited, line, output: () => out, errors: () => err };
}

describe('nightjar ledger', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('prints its URL when ready, serves JSON-RPC, and shuts down cleanly on SIGINT keeping its state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nightjar-cli-'));
    dirs.push(dir);
    const first = run(['ledger', '--port', '0', '--data-dir', dir, '--manual-clock']);
    const [, url] = await first.line(/ready at (http:\/\/\S+)/);
    const client = new RpcLedgerClient(url!);
    expect((await client.getMarkets()).map((m) => m.symbol)).toEqual(['SOL-USDC', 'ETH-USDC']);
    await client.advanceSlots({ slots: 7 });
    await client.close();
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);

    const second = run(['ledger', '--port', '0', '--data-dir', dir, '--manual-clock']);
    const [, url2] = await second.line(/ready at (http:\/\/\S+)/);
    const again = new RpcLedgerClient(url2!);
    expect(await again.getSlot()).toBe(7);
    await again.close();
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 60_000);

  it('refuses bad options with usage and exit code 2', async () => {
    const r = run(['ledger', '--port', 'x']);
    expect(await r.exited).toBe(2);
    expect(r.errors()).toContain('--port must be 0..65535');
  }, 30_000);
});
