/**
 * The wallet against a real engine over HTTPS and the stream (stand-in proofs): notes are spent
 * only on the ledger's word (16.4), a reconnect's resync never frees a note a live order holds
 * (16.5), and the wallet bugs a bot author hits at once (16.22 a–c).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerClient, Transaction } from '@nightjar/ledger';
import { requiredCollateral, type Instrument } from '@nightjar/protocol';
import {
  createStream,
  createWallet,
  deposit,
  getBalances,
  getOrder,
  modifyOrder,
  placeOrder,
  seal,
  syncWallet,
  unseal,
  withdraw,
  writeFileAtomic,
  readText,
  type Client,
  type ClientRequestOptions,
  type StreamClientEvent,
} from '../src/index.js';
import { freshAddress, startTestVenue, type TestVenue } from './helpers.js';
import { FAST_SCRYPT, advanceUntil, finalize, fund, newParty, units } from '@nightjar/testkit';
import {
  INSUFFICIENT_NOTES_CODES,
  NIGHTJAR_ERROR__NETWORK,
  NIGHTJAR_ERROR__NOTES_PENDING,
  NIGHTJAR_ERROR__ORDER_NOT_MODIFIABLE,
  NightjarError,
  isNightjarError,
  venueError,
} from '../src/index.js';

let v: TestVenue;
let inst: Instrument;
let SOL: string;
let USDC: string;
let one: bigint;
let px: (p: number) => bigint;

beforeAll(async () => {
  // Many accounts, each made by the admin's login: lift the per-account login bucket.
  v = await startTestVenue({ settle: true, loginRateLimit: { capacity: 1_000, refillPerSecond: 1_000 } });
  const first = await newParty(v);
  inst = await first.client.instrument('SOL-USDC');
  await first.client.close();
  SOL = inst.base_mint;
  USDC = inst.quote_mint;
  ({ one, price: px } = units(inst));
}, 60_000);
afterAll(async () => {
  await v?.close();
});

/** A ledger whose `deposit`/`withdraw` transactions are held back (never sent) until released. */
function holdingLedger(name: 'deposit' | 'withdraw') {
  const held: Transaction[] = [];
  const wrap = (l: LedgerClient): LedgerClient =>
    new Proxy(l, {
      get(target, prop) {
        if (prop === 'sendTransaction')
          return async (p: { transaction: Transaction }) => {
            if (p.transaction.instruction.name !== name) return target.sendTransaction(p);
            held.push(p.transaction);
            return { signature: p.transaction.signature };
          };
        if (prop === 'getTransaction')
          return async (p: { signature: string }) =>
            held.some((t) => t.signature === p.signature) ? null : target.getTransaction(p);
        const value = Reflect.get(target, prop) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  return { wrap, held };
}

/** Makes `GET /orders/{id}` fail with `make()` on this client (the rest goes through). */
function failOrderLookups(c: Client, make: () => Error): void {
  const real = c.request.bind(c);
  c.request = (<T>(path: string, options?: ClientRequestOptions<T>) =>
    /^\/orders\/[0-9a-f]{32}$/.test(path) && (options?.method ?? 'GET') === 'GET'
      ? Promise.reject(make())
      : real<T>(path, options)) as Client['request'];
}

const bidNeed = () => requiredCollateral('bid', one, px(150), inst);

describe('the funding key signs one transaction at a time', () => {
  // Before the lock, two deposits (or withdrawals) at once read the same nonce and signed the
  // same next one: the ledger refused the second (-32002), which an app or bot sees at once.
  it('three deposits and then two withdrawals at once all land, each exactly once', async () => {
    const a = await newParty(v);
    try {
      const funding = a.wallet.keys.funding.address;
      await v.ledger.requestAirdrop({ owner: funding, mint: USDC, amount: '300' });
      const deposits = await Promise.all(
        [100n, 100n, 100n].map((amount) => deposit(a.client, { mint: USDC, amount, wait: 'landed' })),
      );
      expect(new Set(deposits.map((d) => d.signature)).size).toBe(3);
      expect(deposits.every((d) => d.note.leafIndex !== undefined)).toBe(true);
      expect(await v.ledger.getBalance({ owner: funding, mint: USDC })).toBe('0');
      await finalize(v);
      // Withdrawals sign with one-time keys (issue 30): no nonce to share, and they still all land.
      const to = freshAddress();
      await Promise.all(
        deposits.slice(0, 2).map((d) => withdraw(a.client, { commitment: d.note.commitment, recipient: to })),
      );
      expect(deposits.slice(0, 2).map((d) => a.wallet.notes.get(d.note.commitment)?.state)).toEqual([
        'spent',
        'spent',
      ]);
      expect(await v.ledger.getBalance({ owner: to, mint: USDC })).toBe('200');
    } finally {
      await a.client.close();
    }
  });
});

describe('notes are spent only on the ledger’s word (16.4)', () => {
  it('a withdrawal that never landed leaves the note spending, and the next sync frees it again', async () => {
    const hold = holdingLedger('withdraw');
    const a = await newParty(v, { ledger: hold.wrap });
    try {
      const note = await fund(a, v, USDC, 500n);
      await finalize(v);
      // Held back: it never lands, so the wait is kept short.
      await withdraw(a.client, { commitment: note.commitment, recipient: freshAddress(), waitMs: 100 });
      expect(hold.held).toHaveLength(1);
      expect(a.wallet.notes.get(note.commitment)?.state).toBe('spending');
      expect(a.wallet.freeNotes(USDC)).toEqual([]);
      await syncWallet(a.client);
      expect(a.wallet.notes.get(note.commitment)?.state).toBe('free');
      expect((await getBalances(a.client))[USDC]).toMatchObject({ available: 500n });
    } finally {
      await a.client.close();
    }
  });

  it('a withdrawal that landed is spent once the ledger says so', async () => {
    const a = await newParty(v);
    try {
      const note = await fund(a, v, USDC, 300n);
      await finalize(v);
      await withdraw(a.client, { commitment: note.commitment, recipient: freshAddress() });
      expect(a.wallet.notes.get(note.commitment)?.state).toBe('spent');
    } finally {
      await a.client.close();
    }
  });

  it('a wallet file from before marked notes spent on hearsay: the next sync asks the ledger', async () => {
    const a = await newParty(v);
    const note = await fund(a, v, USDC, 400n);
    await a.client.close();
    // Rewrite the file as the old format with the note marked spent, as an old fill memo did.
    const state = JSON.parse(unseal(readText(a.path), 'pw')) as {
      version?: number;
      notes: { commitment: string; state: string }[];
    };
    delete state.version;
    state.notes.find((n) => n.commitment === note.commitment)!.state = 'spent';
    writeFileAtomic(a.path, seal(JSON.stringify(state), 'pw', FAST_SCRYPT));
    const b = await newParty(v, { path: a.path });
    try {
      expect(b.wallet.notes.get(note.commitment)?.state).toBe('spending');
      await syncWallet(b.client);
      expect(b.wallet.notes.get(note.commitment)?.state).toBe('free');
    } finally {
      await b.client.close();
    }
  });

  it('a deposit is pending, not available, until its leaf is in the tree', async () => {
    const hold = holdingLedger('deposit');
    const a = await newParty(v, { ledger: hold.wrap });
    try {
      const note = await fund(a, v, USDC, 700n, 'sent');
      expect(note.leafIndex).toBeUndefined();
      expect((await getBalances(a.client))[USDC]).toEqual({
        available: 0n,
        locked: 0n,
        pendingSettlement: 0n,
        pending: 700n,
      });
      expect(a.wallet.freeNotes(USDC)).toEqual([]);
      // It lands: the next sync finds its leaf.
      await v.ledger.sendTransaction({ transaction: hold.held.pop()! });
      await syncWallet(a.client);
      expect((await getBalances(a.client))[USDC]).toMatchObject({ available: 700n, pending: 0n });
    } finally {
      await a.client.close();
    }
  });
});

describe('a reconnect’s resync never frees the note of a live order (16.5)', () => {
  for (const [what, make] of [
    ['5001', () => venueError(5001, 503, 'ledger unavailable')],
    ['a network error', () => new NightjarError(NIGHTJAR_ERROR__NETWORK, { detail: 'connection reset' })],
  ] as const) {
    it(`GET /orders/{id} answers ${what}: the order stays open and its note reserved`, async () => {
      const a = await newParty(v);
      await fund(a, v, USDC, bidNeed());
      await finalize(v);
      const bid = await placeOrder(a.client, { symbol: 'SOL-USDC', side: 'bid', amount: '1', price: '1' });
      const stream = await createStream(a.client, { reconnectDelayMs: 1 });
      const events: StreamClientEvent[] = [];
      const resynced = new Promise<void>((r) =>
        stream.on('resync', () => {
          r();
        }),
      );
      stream.on('error', (e) => events.push(e));
      stream.on('order', (e) => events.push(e));
      try {
        failOrderLookups(a.client, make);
        v.engine.context.streamHub.failAll('test: fan-out loss');
        await resynced;
        expect(a.wallet.orders.get(bid.orderId)?.status).toBe('pending');
        expect(events.some((e) => e.type === 'order')).toBe(false);
        expect(events.some((e) => e.type === 'error')).toBe(true);
        expect(a.wallet.freeNotes(USDC)).toEqual([]);
        expect(a.wallet.balances()[USDC]).toMatchObject({ locked: bidNeed(), available: 0n });
        // The next order finds no free note (it does not reuse the live order's note: 1204).
        await expect(
          placeOrder(a.client, { symbol: 'SOL-USDC', side: 'bid', amount: '1', price: '1' }),
        ).rejects.toSatisfy((e: unknown) => isNightjarError(e, INSUFFICIENT_NOTES_CODES));
      } finally {
        await stream.close();
        await a.client.close();
      }
    });
  }
});

/** Alice bids and Bob asks 1 SOL at 150: they cross and settle. */
async function crossedPair(withStream: boolean) {
  const alice = await newParty(v);
  const bob = await newParty(v);
  await fund(alice, v, USDC, bidNeed());
  await fund(alice, v, USDC, 10n * bidNeed()); // a larger free note, for the error's "largest"
  await fund(bob, v, SOL, 2n * one);
  await finalize(v);
  const stream = withStream ? await createStream(alice.client) : undefined;
  const bid = await placeOrder(alice.client, {
    symbol: 'SOL-USDC',
    side: 'bid',
    amount: '1',
    price: '150',
    note: [...alice.wallet.notes.values()].find((n) => n.amount === bidNeed())!.commitment,
  });
  await placeOrder(bob.client, { symbol: 'SOL-USDC', side: 'ask', amount: '1', price: '150' });
  await advanceUntil(
    v,
    async () =>
      withStream
        ? alice.wallet.orders.get(bid.orderId)?.status === 'fully_filled'
        : (await getOrder(alice.client, { orderId: bid.orderId })).status === 'empty',
    'the fill',
  );
  const close = async () => {
    await stream?.close();
    await Promise.all([alice.client.close(), bob.client.close()]);
  };
  return { alice, bid, close };
}

describe('modifyOrder on an order that has just filled (16.22a)', () => {
  for (const withStream of [true, false]) {
    it(`fails with ORDER_NOT_MODIFIABLE and keeps the order filled (${withStream ? 'the stream told the wallet' : 'the wallet had not heard'})`, async () => {
      const { alice, bid, close } = await crossedPair(withStream);
      try {
        const err = await modifyOrder(alice.client, {
          orderId: bid.orderId,
          side: 'bid',
          amount: '1',
          price: '149',
        }).catch((e: unknown) => e);
        expect(isNightjarError(err, NIGHTJAR_ERROR__ORDER_NOT_MODIFIABLE)).toBe(true);
        expect(err).toMatchObject({ context: { orderId: bid.orderId, status: 'fully_filled' } });
        expect(alice.wallet.orders.get(bid.orderId)?.status).toBe('fully_filled');
        // The file says so too: a restarted bot does not think it still quotes.
        const saved = createWallet({ path: alice.path, password: 'pw', scrypt: FAST_SCRYPT });
        expect(saved.orders.get(bid.orderId)?.status).toBe('fully_filled');
        // A new order goes through on another note.
        const again = await placeOrder(alice.client, {
          symbol: 'SOL-USDC',
          side: 'bid',
          amount: '1',
          price: '1',
        });
        expect(again.status).toBe('accepted');
      } finally {
        await close();
      }
    }, 40_000);
  }
});

describe('note selection uses only notes the venue’s tree has (16.22b)', () => {
  it('prefers an older note the venue has over an exact fresh one it lacks', async () => {
    const a = await newParty(v);
    try {
      const old = await fund(a, v, USDC, 3n * bidNeed());
      await finalize(v);
      await fund(a, v, USDC, bidNeed()); // exact, but not finalized: the venue lacks it
      const r = await placeOrder(a.client, { symbol: 'SOL-USDC', side: 'bid', amount: '1', price: '150' });
      expect(r.noteCommitment).toBe(old.commitment);
    } finally {
      await a.client.close();
    }
  });

  it('waits for the venue to have a fresh note, or fails with NOTES_PENDING when the wait is over', async () => {
    const a = await newParty(v);
    try {
      const fresh = await fund(a, v, USDC, bidNeed());
      const err = await placeOrder(a.client, {
        symbol: 'SOL-USDC',
        side: 'bid',
        amount: '1',
        price: '150',
        noteWaitMs: 0,
      }).catch((e: unknown) => e);
      expect(isNightjarError(err, NIGHTJAR_ERROR__NOTES_PENDING)).toBe(true);
      expect(isNightjarError(err, INSUFFICIENT_NOTES_CODES)).toBe(true);
      expect(a.wallet.reserved.size).toBe(0);
      const placing = placeOrder(a.client, { symbol: 'SOL-USDC', side: 'bid', amount: '1', price: '150' });
      await finalize(v);
      expect((await placing).noteCommitment).toBe(fresh.commitment);
    } finally {
      await a.client.close();
    }
  });
});

describe('withdraw reports the largest free note (16.22c)', () => {
  it('names the largest free note of the mint, not 0', async () => {
    const a = await newParty(v);
    try {
      await fund(a, v, USDC, 250n);
      await fund(a, v, USDC, 900n);
      await finalize(v);
      const err = await withdraw(a.client, { mint: USDC, amount: 5_000n, recipient: freshAddress() }).catch(
        (e: unknown) => e,
      );
      expect(isNightjarError(err, INSUFFICIENT_NOTES_CODES)).toBe(true);
      expect(err).toMatchObject({ context: { mint: USDC, required: 5_000n, available: 900n } });
    } finally {
      await a.client.close();
    }
  });
});
