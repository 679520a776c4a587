import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { RpcError } from '@nightjar/ledger';
import { loadOrCreateLedgerIdentity, RpcLedgerClient } from '@nightjar/ledger';
import { writeSecretFile } from '@nightjar/protocol';
import { sha256Hex } from '@nightjar/circuits';
import { BIN, startNightjar } from '@nightjar/testkit/process';
import { expectVerified } from './verify-ready.js';
import { newAuthority, writeAuthorityKey, writeCeremonyKeys } from './production-config.js';

function getJson(url: string, ca: string, post?: unknown): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const options =
      post === undefined ? { ca } : { ca, method: 'POST', headers: { 'content-type': 'application/json' } };
    request(url, options, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    })
      .on('error', reject)
      .end(post === undefined ? undefined : JSON.stringify(post));
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
    const { child, exited } = await startNightjar([
      '--no-app',
      '--port',
      '0',
      '--data-dir',
      dir,
      '--token-ttl',
      '60',
    ]);
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
    // The dev ledger's faucet secret, for local tools: ready.json (0600) carries it.
    expect(ready.ledger_dev_secret).toBe(readFileSync(join(dir, 'ledger', 'dev-secret'), 'utf8').trim());
    expect(statSync(join(dir, 'ready.json')).mode & 0o777).toBe(0o600);
    const ledger = new RpcLedgerClient(ready.ledger_url);
    try {
      await expectVerified(ready, ledger);
    } finally {
      await ledger.close();
    }

    // The ledger over TLS (issue 30 item 4): its URL and the pin of the certificate it keeps in
    // its data directory; the CLI reads the ledger there, not over plain HTTP. With ledger_url
    // pointing nowhere, `nightjar status` (whose transport check reads the signer set from the
    // ledger) still succeeds: it used the TLS URL.
    expect(ready.ledger_tls_url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/$/);
    const identity = await loadOrCreateLedgerIdentity(join(dir, 'ledger'));
    expect(ready.ledger_tls_spki_sha256).toBe(identity.spkiSha256);
    writeSecretFile(join(dir, 'ready.json'), JSON.stringify({ ...ready, ledger_url: 'http://127.0.0.1:1/' }));
    const status = spawnSync(process.execPath, [BIN, 'status', '--data-dir', dir, '--json'], {
      encoding: 'utf8',
    });
    expect(status.stderr).toBe('');
    expect(status.status).toBe(0);
    // A pin that is not the ledger's: the same command fails as unreachable, naming the mismatch.
    writeSecretFile(
      join(dir, 'ready.json'),
      JSON.stringify({ ...ready, ledger_tls_spki_sha256: 'ab'.repeat(32) }),
    );
    const pinned = spawnSync(process.execPath, [BIN, 'status', '--data-dir', dir], { encoding: 'utf8' });
    expect(pinned.status).toBe(3);
    expect(pinned.stderr).toContain('does not match the pinned SPKI SHA-256');
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(existsSync(join(dir, 'ready.json'))).toBe(false);
  }, 60_000);

  it('--no-dev: no admin in ready.json or on disk, no faucet or dev_* methods, the authority registers the key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nightjar-start-'));
    dirs.push(dir);
    const authority = newAuthority();
    const keys = writeCeremonyKeys(dir);
    const args = [
      '--no-dev',
      '--port',
      '0',
      '--data-dir',
      join(dir, 'venue'),
      '--authority-key',
      writeAuthorityKey(dir, authority),
      '--circuit-keys',
      keys,
    ];
    const first = await startNightjar(['--no-app', ...args]);
    const ready = JSON.parse(readFileSync(join(dir, 'venue', 'ready.json'), 'utf8'));
    expect(ready.admin).toBeUndefined();
    expect(Object.keys(ready).sort()).toEqual([
      'base_url',
      'boot_session_id',
      'compose_hash',
      'ledger_tls_spki_sha256',
      'ledger_tls_url',
      'ledger_url',
      'platform_root',
    ]);
    // The first admin is shown once on the terminal, and works.
    const [, apiKey, apiSecret, passphrase] =
      /api_key (\S+)\n {2}api_secret (\S+)\n {2}passphrase (\S+)/.exec(first.output()) ?? [];
    const ca = readFileSync(join(dir, 'venue', 'engine', 'tls-cert.pem'), 'utf8');
    const login = await getJson(`${ready.base_url}/auth/token`, ca, {
      api_key: apiKey,
      api_secret: apiSecret,
      passphrase,
    });
    expect(login.status).toBe(200);
    // ... and stored nowhere: no file under the data directory holds the secret or a dev key.
    expect(apiSecret).toMatch(/\S{16}/);
    const files = readdirSync(join(dir, 'venue'), { recursive: true, withFileTypes: true }).filter((f) =>
      f.isFile(),
    );
    expect(files.length).toBeGreaterThan(3);
    expect(files.filter((f) => f.name.includes('dev-admin'))).toEqual([]);
    for (const f of files) expect(readFileSync(join(f.parentPath, f.name)).includes(apiSecret!)).toBe(false);

    // The ledger: initialized by the authority, which registered the engine's key; no dev methods.
    const ledger = new RpcLedgerClient(ready.ledger_url);
    try {
      const vault = await ledger.getVault();
      expect(vault.admin).toBe(authority.admin);
      expect(vault.fee_owner_commitment).toBe(authority.feeOwnerCommitment);
      expect(vault.tee_keys).toHaveLength(1);
      const refused = async (p: Promise<unknown>) =>
        expect(((await p.catch((e: unknown) => e)) as RpcError).code).toBe(-32006);
      await refused(ledger.requestAirdrop({ owner: authority.admin, mint: vault.tee_keys[0]!, amount: '1' }));
      await refused(ledger.setFaults({ outage: true }));
      await refused(ledger.advanceSlots({ slots: 1 }));
    } finally {
      await ledger.close();
    }
    // /info names the real ceremony's keys.
    const info = (await getJson(`${ready.base_url}/info`, ca)).body as {
      circuit_keys: Record<string, unknown>;
    };
    expect(info.circuit_keys).toEqual({
      dev_only: false,
      valid_input_vkey_sha256: sha256Hex(readFileSync(join(keys, 'valid_input_v2.vkey.json'))),
      valid_spend_vkey_sha256: sha256Hex(readFileSync(join(keys, 'valid_spend_v2.vkey.json'))),
      valid_lock_vkey_sha256: sha256Hex(readFileSync(join(keys, 'valid_lock.vkey.json'))),
      valid_match_vkey_sha256: sha256Hex(readFileSync(join(keys, 'valid_match_v2.vkey.json'))),
    });
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);

    // A restart shows no credentials again (the admin exists) and still writes no admin.
    const second = await startNightjar(['--no-app', ...args]);
    expect(second.output()).not.toContain('api_secret');
    expect(JSON.parse(readFileSync(join(dir, 'venue', 'ready.json'), 'utf8')).admin).toBeUndefined();
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 90_000);

  it('--no-dev refuses the dev-ceremony circuit keys and a missing authority key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nightjar-start-'));
    dirs.push(dir);
    const run = (args: string[]) => {
      const child = spawn(
        process.execPath,
        [BIN, 'start', '--no-app', '--no-dev', '--port', '0', '--data-dir', dir, ...args],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, NIGHTJAR_AUTHORITY_KEY: undefined },
        },
      );
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      return new Promise<{ code: number | null; err: string }>((resolve) =>
        child.on('exit', (code) => resolve({ code, err })),
      );
    };
    const noAuthority = await run([]);
    expect(noAuthority.code).toBe(2);
    expect(noAuthority.err).toContain('--authority-key');
    const devKeys = await run(['--authority-key', writeAuthorityKey(dir, newAuthority())]);
    expect(devKeys.code).toBe(2);
    expect(devKeys.err).toMatch(/DEV-ONLY ceremony.*--circuit-keys DIR/s);
    expect(existsSync(join(dir, 'ready.json'))).toBe(false);
  }, 60_000);

  it.runIf(process.getuid?.() === 0)(
    'refuses a data directory others may write to, or another user owns, and adopts nothing in it (issue 28.3)',
    async () => {
      const parent = mkdtempSync(join(tmpdir(), 'nightjar-start-'));
      dirs.push(parent);
      const run = (dir: string) => {
        const child = spawn(process.execPath, [BIN, 'start', '--no-app', '--port', '0', '--data-dir', dir], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let err = '';
        child.stderr.on('data', (d) => (err += d));
        return new Promise<{ code: number | null; err: string }>((resolve) =>
          child.on('exit', (code) => resolve({ code, err })),
        );
      };
      // A shared, world-writable directory where another user left an engine key of theirs.
      const shared = join(parent, 'shared');
      mkdirSync(join(shared, 'engine'), { recursive: true });
      chmodSync(shared, 0o777);
      const sharedRun = await run(shared);
      expect(sharedRun.code).not.toBe(0);
      expect(sharedRun.err).toContain(`chmod 700 ${shared}`);
      // Another user's directory, private to them.
      const foreign = join(parent, 'foreign');
      mkdirSync(foreign, { mode: 0o700 });
      chownSync(foreign, 65534, 65534);
      const foreignRun = await run(foreign);
      expect(foreignRun.code).not.toBe(0);
      expect(foreignRun.err).toMatch(new RegExp(`${foreign}: it is owned by uid 65534.*chown`));
      for (const dir of [shared, foreign]) {
        expect(existsSync(join(dir, 'ready.json'))).toBe(false);
        expect(existsSync(join(dir, 'ledger'))).toBe(false);
      }
    },
    60_000,
  );

  it('--help lists the app options; `nightjar app --help` says how to start the app and where the bot token is', () => {
    const start = spawnSync(process.execPath, [BIN, 'start', '--help'], { encoding: 'utf8' });
    expect(start.status).toBe(0);
    expect(start.stdout).toContain('--no-app');
    expect(start.stdout).toMatch(/--app-port P .*default 8480, or the next free one/);
    const app = spawnSync(process.execPath, [BIN, 'app', '--help'], { encoding: 'utf8' });
    expect(app.status).toBe(0);
    expect(app.stdout).toContain('nightjar app [--port P] [--data-dir D]');
    expect(app.stdout).toContain('api-token');
  });

  it('a taken --app-port or --port the user gave stops start before the venue boots, naming the flag', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nightjar-port-'));
    dirs.push(dir);
    const holder = createServer();
    await new Promise<void>((r) => holder.listen({ host: '127.0.0.1', port: 0 }, r));
    const port = String((holder.address() as { port: number }).port);
    try {
      const run = (args: string[]) =>
        spawnSync(process.execPath, [BIN, 'start', '--data-dir', dir, ...args], { encoding: 'utf8' });
      const app = run(['--port', '0', '--app-port', port]);
      expect(app.status).not.toBe(0);
      expect(app.stderr).toContain(`port ${port} on 127.0.0.1 is taken (--app-port ${port})`);
      expect(app.stderr).not.toContain('EADDRINUSE');
      const engine = run(['--no-app', '--port', port]);
      expect(engine.status).not.toBe(0);
      expect(engine.stderr).toContain(`(--port ${port}): another program listens there`);
      expect(existsSync(join(dir, 'ready.json'))).toBe(false);
    } finally {
      await new Promise((r) => holder.close(r));
    }
  }, 60_000);

  it("the venue process logs one format: every stderr line, the app child's too, is a pino JSON record", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nightjar-log-'));
    dirs.push(dir);
    const venue = spawn(
      process.execPath,
      [BIN, 'start', '--port', '0', '--app-port', '0', '--data-dir', dir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    venue.stdout.on('data', (d) => (out += String(d)));
    venue.stderr.on('data', (d) => (err += String(d)));
    const exited = new Promise<number | null>((r) => venue.once('exit', r));
    await new Promise<void>((resolve, reject) => {
      venue.stdout.on('data', () => out.includes('venue ready at') && resolve());
      venue.once('exit', () => reject(new Error(`venue exited early: ${out} ${err}`)));
    });
    venue.kill('SIGINT');
    expect(await exited).toBe(0);
    const lines = err.split('\n').filter((l) => l.trim());
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const record = JSON.parse(line) as { level?: unknown; msg?: unknown };
      expect(typeof record.level, line).toBe('number');
      expect(typeof record.msg, line).toBe('string');
    }
    expect(lines.some((l) => l.includes('SIGINT: shutting down'))).toBe(true);
    expect(out).toContain('trading app: open http://127.0.0.1:');
  }, 120_000);
});
