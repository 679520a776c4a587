/**
 * `buildOrder`: the exact terms, the note chosen and reserved, the expiry slot, a proof and the
 * trading key's signature, with nothing sent; and its failure modes before any order exists.
 */
import { encodeOrderBody, orderSigningFields, requiredCollateral, verifyCanonical } from '@nightjar/protocol';
import { standInProver } from '@nightjar/testkit';
import { FAKE_MARKET, FAKE_USDC, ZERO_FIELD, fakeClient, giveNote } from '@nightjar/testkit/sdk-fakes';
import { describe, expect, it } from 'vitest';
import { buildOrder } from './build-order.js';

/** 1 SOL bid at 150 USDC: the collateral it needs (price and fee). */
const NEED = requiredCollateral('bid', 1_000_000_000n, 150_000_000n, FAKE_MARKET);
const BID = { symbol: 'SOL-USDC', side: 'bid', amount: '1', price: '150' } as const;

describe('buildOrder', () => {
  it('converts exactly, reserves the exact note, resolves the expiry and signs, sending nothing', async () => {
    const { client, requests, wallet } = fakeClient();
    const note = giveNote(wallet, FAKE_USDC, NEED, 4);
    const { body, note: backing } = await buildOrder(client, { ...BID, expiry: { slots: 50 } });
    expect(backing.commitment).toBe(note.commitment);
    expect(wallet.reserved.has(note.commitment)).toBe(true);
    expect(body).toMatchObject({
      symbol: 'SOL-USDC',
      side: 'bid',
      order_type: 'limit',
      amount: 1_000_000_000n,
      price_limit: 150_000_000n,
      expiry_slot: 1_050n, // the venue's slot (GET /time) + 50
      note_commitment: note.commitment,
      merkle_root: ZERO_FIELD,
      trading_key: wallet.keys.trading.publicKey,
    });
    expect(body.collateral_amount).toBeUndefined();
    expect(body.arrival_nonce).toBeGreaterThan(0n);
    expect(
      verifyCanonical(
        body.trading_key,
        encodeOrderBody(orderSigningFields(body)),
        body.trading_key_signature,
      ),
    ).toBe(true);
    expect(requests.some((r) => r.method !== 'GET')).toBe(false);
  });

  it('refuses terms the venue would refuse (off-tick price, size below the minimum)', async () => {
    const { client, wallet } = fakeClient();
    giveNote(wallet, FAKE_USDC, NEED, 0);
    await expect(buildOrder(client, { ...BID, price: '150.0005' })).rejects.toMatchObject({
      message: expect.stringContaining("is not a multiple of SOL-USDC's tick"),
    });
    await expect(buildOrder(client, { ...BID, amount: '0.0001' })).rejects.toMatchObject({
      message: expect.stringContaining('minimum order size'),
    });
    expect(wallet.reserved.size).toBe(0);
  });

  it('no note at all: InsufficientNotesError; one the venue’s tree lacks after the wait: NotesPendingError', async () => {
    const empty = fakeClient();
    await expect(buildOrder(empty.client, { ...BID, prepareNote: 'off' })).rejects.toMatchObject({
      codeName: 'INSUFFICIENT_NOTES',
      message: expect.stringContaining('note covers'),
    });
    const behind = fakeClient({
      routes: {
        'GET /tree/root': () => ({ tree_id: 0, merkle_root: ZERO_FIELD, leaf_count: 0, on_chain_slot: 1 }),
      },
    });
    giveNote(behind.wallet, FAKE_USDC, NEED, 9);
    await expect(buildOrder(behind.client, { ...BID, noteWaitMs: 20 })).rejects.toMatchObject({
      codeName: 'NOTES_PENDING',
      message: expect.stringContaining("in the venue's tree yet"),
    });
  });

  it('a failing prover: ProofError naming VALID_INPUT, the note released', async () => {
    const { client, wallet } = fakeClient({
      prover: {
        ...standInProver,
        proveValidInputV2: () => Promise.reject(new Error('worker died')),
      },
    });
    giveNote(wallet, FAKE_USDC, NEED, 0);
    await expect(buildOrder(client, BID)).rejects.toMatchObject({
      codeName: 'PROOF',
      message: 'VALID_INPUT proof failed: worker died',
    });
    expect(wallet.reserved.size).toBe(0);
  });
});
