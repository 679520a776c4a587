import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encryptFillMemo, OutputRole, outputInner, type FillMemo } from '@nightjar/crypto';
import { hexToBytes, bytesToHex } from '@nightjar/protocol';
import { deriveWalletKeys } from './keys.js';
import { createWallet, type Wallet } from './wallet.js';
import { seal, unseal } from './keystore.js';
import { NIGHTJAR_ERROR__WALLET_DECRYPT } from '../core/errors/index.js';

const FAST = { N: 1024, r: 8, p: 1 };
const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

/** Runs `test` with a wallet file path in a fresh directory, removed after. */
function inWalletDir(test: (path: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'wallet-'));
  try {
    test(join(dir, 'w.json'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Tracks a resting SOL-USDC bid with `filled` filled; returns its id. */
function trackBid(w: Wallet, filled: bigint): string {
  const orderId = 'ab'.repeat(16);
  w.trackOrder({
    orderId,
    symbol: 'SOL-USDC',
    side: 'bid',
    noteCommitment: '00'.repeat(32),
    status: 'pending',
    baseMint: SOL,
    quoteMint: USDC,
    filledQuantity: filled,
  });
  return orderId;
}

const sealMemo = (w: Wallet, memo: FillMemo) => bytesToHex(encryptFillMemo(w.keys.viewingPublicKey, memo));

describe('wallet', () => {
  it('derives the same keys from the same seed, different ones from another', () => {
    const seed = new Uint8Array(32).fill(1);
    const a = deriveWalletKeys(seed);
    const b = deriveWalletKeys(Uint8Array.from(seed));
    expect(a.ownerCommitment).toBe(b.ownerCommitment);
    expect(a.trading.publicKey).toBe(b.trading.publicKey);
    expect(a.funding.address).toBe(b.funding.address);
    expect(bytesToHex(a.viewingPublicKey)).toBe(bytesToHex(b.viewingPublicKey));
    expect(deriveWalletKeys(new Uint8Array(32).fill(2)).ownerCommitment).not.toBe(a.ownerCommitment);
  });

  it('is encrypted at rest: the file holds no seed, a wrong password fails', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wallet-'));
    try {
      const path = join(dir, 'w.json');
      const w = createWallet({ path, password: 'correct horse', scrypt: FAST });
      const raw = readFileSync(path, 'utf8');
      expect(raw).not.toContain(bytesToHex(w.seed));
      expect(() => createWallet({ path, password: 'wrong', scrypt: FAST })).toThrow(
        expect.objectContaining({ code: NIGHTJAR_ERROR__WALLET_DECRYPT }),
      );
      expect(bytesToHex(createWallet({ path, password: 'correct horse', scrypt: FAST }).seed)).toBe(
        bytesToHex(w.seed),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps an order's ticket and its fills in the wallet file", () =>
    inWalletDir((path) => {
      const w = createWallet({ path, password: 'pw', scrypt: FAST });
      const orderId = trackBid(w, 0n);
      const ticket = { type: 'limit' as const, amount: '1.5', price: '100', createdAt: 1, expiresAt: 2 };
      expect(w.setTicket(orderId, ticket)).toBe(true);
      expect(w.setTicket('cd'.repeat(16), ticket)).toBe(false);
      const fill = w.trackFill(orderId, '7', 3);
      expect(w.trackFill(orderId, '7')).toBe(fill);
      Object.assign(fill, {
        size: 5n,
        fee: 1n,
        settlement: { batchId: '4', stage: 'done', outcome: 'settled' },
      });
      w.save();
      const again = createWallet({ path, password: 'pw', scrypt: FAST });
      expect(again.orders.get(orderId)?.ticket).toEqual(ticket);
      expect([...again.fills.values()]).toEqual([fill]);
    }));

  it("loads an older wallet file's `open` order as `pending` (the spec's word)", () =>
    inWalletDir((path) => {
      const w = createWallet({ path, password: 'pw', scrypt: FAST });
      const orderId = trackBid(w, 3n);
      w.save();
      // Rewrite the file as a wallet before issue 32 wrote it: `open` for a resting order.
      const saved = JSON.parse(unseal(readFileSync(path, 'utf8'), 'pw')) as { orders: { status: string }[] };
      saved.orders[0]!.status = 'open';
      writeFileSync(path, seal(JSON.stringify(saved), 'pw', FAST));
      const again = createWallet({ path, password: 'pw', scrypt: FAST });
      expect(again.orders.get(orderId)).toMatchObject({ status: 'pending', filledQuantity: 3n });
      expect(again.isLive(again.orders.get(orderId)!)).toBe(true);
    }));

  it('stores a memo only once every output is a leaf; skips the fee note; ignores foreign memos', () => {
    const w = createWallet({ seed: new Uint8Array(32).fill(3) });
    const input = w.depositNote(0, USDC, 9n).note;
    w.addLeaves(0, 0, [input.commitment]);
    w.addNote({ ...input, leafIndex: 0, state: 'free' });
    const parent = BigInt('0x' + input.inner);
    const trade = outputInner(parent, OutputRole.tradeOut);
    const fee = outputInner(parent, OutputRole.fee);
    const memo = sealMemo(w, {
      orderId: hexToBytes('11'.repeat(16)),
      matchId: 1n,
      tradeAmount: 5n,
      changeAmount: 0n,
      feeAmount: 1n,
      outputInners: [trade, fee],
    });
    expect(w.ingestMemo(memo, [SOL, USDC]).status).toBe('unverified');
    const tradeNote = w.noteFor(SOL, 5n, trade, 0, 'trade');
    w.addLeaves(0, 1, [tradeNote.commitment]);
    const r = w.ingestMemo(memo, [SOL, USDC]);
    expect(r.status).toBe('stored');
    expect(w.unspentNotes().filter((n) => n.origin === 'trade')).toHaveLength(1);
    expect(w.notes.get(tradeNote.commitment)).toMatchObject({ amount: 5n, leafIndex: 1, origin: 'trade' });
    expect(w.ingestMemo(memo, [SOL, USDC]).status).toBe('duplicate');
    const other = createWallet({ seed: new Uint8Array(32).fill(4) });
    expect(other.ingestMemo(memo, [SOL, USDC]).status).toBe('not_ours');
  });

  it('a stored fill takes the note that backed the order out of use at once (spending), and the change note backs the rest', () => {
    const w = createWallet({ seed: new Uint8Array(32).fill(5) });
    const input = w.depositNote(0, USDC, 1000n).note;
    w.addLeaves(0, 0, [input.commitment]);
    w.addNote({ ...input, leafIndex: 0, state: 'free' });
    w.trackOrder({
      orderId: '22'.repeat(16),
      symbol: 'SOL-USDC',
      side: 'bid',
      noteCommitment: input.commitment,
      status: 'pending_settlement',
      baseMint: SOL,
      quoteMint: USDC,
      filledQuantity: 0n,
    });
    const parent = BigInt('0x' + input.inner);
    const trade = outputInner(parent, OutputRole.tradeOut);
    const change = outputInner(parent, OutputRole.change);
    w.addLeaves(0, 1, [
      w.noteFor(SOL, 2n, trade, 0, 'trade').commitment,
      w.noteFor(USDC, 600n, change, 0, 'change').commitment,
    ]);
    const memo = bytesToHex(
      encryptFillMemo(w.keys.viewingPublicKey, {
        orderId: hexToBytes('22'.repeat(16)),
        matchId: 7n,
        tradeAmount: 2n,
        changeAmount: 600n,
        feeAmount: 0n,
        outputInners: [trade, change],
      }),
    );
    expect(w.ingestMemo(memo, [SOL, USDC]).status).toBe('stored');
    expect(w.notes.get(input.commitment)?.state).toBe('spending');
    expect(w.freeNotes(USDC)).toEqual([]); // the input is offered to no order; the change backs the rest
    expect(
      w
        .unspentNotes()
        .filter((n) => n.state !== 'spending')
        .map((n) => [n.mint, n.amount])
        .sort(),
    ).toEqual(
      [
        [SOL, 2n],
        [USDC, 600n],
      ].sort(),
    );
    expect(w.orders.get('22'.repeat(16))?.noteCommitment).toBe(
      w.noteFor(USDC, 600n, change, 0, 'change').commitment,
    );
  });
});
