/**
 * End to end through the SDK only, against a real engine (HTTPS, attestation, intake with REAL
 * VALID_INPUT verification through the engine's batcher) and the in-process dev ledger (manual
 * clock). Every proof is made by the SDK's own path (`NoteProver` worker threads). The harness's
 * ledger accepts every proof (its verifier is stubbed), so the clients' ledger here is the same
 * ledger behind a wrapper that checks each withdrawal's VALID_SPEND proof with the real
 * verification key before forwarding it. The test reaches into the venue only to move the
 * chain's clock (and, in the reconnect test, to make the engine drop every socket).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadVerificationKey, NoteProver } from '@nightjar/circuits';
import {
  COMMITMENT_LAG,
  createGroth16Verifier,
  type LedgerClient,
  type LedgerProofVerifier,
  type Transaction,
} from '@nightjar/ledger';
import { feeOn, mintToFields, parseAddress, requiredCollateral, type Instrument } from '@nightjar/protocol';
import {
  ConflictError,
  InsufficientNotesError,
  createClient,
  createStream,
  createWallet,
  deposit,
  getBalances,
  getOrder,
  placeOrder,
  cancelOrder,
  syncWallet,
  withdraw,
  type Client,
  type CreateStreamParameters,
  type StreamClient,
  type StreamClientEvent,
  type Wallet,
} from '../src/index.js';
import { pins, startTestVenue, type TestVenue } from './helpers.js';

const FAST_SCRYPT = { N: 1024, r: 8, p: 1 };
const SYMBOL = 'SOL-USDC';

let v: TestVenue;
let prover: NoteProver;
let dir: string;
let inst: Instrument;
let verifier: LedgerProofVerifier;
/** Every withdrawal the clients sent, and whether its VALID_SPEND proof verified. */
const withdrawals: boolean[] = [];

/** The venue's ledger, checking each withdrawal's proof for real on the way. */
function checkingLedger(ledger: LedgerClient): LedgerClient {
  return new Proxy(ledger, {
    get(target, prop) {
      if (prop === 'sendTransaction')
        return async (params: { transaction: Transaction }) => {
          const { name, args } = params.transaction.instruction;
          if (name === 'withdraw') {
            const a = args as Record<string, string>;
            const mint = mintToFields(parseAddress(a.mint)!);
            const recipient = mintToFields(parseAddress(a.recipient)!);
            const inputs = [
              BigInt('0x' + a.merkle_root),
              BigInt('0x' + a.nullifier),
              mint.mintLo,
              mint.mintHi,
              BigInt(a.amount!),
              recipient.mintHi,
              recipient.mintLo,
            ];
            withdrawals.push(await verifier.verify('valid_spend', Buffer.from(a.proof!, 'hex'), inputs));
          }
          return target.sendTransaction(params);
        };
      const value = Reflect.get(target, prop) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'nightjar-sdk-e2e-'));
  prover = new NoteProver({ workers: 2, singleThread: true });
  verifier = await createGroth16Verifier({
    valid_input: await loadVerificationKey('valid_input'),
    valid_spend: await loadVerificationKey('valid_spend'),
  });
  v = await startTestVenue({
    settle: true,
    verifyInputProof: undefined,
    validInputKey: await loadVerificationKey('valid_input'),
    verifierWorkers: 1,
  });
}, 60_000);

