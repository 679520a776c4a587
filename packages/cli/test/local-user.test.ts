/**
 * Issue 28 item 1: another local user can neither read a started venue's data directory (the
 * token key was in a 0644 `engine.sqlite` in a 0755 directory) nor, holding the key, make a token
 * that outlives `revoke-tokens` (one "issued in 2100"). A real `nightjar start` in its own process;
 * the other user is a child process running as uid 65534 (the tests run as root); tokens go over
 * HTTPS. The tokens are minted here from the documented format (engine accounts/tokens.ts), as a
 * forger would.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAll, startVenueProcess, stopVenueProcess } from '@nightjar/testkit/process';

const OTHER_UID = 65534;
const TTL_SECONDS = 60;

let parent: string;
let dir: string;
let venue: ChildProcess | undefined;
let ready: { base_url: string; admin: { api_key: string; api_secret: string; passphrase: string } };
let ca: string;

function call(
  path: string,
  options: { method?: string; token?: string; body?: unknown } = {},
): Promise<{ status: number; body: { code?: number; message?: string } & Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    request(`${ready.base_url}${path}`, { ca, method: options.method ?? 'GET', headers }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    })
      .on('error', reject)
      .end(options.body === undefined ? undefined : JSON.stringify(options.body));
  });
}

/** A bearer token as the engine lays it out, MACed with `key`. */
function mint(key: Buffer, accountId: string, issuedAtS: number, expiresAtMs: number): string {
  const payload = Buffer.alloc(49);
  payload[0] = 1;
  payload.write(accountId, 1, 16, 'hex');
  randomBytes(16).copy(payload, 17);
  payload.writeBigUInt64BE(BigInt(issuedAtS), 33);
  payload.writeBigUInt64BE(BigInt(expiresAtMs), 41);
  const mac = createHmac('sha256', key).update('nightjar/bearer-token/v1').update(payload).digest();
  return `nj1.${payload.toString('base64url')}.${mac.toString('base64url')}`;
}

/** Every path under `root` (directories first), as the venue's owner sees them. */
function walk(root: string): { dirs: string[]; files: string[] } {
  const dirs = [root];
  const files: string[] = [];
  for (const e of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const path = join(e.parentPath, e.name);
    if (e.isDirectory()) dirs.push(path);
    else files.push(path);
  }
  return { dirs, files };
}

beforeAll(async () => {
  // A parent others may enter, as a home directory often is: only the venue's own modes protect it.
  parent = mkdtempSync(join(tmpdir(), 'nightjar-local-user-'));
  chmodSync(parent, 0o755);
  dir = join(parent, 'venue');
  venue = await startVenueProcess(dir, ['--token-ttl', String(TTL_SECONDS)]);
  ready = JSON.parse(readFileSync(join(dir, 'ready.json'), 'utf8')) as typeof ready;
  ca = readFileSync(join(dir, 'engine', 'tls-cert.pem'), 'utf8');
}, 120_000);

afterAll(async () => {
  await stopVenueProcess(venue);
  killAll();
  rmSync(parent, { recursive: true, force: true });
});

describe.runIf(process.getuid?.() === 0)('another local user and a started venue', () => {
  it('every directory of the data directory is 0700 and every file 0600', () => {
    const { dirs, files } = walk(dir);
    expect(files.length).toBeGreaterThan(5);
    for (const d of dirs) expect([d, (statSync(d).mode & 0o777).toString(8)]).toEqual([d, '700']);
    for (const f of files) expect([f, statSync(f).mode & 0o077]).toEqual([f, 0]);
    // The token key is its own file, not a row of the accounts database.
    expect(files).toContain(join(dir, 'engine', 'token-key'));
  });

  it('a process of another uid can read no file of the data directory', () => {
    const { files } = walk(dir);
    const probe = spawnSync(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs');
         const readable = JSON.parse(process.argv[1]).filter((f) => {
           try { fs.readFileSync(f); return true; } catch { return false; }
         });
         process.stdout.write(JSON.stringify({ uid: process.getuid(), readable }));`,
        JSON.stringify(files),
      ],
      { uid: OTHER_UID, gid: OTHER_UID, encoding: 'utf8', cwd: '/' },
    );
    expect(probe.status, probe.stderr).toBe(0);
    expect(JSON.parse(probe.stdout)).toEqual({ uid: OTHER_UID, readable: [] });
  });

  it('refuses a token issued in the future or living longer than the TTL, and none survives revoke-tokens', async () => {
    const login = await call('/auth/token', { method: 'POST', body: ready.admin });
    expect(login.status).toBe(200);
    const accountId = login.body.account_id as string;
    const adminToken = login.body.access_token as string;
    // The key as only the venue's owner can read it now.
    const key = Buffer.from(readFileSync(join(dir, 'engine', 'token-key'), 'utf8').trim(), 'hex');
    const nowS = Math.floor(Date.now() / 1000);

    // With the key a token of the usual shape is accepted: the forgeries below differ only in time.
    const usual = mint(key, accountId, nowS, nowS * 1000 + TTL_SECONDS * 1000);
    expect((await call('/account/settings', { token: usual })).status).toBe(200);

    const year2100 = 4_102_444_800;
    const forged = {
      future: mint(key, accountId, nowS + 3600, (nowS + 3600 + TTL_SECONDS) * 1000),
      year2100: mint(key, accountId, year2100, (year2100 + TTL_SECONDS) * 1000),
      longLived: mint(key, accountId, nowS, (nowS + 24 * 3600) * 1000),
    };
    for (const [name, token] of Object.entries(forged)) {
      const res = await call('/account/settings', { token });
      expect([name, res.status, res.body.code]).toEqual([name, 401, 1101]);
    }

    const revoked = await call(`/admin/accounts/${ready.admin.api_key}/revoke-tokens`, {
      method: 'POST',
      token: adminToken,
    });
    expect(revoked.status).toBe(200);
    for (const token of [usual, adminToken, forged.year2100]) {
      const res = await call('/account/settings', { token });
      expect([res.status, res.body.code]).toEqual([401, 1101]);
    }
  });
});
