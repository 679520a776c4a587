/**
 * Ledger failures reach a program as typed SDK errors (issue 20, item 8), against a real engine
 * (stand-in proofs) and its ledger served over JSON-RPC as `nightjar start` serves it: a ledger
 * that stopped answering is a retryable `LEDGER_UNAVAILABLE` naming its URL and the fix, from
 * `createClient`, `getBalances`, `syncWallet` and `deposit` alike (the faucet keeps its own
 * `FAUCET_UNAVAILABLE`); a JSON-RPC error reply on a read is a `LEDGER_ERROR` with `rpcCode` and the
 * method, also from a ledger the caller passed; transactions keep `LEDGER_REFUSED`, and a lost
 * reply (-32004) is still answered by reading the record.
 */
import { createServer } from 'node:net';
import { serveLedger, type LedgerServer } from '@nightjar/ledger';
import { RpcError, type LedgerClient, type LedgerMethodName } from '@nightjar/protocol/ledger-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deposit, getBalances, requestFaucet, syncWallet } from '../src/index.js';
import { newParty } from '@nightjar/testkit';
import { expectRejection, startTestVenue, type TestVenue } from './helpers.js';
import {
  FAUCET_CODES,
  LEDGER_ERROR_CODES,
  NIGHTJAR_ERROR__LEDGER_REFUSED,
  NIGHTJAR_ERROR__LEDGER_UNAVAILABLE,
  isNightjarError,
  type NightjarError,
} from '../src/index.js';

let v: TestVenue;
beforeAll(async () => {
  v = await startTestVenue({ loginRateLimit: { capacity: 1_000, refillPerSecond: 1_000 } });
}, 60_000);
afterAll(async () => {
  await v?.close();
});

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A client of the venue whose ledger is the JSON-RPC server at `ledgerUrl`. */
async function rpcClient(ledgerUrl: string, ledgerDevSecret?: string) {
  const { client } = await newParty(v, {
    client: { ledgerUrl, ...(ledgerDevSecret ? { ledgerDevSecret } : {}) },
  });
  return client;
}