afterAll(async () => {
  await prover?.close();
  await v?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Party {
  wallet: Wallet;
  client: Client;
  stream: StreamClient;
  events: StreamClientEvent[];
  credentials: { api_key: string; api_secret: string; passphrase: string };
}

async function connect(wallet: Wallet, credentials: Party['credentials'], stateDir: string): Promise<Client> {
  const p = pins(v);
  return createClient({
    baseUrl: v.engine.url,
    pinnedRoot: p.rootCaDer,
    composeHash: p.composeHash,
    ledger: checkingLedger(v.ledger),
    credentials,
    wallet,
    stateDir,
    prover,
  });
}

async function party(name: string, streamOptions: CreateStreamParameters = {}): Promise<Party> {
  const { credentials } = await v.newAccount();
  const wallet = createWallet({
    path: join(dir, `${name}.wallet`),
    password: `pw-${name}`,
    scrypt: FAST_SCRYPT,
  });
  const client = await connect(wallet, credentials, join(dir, name));
  const stream = await createStream(client, { channels: ['orders', 'fills'], ...streamOptions });
  const events: StreamClientEvent[] = [];
  stream.on('order', (e) => events.push(e));
  stream.on('fill', (e) => events.push(e));
  stream.on('resync', (e) => events.push(e));
  return { wallet, client, stream, events, credentials };
}

/** Lets the chain finalize what landed and the engine's mirror apply it. */
async function finalize(): Promise<void> {
  await v.advance(COMMITMENT_LAG.finalized + 1);
  await v.engine.context.trees.checkAgainstChain();
}

async function settleUntil(condition: () => boolean, what: string, maxMs = 20_000): Promise<void> {
  const deadline = performance.now() + maxMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await v.advance(1);
    await new Promise((r) => setTimeout(r, 15));
  }
}

const kinds = (p: Party, orderId: string) =>
  p.events.flatMap((e) => (e.type === 'order' && e.event.order_id === orderId ? [e.event.kind] : []));
const storedFills = (p: Party, orderId: string) =>
  p.events.filter((e) => e.type === 'fill' && e.event.order_id === orderId && e.stored).length;

const unspent = (w: Wallet) =>
  w
    .unspentNotes()
    .map((n) => `${n.mint}:${n.amount}:${n.commitment}`)
    .sort();

describe('SDK end to end', () => {
  it('two wallets deposit, cross (a partial fill, then its continuation), see their fills, derive balances, recover from the seed and withdraw', async () => {
    const alice = await party('alice');
    const bob = await party('bob');
    inst = await alice.client.instrument(SYMBOL);
    const SOL = inst.base_mint;
    const USDC = inst.quote_mint;
    const ONE = 10n ** BigInt(inst.base_decimals);
    const price = 150n * 10n ** BigInt(inst.quote_decimals); // price_limit for "150" when price_scale = 10^base_decimals
    expect(inst.price_scale).toBe(ONE);

    // Funding accounts (the wallets' own ledger accounts) get tokens; then the SDK deposits.
    const bidCollateral = requiredCollateral('bid', 3n * ONE, price, inst);
    const ask1Collateral = requiredCollateral('ask', ONE, 0n, inst);
    const ask2Collateral = requiredCollateral('ask', 2n * ONE, 0n, inst);
    await v.ledger.requestAirdrop({
      owner: alice.wallet.keys.funding.address,
      mint: USDC,
      amount: bidCollateral.toString(),
    });
    await v.ledger.requestAirdrop({
      owner: bob.wallet.keys.funding.address,
      mint: SOL,
      amount: (ask1Collateral + ask2Collateral).toString(),
    });
    // Decimal strings in human units, converted exactly.
    expect(bidCollateral).toBe(450_450_000n);
    const a = await deposit(alice.client, { mint: USDC, amount: '450.45' });
    expect(a.note.amount).toBe(bidCollateral);
    await deposit(bob.client, { mint: SOL, amount: ask1Collateral });
    await deposit(bob.client, { mint: SOL, amount: ask2Collateral });
    await finalize();

    // Alice bids 3 SOL at 150; Bob asks 1 SOL: a partial fill of Alice's order.
    const bid = await placeOrder(alice.client, { symbol: SYMBOL, side: 'bid', amount: '3', price: '150' });
    expect(bid.body.price_limit).toBe(price);
    expect(bid.body.collateral_amount).toBeUndefined(); // exact note
    const ask1 = await placeOrder(bob.client, { symbol: SYMBOL, side: 'ask', amount: '1', price: '150' });
    expect(ask1.noteCommitment).not.toBe(bid.noteCommitment);
    await settleUntil(
      () =>
        kinds(alice, bid.orderId).includes('partially_filled') &&
        storedFills(alice, bid.orderId) === 1 &&
        kinds(bob, ask1.orderId).includes('fully_filled') &&
        storedFills(bob, ask1.orderId) === 1,
      'the partial fill',
    );
    expect((await getOrder(alice.client, { orderId: bid.orderId })).filled_quantity).toBe(ONE);

    // Balances derived client-side, to the unit.
    const quote1 = (ONE * price) / inst.price_scale;
    const aliceChange = bidCollateral - quote1 - feeOn(quote1, inst.fee_bps);
    let ab = await getBalances(alice.client);
    expect(ab[SOL]).toEqual({ available: ONE, locked: 0n, pendingSettlement: 0n, pending: 0n });
    expect(ab[USDC]).toEqual({ available: 0n, locked: aliceChange, pendingSettlement: 0n, pending: 0n });
    let bb = await getBalances(bob.client);
    expect(bb[USDC]).toEqual({ available: quote1, locked: 0n, pendingSettlement: 0n, pending: 0n });
    expect(bb[SOL]).toEqual({ available: ask2Collateral, locked: 0n, pendingSettlement: 0n, pending: 0n });

    // The continuation: Bob asks 2 SOL; Alice's re-locked remainder fills completely.
    const ask2 = await placeOrder(bob.client, { symbol: SYMBOL, side: 'ask', amount: '2', price: '150' });
    await settleUntil(
      () =>
        kinds(alice, bid.orderId).includes('fully_filled') &&
        storedFills(alice, bid.orderId) === 2 &&
        kinds(bob, ask2.orderId).includes('fully_filled') &&
        storedFills(bob, ask2.orderId) === 1,
      'the continuation',
    );
    expect(kinds(alice, bid.orderId)).toEqual([
      'pending_settlement',
      'partially_filled',
      'pending_settlement',
      'fully_filled',
    ]);
    const quote2 = (2n * ONE * price) / inst.price_scale;
    expect(aliceChange).toBe(quote2 + feeOn(quote2, inst.fee_bps)); // nothing left over
    ab = await getBalances(alice.client);
    expect(ab[SOL]).toEqual({ available: 3n * ONE, locked: 0n, pendingSettlement: 0n, pending: 0n });
    expect(ab[USDC] ?? { available: 0n, locked: 0n, pendingSettlement: 0n, pending: 0n }).toEqual({
      available: 0n,
      locked: 0n,
      pendingSettlement: 0n,
      pending: 0n,
    });
    bb = await getBalances(bob.client);
    expect(bb[USDC]).toEqual({ available: quote1 + quote2, locked: 0n, pendingSettlement: 0n, pending: 0n });
    expect(bb[SOL]?.available ?? 0n).toBe(0n);

    // A wallet recovered from Alice's seed alone (no file, a fresh client) shows the same notes.
    for (const p of [alice, bob]) {
      const recovered = createWallet({ seed: p.wallet.seed });
      const rc = await connect(recovered, p.credentials, join(dir, `recovered-${p.wallet.ownerCommitment}`));
      try {
        await syncWallet(rc);
        expect(unspent(recovered)).toEqual(unspent(p.wallet));
        expect(recovered.balances()).toEqual(p.wallet.balances());
      } finally {
        await rc.close();
      }
    }

    // The encrypted wallet file reopens with its password to the same notes.
    const reopened = createWallet({
      path: join(dir, 'alice.wallet'),
      password: 'pw-alice',
      scrypt: FAST_SCRYPT,
    });
    expect(unspent(reopened)).toEqual(unspent(alice.wallet));

    // Withdrawals pay out on the ledger.
    await finalize();
    for (const n of alice.wallet.unspentNotes()) await withdraw(alice.client, { commitment: n.commitment });
    for (const n of bob.wallet.unspentNotes()) await withdraw(bob.client, { commitment: n.commitment });
    expect(await v.ledger.getBalance({ owner: alice.wallet.keys.funding.address, mint: SOL })).toBe(
      (3n * ONE).toString(),
    );
    expect(await v.ledger.getBalance({ owner: bob.wallet.keys.funding.address, mint: USDC })).toBe(
      (quote1 + quote2).toString(),
    );
    ab = await getBalances(alice.client);
    expect(ab[SOL]?.available ?? 0n).toBe(0n);
    // Four withdrawals (two notes each), every VALID_SPEND proof genuine.
    expect(withdrawals).toEqual([true, true, true, true]);

    await Promise.all([alice.stream.close(), bob.stream.close()]);
    await Promise.all([alice.client.close(), bob.client.close()]);
  }, 90_000);

  it('reconnect: the engine drops every socket mid-stream, the client resyncs and no order event is lost from its view', async () => {
    // Alice's client reconnects only once the match has settled, so it misses every event of it.
    let letAliceBack!: () => void;
    const aliceMayReconnect = new Promise<void>((r) => (letAliceBack = r));
    const alice = await party('alice-rc', { beforeReconnect: () => aliceMayReconnect });
    const bob = await party('bob-rc');
    const SOL = inst.base_mint;
    const USDC = inst.quote_mint;
    const ONE = 10n ** BigInt(inst.base_decimals);
    const price = 150n * 10n ** BigInt(inst.quote_decimals);
    const need = requiredCollateral('bid', ONE, price, inst);
    await v.ledger.requestAirdrop({
      owner: alice.wallet.keys.funding.address,
      mint: USDC,
      amount: need.toString(),
    });
    await v.ledger.requestAirdrop({
      owner: bob.wallet.keys.funding.address,
      mint: SOL,
      amount: (2n * ONE).toString(),
    });
    await deposit(alice.client, { mint: USDC, amount: need });
    await deposit(bob.client, { mint: SOL, amount: 2n * ONE }); // larger: collateral_amount and change
    await finalize();
    const bid = await placeOrder(alice.client, { symbol: SYMBOL, side: 'bid', amount: '1', price: '150' });
    const ask = await placeOrder(bob.client, { symbol: SYMBOL, side: 'ask', amount: '1', price: '150' });
    expect(ask.body.collateral_amount).toBe(2n * ONE);

    v.engine.context.streamHub.failAll('test: fan-out loss');
    // Settle while Alice is disconnected (Bob reconnects at once and hears everything).
    await settleUntil(() => kinds(bob, ask.orderId).includes('fully_filled'), 'the match', 20_000);
    expect(kinds(alice, bid.orderId)).toEqual([]);
    letAliceBack();
    await settleUntil(() => alice.events.some((e) => e.type === 'resync'), 'the resync', 20_000);
    const resync = alice.events.find((e) => e.type === 'resync');
    expect(resync).toMatchObject({ type: 'resync', reason: 'events_missed' });
    expect(kinds(alice, bid.orderId)).toEqual(['fully_filled']);
    expect(alice.events.find((e) => e.type === 'order')).toMatchObject({ source: 'resync' });
    expect(alice.wallet.orders.get(bid.orderId)?.status).toBe('fully_filled');
    // The fill's note came back from the ledger's memos during the resync.
    expect(alice.wallet.balances()[SOL]).toEqual({
      available: ONE,
      locked: 0n,
      pendingSettlement: 0n,
      pending: 0n,
    });
    expect(alice.stream.reconnects).toBe(1);

    await Promise.all([alice.stream.close(), bob.stream.close()]);
    await Promise.all([alice.client.close(), bob.client.close()]);
  }, 60_000);

  it('nonce durability: a restarted client continues its nonces; a client that forgot them is refused', async () => {
    const { credentials } = await v.newAccount();
    const stateDir = join(dir, 'nonces');
    const file = { path: join(dir, 'nonces.wallet'), password: 'pw', scrypt: FAST_SCRYPT };
    const w1 = createWallet(file);
    const c1 = await connect(w1, credentials, stateDir);
    const USDC = inst.quote_mint;
    await v.ledger.requestAirdrop({ owner: w1.keys.funding.address, mint: USDC, amount: '1000000000' });
    await deposit(c1, { mint: USDC, amount: '200' });
    await finalize();
    const o1 = await placeOrder(c1, { symbol: SYMBOL, side: 'bid', amount: '1', price: '100' });
    expect(o1.body.collateral_amount).toBe(200_000_000n); // a larger note: change comes back
    await cancelOrder(c1, { orderId: o1.orderId });
    expect(o1.body.arrival_nonce).toBe(1n);
    await c1.close();

    // Restart: the same state directory and the same (reopened) wallet file.
    const w2 = createWallet(file);
    const c2 = await connect(w2, credentials, stateDir);
    const o2 = await placeOrder(c2, { symbol: SYMBOL, side: 'bid', amount: '1', price: '100' });
    expect(o2.body.arrival_nonce).toBe(2n);
    expect((await cancelOrder(c2, { orderId: o2.orderId })).status).toBe('cancelled');
    await c2.close();

    // A client that lost its nonce file reuses arrival nonce 1 and is refused with 1202.
    const w3 = createWallet(file);
    const c3 = await connect(w3, credentials, join(dir, 'amnesiac'));
    const err = await placeOrder(c3, { symbol: SYMBOL, side: 'bid', amount: '1', price: '100' }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).code).toBe(1202);
    await c3.close();
  }, 60_000);

  it('orders placed at once prove in parallel, each on its own note, and reach the venue in nonce order', async () => {
    const { credentials } = await v.newAccount();
    const w = createWallet({ seed: new Uint8Array(32).fill(11) });
    const c = await connect(w, credentials, join(dir, 'parallel'));
    try {
      const USDC = inst.quote_mint;
      await v.ledger.requestAirdrop({ owner: w.keys.funding.address, mint: USDC, amount: '1000000000' });
      for (const amount of ['101', '102', '103']) await deposit(c, { mint: USDC, amount });
      await finalize();
      const placed = await Promise.all(
        ['1', '1', '1'].map((amount) => placeOrder(c, { symbol: SYMBOL, side: 'bid', amount, price: '100' })),
      );
      expect(new Set(placed.map((p) => p.noteCommitment)).size).toBe(3);
      expect(placed.map((p) => p.body.arrival_nonce).sort()).toEqual([1n, 2n, 3n]);
      await expect(
        placeOrder(c, { symbol: SYMBOL, side: 'bid', amount: '1', price: '100' }),
      ).rejects.toBeInstanceOf(InsufficientNotesError);
      await Promise.all(placed.map((p) => cancelOrder(c, { orderId: p.orderId })));
    } finally {
      await c.close();
    }
  }, 60_000);

  it('a wallet that only deposited, rebuilt from its seed alone, finds every deposit note on the ledger', async () => {
    const carol = await party('carol');
    const info = await carol.client.instrument(SYMBOL);
    const { base_mint: SOL, quote_mint: USDC } = info;
    await v.ledger.requestAirdrop({ owner: carol.wallet.keys.funding.address, mint: SOL, amount: '7000' });
    await v.ledger.requestAirdrop({ owner: carol.wallet.keys.funding.address, mint: USDC, amount: '900' });
    const made = [
      await deposit(carol.client, { mint: SOL, amount: 4000n }),
      await deposit(carol.client, { mint: USDC, amount: 900n }),
      await deposit(carol.client, { mint: SOL, amount: 3000n }),
    ];
    await finalize();
    await carol.stream.close();
    await carol.client.close();

    const recovered = createWallet({ seed: carol.wallet.seed });
    const rc = await connect(recovered, carol.credentials, join(dir, 'carol-recovered'));
    try {
      await syncWallet(rc);
      const notes = recovered.unspentNotes();
      expect(notes.map((n) => n.commitment).sort()).toEqual(made.map((d) => d.note.commitment).sort());
      expect(notes.every((n) => n.state === 'free' && n.leafIndex !== undefined)).toBe(true);
      expect(recovered.balances()[SOL]?.available).toBe(7000n);
      expect(recovered.balances()[USDC]?.available).toBe(900n);
      // A deposit made after recovery takes a fresh index: the seed never reuses a note secret.
      await v.ledger.requestAirdrop({ owner: recovered.keys.funding.address, mint: SOL, amount: '5' });
      const next = await deposit(rc, { mint: SOL, amount: 5n });
      expect(next.index).toBe(3);
    } finally {
      await rc.close();
    }
  }, 60_000);
});
