/**
 * Issue 28 item 3: the app never adopts a state directory or a secret another local user made.
 * The tests run as root, which may give a file away (chown) as a second user would have planted it.
 */
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UnsafePathError } from '@nightjar/protocol';
import { createAppServer, type VenueConfig } from '../src/index.js';

const NOBODY = 65534;
const base = mkdtempSync(join(tmpdir(), 'nightjar-app-planted-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Never contacted: the app must refuse its state before it talks to any venue. */
const venue: VenueConfig = {
  baseUrl: 'https://127.0.0.1:9',
  ledgerUrl: 'http://127.0.0.1:9/',
  composeHash: '00'.repeat(32),
  pinnedRoot: new Uint8Array(1),
};

async function refusal(stateDir: string): Promise<Error> {
  const err = await createAppServer({ venue, stateDir, port: 0 }).then(
    async (app) => {
      await app.close();
      throw new Error('the app started');
    },
    (e: unknown) => e as Error,
  );
  expect(err).toBeInstanceOf(UnsafePathError);
  return err;
}

describe.runIf(process.getuid?.() === 0)('the app state directory another user planted', () => {
  it('refuses an api-token another user owns and does not adopt it', async () => {
    const stateDir = join(base, 'token');
    mkdirSync(stateDir, { mode: 0o700 });
    const planted = join(stateDir, 'api-token');
    writeFileSync(planted, 'attacker-chosen-token\n', { mode: 0o600 });
    chownSync(planted, NOBODY, NOBODY);
    const err = await refusal(stateDir);
    expect(err.message).toContain(planted);
    expect(err.message).toMatch(/owned by uid 65534/);
    expect(readFileSync(planted, 'utf8')).toBe('attacker-chosen-token\n');
  });

  it('refuses a state directory others may write to, or another user owns', async () => {
    const shared = join(base, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    expect((await refusal(shared)).message).toContain(`chmod 700 ${shared}`);
    const foreign = join(base, 'foreign');
    mkdirSync(foreign, { mode: 0o700 });
    chownSync(foreign, NOBODY, NOBODY);
    expect((await refusal(foreign)).message).toMatch(/owned by uid 65534.*chown/);
  });

  it('refuses a wallet password others may read', async () => {
    const stateDir = join(base, 'password');
    mkdirSync(stateDir, { mode: 0o700 });
    writeFileSync(join(stateDir, 'wallet-password'), 'known-to-everyone\n');
    chmodSync(join(stateDir, 'wallet-password'), 0o644);
    expect((await refusal(stateDir)).message).toContain('chmod 600');
  });
});
