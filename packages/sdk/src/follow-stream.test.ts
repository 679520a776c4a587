/**
 * 17.5: the wallet follows the stream through the connection's events alone. Driven by
 * synthetic events over a fake ledger and venue that record every request: order events reach
 * the wallet before a listener hears them, a fill reads only the leaves of the shard its event
 * names (and none when its outputs are known leaves), and a reconnect re-reads the tracked orders
 * and delivers what the disconnection hid before `resync`.
 */
import { describe, expect, it } from 'vitest';
import { encryptFillMemo, OutputRole, outputInner } from '@nightjar/crypto';
import { bytesToHex, hexToBytes, type FillEvent, type OrderEvent } from '@nightjar/protocol';
import type { Client } from './client.js';
import { Listeners } from './core/stream/listeners.js';
import type { ReceivedEvent, StreamClientEvent } from './core/stream/types.js';
import { followStream } from './follow-stream.js';
import { createWallet, type TrackedOrder, type Wallet, type WalletNote } from './wallet/wallet.js';

const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const ORDER = '33'.repeat(16);
const OTHER_LEAF = (n: number) => n.toString(16).padStart(64, '0');

type Call = { method: string; params: Record<string, unknown> };

/** A ledger of shards (leaf values per shard) and note states that records every call. */
/** The reads a note state refresh makes: the chain's spent set and live locks, naming nothing. */
const STATE_READS = new Set(['getSpentNullifiers', 'getLiveLocks']);

function fakeLedger(shards: string[][]) {
  const calls: Call[] = [];
  const states = new Map<string, 'free' | 'locked' | 'spent'>();
  const methods: Record<string, (p: Record<string, unknown>) => unknown> = {
    getVault: () => ({ num_trees: shards.length }),
    getTreeRoot: ({ tree_id }) => ({
      tree_id,
      merkle_root: '00'.repeat(32),
      leaf_count: shards[tree_id as number]!.length,
      slot: 1,
    }),
    getLeaves: ({ tree_id, from, to }) => ({
      leaves: shards[tree_id as number]!.slice(from as number, to as number).map((value, i) => ({
        leaf_index: (from as number) + i,
        value,
      })),
    }),
    // The chain's spent set (one page, then caught up) and its live locks.
    getSpentNullifiers: ({ from }) => {
      const spent = [...states].filter(([, s]) => s === 'spent').map(([n]) => n);
      return { nullifiers: spent.slice(from as number), next: spent.length };
    },
    getLiveLocks: ({ from }) => {
      const locked = [...states].filter(([, s]) => s === 'locked');
      const locks = locked.map(([nullifier]) => ({ nullifier, until_slot: 9 }));
      return { locks: locks.slice(from as number), next: locks.length };
    },
    getNonce: () => null,
    getDeposits: () => ({ deposits: [] }),
    getMemos: () => ({ memos: [] }),
  };
  const ledger = new Proxy(methods, {
    get: (target, method: string) => async (params: Record<string, unknown>) => {
      calls.push({ method, params });
      const f = target[method];
      if (!f) throw new Error(`unexpected ledger call ${method}`);
      return f(params);
    },
  });
  return { ledger, calls, states };
}

/** A client with `wallet`, the fake ledger, and REST answers from `rest`; it records each path. */
function fakeClient(wallet: Wallet, ledger: unknown, rest: (path: string) => unknown = () => undefined) {
  const requests: string[] = [];
  const client = {
    hasWallet: true,
    wallet,
    ledger,
    request: async (path: string) => {
      requests.push(path);
      return rest(path);
    },
    // One engine serves every market.
    engineFor: async () => client,
    engines: async () => [{ baseUrl: 'https://venue.test', session: client }],
  } as unknown as Client;
  return { client, requests };
}

/** Follows synthetic events; `delivered` holds what a program would hear. */
function follow(client: Client) {
  const received = new Listeners<ReceivedEvent>();
  const events = followStream(client, received);
  const delivered: StreamClientEvent[] = [];
  for (const t of ['order', 'fill', 'tree', 'disconnected', 'resync', 'reconnected', 'error'] as const)
    events.on(t, (e) => delivered.push(e));
  const next = <T extends StreamClientEvent['type']>(type: T) =>
    new Promise<Extract<StreamClientEvent, { type: T }>>((resolve) => {
      const off = events.on(type, (e) => {
        off();
        resolve(e);
      });
    });
  return { received, events, delivered, next };
}

