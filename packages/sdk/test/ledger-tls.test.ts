/**
 * Issue 30 item 4: `createClient` reaches the ledger over TLS with `ledgerTls` (the pin of its
 * certificate, ready.json `ledger_tls_spki_sha256`), against a real engine and its ledger served
 * with TLS as `nightjar start` serves it. A certificate that is not the pinned one (a man in the
 * middle) fails the first ledger read as a `LedgerUnavailableError` naming the mismatch (that the
 * ledger sees no byte of it is packages/ledger/test/rpc-tls.test.ts's).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateBootCertificate, serveLedger, type LedgerServer } from '@nightjar/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerUnavailableError, createClient, createWallet, getBalances } from '../src/index.js';
import { FAST_SCRYPT, standInProver } from './fast-venue.js';
import { expectRejection, pins, startTestVenue, type TestVenue } from './helpers.js';

let v: TestVenue;
let server: LedgerServer;
beforeAll(async () => {
  v = await startTestVenue({ loginRateLimit: { capacity: 1_000, refillPerSecond: 1_000 } });
  server = await serveLedger(v.ledger, { port: 0, tls: { ...(await generateBootCertificate()) } });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await v?.close();
});

async function tlsClient(spkiSha256: string) {
  const { credentials } = await v.newAccount();
  const p = pins(v);
  return createClient({
    baseUrl: v.engine.url,
    pinnedRoot: p.rootCaDer,
    composeHash: p.composeHash,
    ledgerUrl: server.tlsUrl!,
    ledgerTls: { spkiSha256 },
    credentials,
    wallet: createWallet({
      path: join(mkdtempSync(join(tmpdir(), 'sdk-ledger-tls-')), 'w.wallet'),
      password: 'pw',
      scrypt: FAST_SCRYPT,
    }),
    prover: standInProver,
    backoff: { attempts: 1 },
  });
}

describe('createClient with ledgerTls', () => {
  it('reads the ledger over https with the pinned certificate', async () => {
    const client = await tlsClient(server.tlsSpkiSha256!);
    try {
      expect(await getBalances(client)).toBeDefined();
    } finally {
      await client.close();
    }
  });

  it('another certificate: LedgerUnavailableError naming the mismatch', async () => {
    const err = await expectRejection(tlsClient((await generateBootCertificate()).spkiSha256));
    expect(err).toBeInstanceOf(LedgerUnavailableError);
    expect((err as Error).message).toContain('does not match the pinned SPKI SHA-256');
  });
});
