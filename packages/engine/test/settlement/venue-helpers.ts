/**
 * Helpers of the in-process settlement tests: a party (account, stream subscribed to its orders
 * and fills, trader), placing over HTTPS, stepping the manual clock until a condition holds, and
 * reading what a client can see (events, note status by nullifier, solvency).
 */
import { expect } from 'vitest';
import { deriveNote } from '@nightjar/crypto';
import { randomBytes } from 'node:crypto';
import { addressToBase58, ed25519PublicKey, fieldToHex, parseAddress } from '@nightjar/protocol';
import { chainInfo, signTransaction, type Transaction } from '@nightjar/ledger';
import type { Note, TestVenue, Trader } from '@nightjar/testkit';
import { StreamClient, type Frame } from '../stream/stream-client.js';

export const ONE_SOL = 1_000_000_000n;
export const PRICE = 150_000_000n;

export interface Party {
  trader: Trader;
  token: string;
  stream: StreamClient;
}

export async function party(v: TestVenue): Promise<Party> {
  const { token } = await v.newAccount();
  const stream = await StreamClient.login(v, token);
  await stream.request({ op: 'subscribe', channels: ['orders', 'fills'] });
  return { trader: v.trader(), token, stream };
}

export async function place(v: TestVenue, p: Party, note: Note, fields: Parameters<Trader['order']>[1] = {}) {
  const body = p.trader.order(note, fields);
  const r = await v.client.send('/orders', { token: p.token, body });
  expect(r.status, r.text).toBe(202);
  return body.order_id;
}

/** Moves the chain one slot at a time until `condition` holds (the engine settles in between). */
export async function settleUntil(
  v: TestVenue,
  condition: () => boolean,
  what: string,
  maxMs = 15_000,
): Promise<void> {
  const deadline = performance.now() + maxMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await v.advance(1);
    await new Promise((r) => setTimeout(r, 15));
  }
}

export const orderEvents = (p: Party, orderId: string): Frame[] =>
  p.stream.events('orders').filter((f) => f.order_id === orderId);
export const kinds = (p: Party, orderId: string) => orderEvents(p, orderId).map((f) => f.kind as string);
export const has = (p: Party, orderId: string, kind: string) => () => kinds(p, orderId).includes(kind);

export async function noteState(v: TestVenue, nullifier: string) {
  return (await v.ledger.getNoteStatus({ nullifier })).state;
}

export function nullifierOf(note: Note): string {
  const d = deriveNote({
    mint: parseAddress(note.mint)!,
    amount: note.amount,
    ownerCommitment: BigInt('0x' + note.ownerCommitment),
    noteInnerHash: BigInt('0x' + note.innerHash),
  });
  return fieldToHex(d.nullifier);
}

/**
 * A signed withdrawal of the whole note to a fresh wallet, against the engine's mirror root (the
 * test ledger accepts any proof): how a trader spends a note outside the venue.
 */
export async function withdrawal(v: TestVenue, note: Note): Promise<Transaction> {
  const wallet = Uint8Array.from(randomBytes(32));
  // A fresh key: its one transaction carries the work (28.4).
  return signTransaction(
    wallet,
    1n,
    {
      name: 'withdraw',
      args: {
        tree_id: note.treeId,
        merkle_root: fieldToHex(v.engine.context.trees.shard(note.treeId)!.root),
        nullifier: nullifierOf(note),
        mint: note.mint,
        amount: note.amount.toString(),
        recipient: addressToBase58(ed25519PublicKey(wallet)),
        proof: '11'.repeat(256),
      },
    },
    await chainInfo(v.ledger),
    { fresh: true },
  );
}

/** Spends `note` on the ledger now (a withdrawal) and checks that it landed. */
export async function spendNote(v: TestVenue, note: Note): Promise<void> {
  const tx = await withdrawal(v, note);
  await v.ledger.sendTransaction({ transaction: tx });
  expect((await v.ledger.getTransaction({ signature: tx.signature }))?.err).toBeNull();
}

export async function expectSolvent(v: TestVenue) {
  const s = await v.ledger.getSolvency();
  for (const m of s.mints) expect(m.vault_balance).toBe(m.outstanding_note_value);
}

/**
 * An engine clock that is the ledger's slot (400 ms a slot, from `Date.now()` at creation), so
 * the time of an event names the slot it happened in. `venue` is read at each call (the clock is
 * made before the venue starts).
 */
export function slotClock(venue: () => TestVenue | undefined) {
  const SLOT_MS = 400;
  const startedAt = Date.now();
  return {
    now: (): number => startedAt + (venue()?.ledger.clock.current ?? 0) * SLOT_MS,
    /** Slots from an order's match to its lock's expiry, as its `pending_settlement` event tells. */
    lockSlots(p: Party, orderId: string): bigint {
      const pending = orderEvents(p, orderId).find((f) => f.kind === 'pending_settlement')!;
      const matchSlot = (Number(pending.server_time_ms) - startedAt) / SLOT_MS;
      return BigInt(pending.lock_expiry_slot as string | number) - BigInt(matchSlot);
    },
  };
}