/** A wallet whose 1000-SOL deposit (shard 1, leaf 0) backs a resting ask. */
function askWallet(status: TrackedOrder['status'] = 'pending'): {
  w: Wallet;
  input: WalletNote;
  order: TrackedOrder;
} {
  const w = createWallet({ seed: new Uint8Array(32).fill(9) });
  const input = { ...w.depositNote(0, SOL, 1000n, 1).note, leafIndex: 0, state: 'free' as const };
  w.addLeaves(1, 0, [input.commitment]);
  w.addNote(input);
  const order: TrackedOrder = {
    orderId: ORDER,
    symbol: 'SOL-USDC',
    side: 'ask',
    noteCommitment: input.commitment,
    status,
    baseMint: SOL,
    quoteMint: USDC,
    filledQuantity: 0n,
  };
  w.trackOrder(order);
  return { w, input, order };
}

const orderEvent = (kind: OrderEvent['kind'], filled?: bigint): OrderEvent => ({
  channel: 'orders',
  seq: 1,
  order_id: ORDER,
  market_id: 'm',
  server_time_ms: 0,
  kind,
  ...(filled === undefined ? {} : { filled_quantity: filled }),
});

/** A fill of 600 SOL of the ask for 150 USDC (change 400 SOL, fee 1 USDC) in shard 1. */
function fill(w: Wallet, input: WalletNote) {
  const parent = BigInt('0x' + input.inner);
  const inners = [OutputRole.tradeOut, OutputRole.change, OutputRole.fee].map((r) => outputInner(parent, r));
  const trade = w.noteFor(USDC, 150n, inners[0]!, 1, 'trade');
  const change = w.noteFor(SOL, 400n, inners[1]!, 1, 'change');
  const fee = w.noteFor(USDC, 1n, inners[2]!, 1, 'trade');
  const memo = encryptFillMemo(w.keys.viewingPublicKey, {
    orderId: hexToBytes(ORDER),
    matchId: 1n,
    tradeAmount: 150n,
    changeAmount: 400n,
    feeAmount: 1n,
    outputInners: inners,
  });
  const event: FillEvent = {
    channel: 'fills',
    seq: 2,
    order_id: ORDER,
    market_id: 'm',
    match_id: '1',
    batch_id: 1n,
    outcome: 'confirmed',
    tree_id: 1,
    memo: bytesToHex(memo),
    server_time_ms: 0,
  };
  return { event, leaves: [trade.commitment, change.commitment, fee.commitment], trade, change };
}

