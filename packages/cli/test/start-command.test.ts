import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'node:https';
import { afterEach, describe, expect, it } from 'vitest';
import { RpcLedgerClient } from '@nightjar/ledger';
import { createTransport } from '@nightjar/sdk';

const BIN = fileURLToPath(new URL('../bin/nightjar.mjs', import.meta.url));

function getJson(url: string, ca: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    request(url, { ca }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('nightjar start', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('starts ledger and engine, writes ready.json when both answer, and stops cleanly on Ctrl-C', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nightjar-start-'));
    dirs.push(dir);
    const child = spawn(
      process.execPath,
      [BIN, 'start', '--port', '0', '--data-dir', dir, '--token-ttl', '60'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => out.includes('venue ready at') && resolve());
      child.on('exit', () => reject(new Error(`exited early: ${out}`)));
    });
    const ready = JSON.parse(readFileSync(join(dir, 'ready.json'), 'utf8'));
    expect(ready.base_url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.ledger_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(ready.boot_session_id).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(ready.admin).sort()).toEqual(['api_key', 'api_secret', 'passphrase']);
    const ca = readFileSync(join(dir, 'engine', 'tls-cert.pem'), 'utf8');
    const instruments = await getJson(`${ready.base_url}/instruments`, ca);
    expect((instruments.body as { symbol: string }[]).map((i) => i.symbol)).toEqual(['SOL-USDC', 'ETH-USDC']);
    const info = await getJson(`${ready.base_url}/info`, ca);
    expect((info.body as { boot_session_id: string }).boot_session_id).toBe(ready.boot_session_id);

    // A client that pins the root named in ready.json and the release's compose hash verifies the
    // transport (dcap-qvl accepts the quote) before it sends anything.
    expect(ready.compose_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(ready.platform_root).toBe(join(dir, 'engine', 'attestation', 'pki', 'root-ca.der'));
    const ledger = new RpcLedgerClient(ready.ledger_url);
    const transport = createTransport({
      url: ready.base_url,
      rootCaDer: readFileSync(ready.platform_root),
      composeHash: ready.compose_hash,
      ledger,
    });
    try {
      const verified = await transport.verify();
      expect(verified).toMatchObject({ bootSessionId: ready.boot_session_id, tcbStatus: 'UpToDate' });
      expect((await transport.request('/time')).status).toBe(200);
    } finally {
      transport.close();
      await ledger.close();
    }
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(existsSync(join(dir, 'ready.json'))).toBe(false);
  }, 60_000);
});
