/**
 * `nightjar start --markets … --store … --public-url … --pki-dir …`: a second engine joins the
 * first one's ledger and the venue's PostgreSQL engines directory, writing only its own market.
 * Both list both markets at the right URL, both attest under the one shared simulated root with
 * both keys in the signer set (a client's checks pass at each), and ready.json keeps its shape. The flags' checks refuse what cannot work before anything starts.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startPostgres, type TestPostgres } from '@nightjar/testkit/postgres';
import { RpcLedgerClient } from '@nightjar/ledger';
import {
  FAST_SLOTS,
  killAll,
  nightjar,
  startVenueProcess,
  stopVenueProcess,
} from '@nightjar/testkit/process';
import { marketsOption } from '../src/commands/start.js';
import { expectVerified } from './verify-ready.js';
import type { ChildProcess } from 'node:child_process';

function getJson(url: string, ca: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    request(url, { ca }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve(JSON.parse(text)));
    })
      .on('error', reject)
      .end();
  });
}

describe('nightjar start, one engine of several', () => {
  let pg: TestPostgres;
  const dirs: string[] = [];
  const venues: ChildProcess[] = [];
  const tmp = (name: string) => {
    const d = mkdtempSync(join(tmpdir(), `nightjar-${name}-`));
    dirs.push(d);
    return d;
  };
  beforeAll(async () => {
    pg = await startPostgres();
  });
  afterAll(async () => {
    for (const v of venues) await stopVenueProcess(v);
    killAll();
    await pg?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('starts a second engine on the first one’s ledger, each writing its market, one shared root', async () => {
    const pki = join(tmp('pki'), 'pki');
    const engine = async (dir: string, market: string, ledger: string[]) => {
      const port = await freePort();
      const flags = ['--port', String(port), '--markets', market, '--store', pg.url];
      flags.push('--public-url', `https://127.0.0.1:${port}`);
      venues.push(await startVenueProcess(dir, [...flags, '--pki-dir', pki, ...ledger]));
      // startVenueProcess passes --port 0 first; ours comes after and wins.
      return JSON.parse(readFileSync(join(dir, 'ready.json'), 'utf8'));
    };
    const [dirA, dirB] = [tmp('a'), tmp('b')];
    const a = await engine(dirA, 'SOL-USDC', FAST_SLOTS);
    const b = await engine(dirB, 'ETH-USDC', ['--ledger', a.ledger_url]);
    expect(Object.keys(b).sort()).toEqual(
      ['admin', 'base_url', 'boot_session_id', 'compose_hash', 'ledger_url', 'platform_root'].sort(),
    );
    expect(b.platform_root).toBe(a.platform_root);
    expect(a.platform_root).toBe(join(pki, 'root-ca.der'));
    const layout = { 'SOL-USDC': a.base_url, 'ETH-USDC': b.base_url };
    for (const [ready, dir] of [
      [a, dirA],
      [b, dirB],
    ] as const) {
      const ca = readFileSync(join(dir, 'engine', 'tls-cert.pem'), 'utf8');
      const listed = (await getJson(`${ready.base_url}/instruments`, ca)) as {
        symbol: string;
        base_url: string;
      }[];
      expect(Object.fromEntries(listed.map((i) => [i.symbol, i.base_url]))).toEqual(layout);
    }

    // The first engine (it holds the dev ledger's admin) registers the second one's key at its next
    // heartbeat; once that set is final, a client's checks (a)–(d) pass at both engines.
    const ledger = new RpcLedgerClient(a.ledger_url);
    try {
      const finalKeys = async () => (await ledger.getVault({ commitment: 'finalized' })).tee_keys.length;
      for (let i = 0; i < 300 && (await finalKeys()) < 2; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await finalKeys()).toBe(2);
      for (const ready of [a, b]) await expectVerified(ready, ledger);
    } finally {
      await ledger.close();
    }

    // A third engine naming a market a live engine writes refuses to start, and says where it is.
    const port = await freePort();
    const third = await nightjar([
      ...['start', '--no-app', '--data-dir', tmp('c'), '--port', String(port), '--ledger', a.ledger_url],
      ...['--markets', 'SOL-USDC', '--store', pg.url, '--public-url', `https://127.0.0.1:${port}`],
    ]);
    expect(third.code).not.toBe(0);
    expect(third.stderr).toContain(`SOL-USDC is already served by engine`);
    expect(third.stderr).toContain(a.base_url);
  }, 180_000);

  it('refuses flags that cannot work, before starting anything', async () => {
    const dir = tmp('bad');
    const run = (...args: string[]) => nightjar(['start', '--no-app', '--data-dir', dir, ...args]);
    const noUrl = await run('--store', pg.url);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('--store needs --public-url');
    const notPg = await run('--store', 'mysql://x', '--public-url', 'https://127.0.0.1:1');
    expect(notPg.stderr).toContain('--store takes a PostgreSQL URL');
    const traders = await run('--markets', 'ETH-USDC', '--demo-traders', '2');
    expect(traders.code).toBe(2);
    expect(traders.stderr).toContain('--demo-traders trade SOL-USDC, which this engine does not write');
    expect(() => marketsOption('SOL-USDC,SOL-USDC')).toThrow(/twice/);
    expect(marketsOption('SOL-USDC,ETH-USDC')).toEqual(['SOL-USDC', 'ETH-USDC']);
  });
});