describe('the wallet follows the stream (17.5)', () => {
  it('applies an order event to the tracked order before a listener hears it; an ended order has its note read', async () => {
    const { w, input, order } = askWallet();
    const { ledger, calls, states } = fakeLedger([[], [input.commitment]]);
    const { client } = fakeClient(w, ledger);
    const f = follow(client);
    const seenByListener: string[] = [];
    f.events.on('order', () => seenByListener.push(`${order.status}:${order.filledQuantity}`));
    f.received.emit({ type: 'order', event: orderEvent('partially_filled', 300n) });
    expect(seenByListener).toEqual(['pending:300']);
    states.set(input.nullifier, 'spent');
    f.received.emit({ type: 'order', event: orderEvent('fully_filled', 1000n) });
    f.received.emit({ type: 'order', event: orderEvent('pending_settlement') }); // after its last: ignored
    expect(order.status).toBe('fully_filled');
    await new Promise((r) => setImmediate(r));
    expect(calls.every((c) => STATE_READS.has(c.method))).toBe(true);
    expect(w.notes.get(input.commitment)?.state).toBe('spent');
    expect(f.delivered.map((e) => e.type === 'order' && [e.event.kind, e.source])).toEqual([
      ['partially_filled', 'stream'],
      ['fully_filled', 'stream'],
      ['pending_settlement', 'stream'],
    ]);
  });

  it('a fill takes the order’s note out of use before the program hears of it, memo or not', () => {
    const { w, input } = askWallet();
    const { ledger } = fakeLedger([[], [input.commitment]]);
    const { client } = fakeClient(w, ledger);
    const f = follow(client);
    const stateWhenHeard: (string | undefined)[] = [];
    f.events.on('order', () => stateWhenHeard.push(w.notes.get(input.commitment)?.state));
    // A program that stops at this event (the quickstart does) must not be offered the note again.
    f.received.emit({ type: 'order', event: orderEvent('fully_filled', 1000n) });
    expect(stateWhenHeard).toEqual(['spending']);
    expect(w.freeNotes(SOL).map((n) => n.commitment)).not.toContain(input.commitment);
  });

  it('a fill reads only the leaves it lacks of the shard its event names (counted)', async () => {
    const { w, input } = askWallet('pending_settlement');
    const f0 = fill(w, input);
    // Shard 0 has leaves the wallet never read; shard 1 has two strangers' leaves before the outputs.
    const shard0 = [OTHER_LEAF(1), OTHER_LEAF(2), OTHER_LEAF(3)];
    const shard1 = [input.commitment, OTHER_LEAF(4), OTHER_LEAF(5), ...f0.leaves];
    const { ledger, calls } = fakeLedger([shard0, shard1]);
    const { client, requests } = fakeClient(w, ledger);
    const f = follow(client);
    const heard = f.next('fill');
    f.received.emit({ type: 'fill', event: f0.event });
    expect(await heard).toMatchObject({ type: 'fill', stored: true });
    expect(calls.filter((c) => !STATE_READS.has(c.method))).toEqual([
      { method: 'getTreeRoot', params: { tree_id: 1 } },
      { method: 'getLeaves', params: { tree_id: 1, from: 1, to: 6 } },
    ]);
    expect(calls.some((c) => STATE_READS.has(c.method))).toBe(true);
    expect(requests).toEqual([]);
    expect(w.leafCounts.get(0)).toBeUndefined();
    expect(w.notes.get(f0.trade.commitment)).toMatchObject({ amount: 150n, mint: USDC, leafIndex: 3 });
    expect(w.notes.get(f0.change.commitment)).toMatchObject({ amount: 400n, mint: SOL, leafIndex: 4 });
  });

  it('a fill whose outputs are known leaves reads no leaf at all', async () => {
    const { w, input } = askWallet('pending_settlement');
    const f0 = fill(w, input);
    w.addLeaves(1, 1, f0.leaves);
    const { ledger, calls } = fakeLedger([[], [input.commitment, ...f0.leaves]]);
    const { client } = fakeClient(w, ledger);
    const f = follow(client);
    const heard = f.next('fill');
    f.received.emit({ type: 'fill', event: f0.event });
    expect(await heard).toMatchObject({ stored: true });
    expect(calls.every((c) => STATE_READS.has(c.method))).toBe(true);
  });

  it('a reconnect re-reads the tracked orders, delivers what they missed, syncs, then delivers resync', async () => {
    const { w, input, order } = askWallet();
    const { ledger, calls } = fakeLedger([[input.commitment]]);
    const lookup = {
      order_id: ORDER,
      symbol: 'SOL-USDC',
      side: 'ask',
      order_type: 'limit',
      status: 'cancelled',
      amount: 1000n,
      filled_quantity: 0n,
      price_limit: 1n,
      expiry_slot: 100n,
      arrival_slot: 1n,
    };
    const { client, requests } = fakeClient(w, ledger, (path) => (path === '/instruments' ? [] : lookup));
    const f = follow(client);
    const resynced = f.next('resync');
    f.received.emit({ type: 'disconnected', reason: 'seq_gap' });
    f.received.emit({ type: 'reconnected', reason: 'seq_gap', disconnectedAt: Date.now() });
    f.received.emit({
      type: 'tree',
      event: {
        channel: 'tree',
        seq: 1,
        tree_id: 0,
        leaf_index: 0n,
        value: input.commitment,
        merkle_root: '00'.repeat(32),
        slot: 1n,
      },
    });
    await resynced;
    expect(order.status).toBe('cancelled');
    expect(requests).toContain(`/orders/${ORDER}`);
    expect(calls.some((c) => c.method === 'getMemos')).toBe(true);
    expect(
      f.delivered.map((e) => (e.type === 'order' ? `order ${e.event.kind} ${e.source}` : e.type)),
    ).toEqual(['disconnected', 'tree', 'order cancelled resync', 'resync', 'reconnected']);
  });
});
