/**
 * Issue 30 item 4: the app reads the ledger over TLS, pinning its certificate, when ready.json
 * names the TLS URL and pin (`nightjar start` writes them); else it uses `ledger_url`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSecretFile } from '@nightjar/protocol';
import { createWallet } from '@nightjar/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { venueFromReady } from '../src/server.js';
import { VenueSession } from '../src/venue.js';

const dir = mkdtempSync(join(tmpdir(), 'nightjar-app-ledger-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PIN = 'ab'.repeat(32);
const base = {
  base_url: 'https://127.0.0.1:9',
  ledger_url: 'http://127.0.0.1:8899/',
  compose_hash: '00'.repeat(32),
  platform_root: join(dir, 'root.der'),
};
writeFileSync(base.platform_root, new Uint8Array(1));

function venueOf(ready: object) {
  const file = join(dir, `ready-${Math.random().toString(36).slice(2)}.json`);
  writeSecretFile(file, JSON.stringify(ready));
  return venueFromReady(dir, file);
}

describe("the app's ledger connection", () => {
  it('is the TLS URL with its pin when ready.json names them, and reaches createClient so', () => {
    const config = venueOf({
      ...base,
      ledger_tls_url: 'https://127.0.0.1:8900/',
      ledger_tls_spki_sha256: PIN,
    });
    expect(config).toMatchObject({ ledgerUrl: 'https://127.0.0.1:8900/', ledgerTls: { spkiSha256: PIN } });
    const noop = () => undefined;
    const session = new VenueSession(
      config,
      createWallet(),
      undefined,
      dir,
      {},
      {
        venue: noop,
        connection: noop,
        stream: noop,
        connected: noop,
      },
    );
    expect(session.clientParameters({ api_key: 'k', api_secret: 's', passphrase: 'p' })).toMatchObject({
      ledgerUrl: 'https://127.0.0.1:8900/',
      ledgerTls: { spkiSha256: PIN },
    });
  });

  it('is ledger_url without them', () => {
    const config = venueOf(base);
    expect(config.ledgerUrl).toBe('http://127.0.0.1:8899/');
    expect(config.ledgerTls).toBeUndefined();
  });
});