/** `l` with the named methods replaced. */
function overriding(
  l: LedgerClient,
  methods: Partial<Record<LedgerMethodName, (params: never) => Promise<unknown>>>,
): LedgerClient {
  return new Proxy(l, {
    get(target, prop) {
      const own = (methods as Record<PropertyKey, unknown>)[prop];
      if (own) return own;
      const value = Reflect.get(target, prop) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function expectUnavailable(err: unknown, url: string): void {
  expect(isNightjarError(err, NIGHTJAR_ERROR__LEDGER_UNAVAILABLE)).toBe(true);
  expect(err).toMatchObject({
    codeName: 'LEDGER_UNAVAILABLE',
    retryable: true,
    context: { url, rpcCode: -32005 },
  });
  expect((err as Error).message).toContain(`the ledger at ${url} is unavailable`);
  expect((err as NightjarError).fix).toBe('Check that the venue and its ledger are running, then try again.');
  expect(isNightjarError(err)).toBe(true);
}

describe('a ledger that does not answer', () => {
  it('createClient with a ledgerUrl on a closed port: LEDGER_UNAVAILABLE naming the URL and the fix', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const err = await expectRejection(rpcClient(url));
    expectUnavailable(err, url);
    expect(err).toMatchObject({ context: { method: 'getVault' } }); // the signer set, read to verify the venue
  });

  it('a ledger stopped after the client connected: getBalances, syncWallet and deposit throw LEDGER_UNAVAILABLE', async () => {
    let server: LedgerServer | undefined = await serveLedger(v.ledger, { port: 0 });
    const url = server.url;
    const client = await rpcClient(url, server.devSecret);
    try {
      // Over JSON-RPC it works: the faucet (with the dev ledger's secret), a deposit that lands, balances.
      await requestFaucet(client, { asset: 'USDC', amount: '20' });
      await deposit(client, { asset: 'USDC', amount: '10', wait: 'landed' });
      const { USDC } = await getBalances(client, { by: 'symbol' });
      expect(USDC?.formatted.available).toBe('10'); // landed: a free note

      await server.close();
      server = undefined;
      expectUnavailable(await expectRejection(getBalances(client)), url);
      expectUnavailable(await expectRejection(syncWallet(client)), url);
      const err = await expectRejection(deposit(client, { asset: 'USDC', amount: '5' }));
      expectUnavailable(err, url);
      expect(err).toMatchObject({ context: { method: 'getNonce' } });
      // The faucet keeps its own error, FAUCET_UNAVAILABLE and retryable, with the fix.
      const faucet = await expectRejection(requestFaucet(client, { asset: 'USDC', amount: '1' }));
      expect(isNightjarError(faucet, FAUCET_CODES)).toBe(true);
      expect(faucet).toMatchObject({
        codeName: 'FAUCET_UNAVAILABLE',
        retryable: true,
        context: { rpcCode: -32005 },
      });
      expect(faucet.message).toMatch(/^the ledger is unreachable \(ledger unreachable: .+\)$/);
      expect((faucet as NightjarError).fix).toBe(
        'Check that the venue and its ledger are running, then try again.',
      );
    } finally {
      await client.close();
      await server?.close();
    }
  });
});

describe('a ledger that answers with an error', () => {
  it('a read refused by the ledger (a ledger the caller passed): LEDGER_ERROR with rpcCode and method', async () => {
    const refused = new RpcError(-32602, 'tree_id is not a shard of this ledger');
    const { client } = await newParty(v, {
      ledger: (l) =>
        overriding(l, {
          getTreeRoot: async () => {
            throw refused;
          },
        }),
    });
    try {
      const err = await expectRejection(getBalances(client));
      expect(isNightjarError(err, LEDGER_ERROR_CODES)).toBe(true);
      expect(isNightjarError(err, NIGHTJAR_ERROR__LEDGER_UNAVAILABLE)).toBe(false);
      expect(err).toMatchObject({
        codeName: 'LEDGER_ERROR',
        retryable: false,
        cause: refused,
        context: { rpcCode: -32602, method: 'getTreeRoot' },
      });
      expect(err.message).toBe(
        'the ledger refused getTreeRoot (JSON-RPC -32602): tree_id is not a shard of this ledger',
      );
    } finally {
      await client.close();
    }
  });

  it('a refused transaction is still LEDGER_REFUSED with the JSON-RPC code; a lost reply is answered by the record', async () => {
    const funded = async (ledger: (l: LedgerClient) => LedgerClient) => {
      const party = await newParty(v, { ledger });
      await v.ledger.requestAirdrop({
        owner: party.wallet.keys.funding.address,
        mint: (await party.client.instrument('SOL-USDC')).quote_mint,
        amount: '10000000',
      });
      return party;
    };
    const busy = await funded((l) =>
      overriding(l, {
        sendTransaction: async () => {
          throw new RpcError(-32007, 'too many transactions of this signer are waiting');
        },
      }),
    );
    try {
      const err = await expectRejection(deposit(busy.client, { asset: 'USDC', amount: '1', wait: 'landed' }));
      expect(isNightjarError(err, NIGHTJAR_ERROR__LEDGER_REFUSED)).toBe(true);
      expect(err).toMatchObject({
        codeName: 'LEDGER_REFUSED',
        retryable: true,
        context: { ledgerCode: '-32007', landed: false },
      });
      expect(isNightjarError((err as Error).cause, LEDGER_ERROR_CODES)).toBe(true);
      expect(busy.wallet.notes.size).toBe(0); // nothing deposited, the note removed
    } finally {
      await busy.client.close();
    }

    const lost = await funded((l) =>
      overriding(l, {
        sendTransaction: async (p: Parameters<LedgerClient['sendTransaction']>[0]) => {
          await l.sendTransaction(p);
          throw new RpcError(-32004, 'no response from the node; the transaction may have landed');
        },
      }),
    );
    try {
      const { usable, note } = await deposit(lost.client, { asset: 'USDC', amount: '1', wait: 'landed' });
      expect(usable).toBe(false);
      expect(lost.wallet.notes.get(note.commitment)?.leafIndex).toBeDefined();
    } finally {
      await lost.client.close();
    }
  });
});
