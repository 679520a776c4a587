/**
 * Issue 30 item 4: `createClient` reaches the ledger over TLS with `ledgerTls` (the pin of its
 * certificate, ready.json `ledger_tls_spki_sha256`), against a real engine and its ledger served
 * with TLS as `nightjar start` serves it. A certificate that is not the pinned one (a man in the
 * middle) fails the first ledger read as a `LEDGER_UNAVAILABLE` naming the mismatch (that the
 * ledger sees no byte of it is packages/ledger/test/rpc-tls.test.ts's).
 */
import { generateBootCertificate, serveLedger, type LedgerServer } from '@nightjar/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBalances } from '../src/index.js';
import { newParty } from '@nightjar/testkit';
import { expectRejection, startTestVenue, type TestVenue } from './helpers.js';
import { NIGHTJAR_ERROR__LEDGER_UNAVAILABLE, isNightjarError } from '../src/index.js';

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

/** A client of a fresh account reading the ledger over https with `spkiSha256` pinned. */
async function tlsClient(spkiSha256: string) {
  const { client } = await newParty(v, { client: { ledgerUrl: server.tlsUrl!, ledgerTls: { spkiSha256 } } });
  return client;
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

  it('another certificate: LEDGER_UNAVAILABLE naming the mismatch', async () => {
    const err = await expectRejection(tlsClient((await generateBootCertificate()).spkiSha256));
    expect(isNightjarError(err, NIGHTJAR_ERROR__LEDGER_UNAVAILABLE)).toBe(true);
    expect((err as Error).message).toContain('does not match the pinned SPKI SHA-256');
  });
});
