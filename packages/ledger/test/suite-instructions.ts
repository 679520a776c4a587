/**
 * Admin instructions, deposits and note locks. Part of the shared behaviour suite: in process and
 * over JSON-RPC.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { VAULT_ADDRESS, type LedgerEvent } from '../src/index.js';
import { Actor, makeNote, SOL, USDC, type SuiteContext, type TestNote } from './harness.js';
import { waitFor } from './wait.js';

export function instructionTests(get: () => SuiteContext): void {
  let { h, c, alice } = {} as SuiteContext;
  const refresh = () => ({ h, c, alice } = get());

  describe('admin instructions', () => {
    beforeEach(refresh);
    it('initialize only once', async () => {
      expect(
        (await h.admin.send(c, 'initialize', { fee_owner_commitment: '00'.repeat(32), num_trees: 1 })).err
          ?.code,
      ).toBe('AlreadyInitialized');
    });
    it('only the admin may set keys or create markets and mints', async () => {
      expect((await alice.send(c, 'set_tee_keys', { keys: [alice.address] })).err?.code).toBe('Unauthorized');
      expect((await alice.send(c, 'create_mint', { label: 'X', decimals: 2 })).err?.code).toBe(
        'Unauthorized',
      );
    });
    it('create_market validates its mints and economics', async () => {
      const base = {
        symbol: 'SOL-ETH',
        base_mint: SOL,
        quote_mint: USDC,
        price_scale: '1',
        tick_size: '1',
        min_order_size: '1',
        fee_bps: '10',
      };
      expect((await h.admin.send(c, 'create_market', { ...base, symbol: 'SOL-USDC' })).err?.code).toBe(
        'MarketExists',
      );
      expect((await h.admin.send(c, 'create_market', { ...base, quote_mint: VAULT_ADDRESS })).err?.code).toBe(
        'UnknownMint',
      );
      expect((await h.admin.send(c, 'create_market', { ...base, fee_bps: '10001' })).err?.code).toBe(
        'InvalidArgs',
      );
      expect((await h.admin.send(c, 'create_market', { ...base, tick_size: '0' })).err?.code).toBe(
        'InvalidArgs',
      );
      expect((await h.admin.send(c, 'create_market', base)).err).toBeNull();
      expect((await c.getMarkets()).map((m) => m.symbol)).toContain('SOL-ETH');
    });
    it('set_tee_keys refuses duplicates', async () => {
      expect(
        (await h.admin.send(c, 'set_tee_keys', { keys: [alice.address, alice.address] })).err?.code,
      ).toBe('InvalidArgs');
    });
  });

  describe('deposit', () => {
    beforeEach(refresh);
    it('moves tokens into the vault and appends the commitment, announcing the leaf', async () => {
      const events: LedgerEvent[] = [];
      const off = c.subscribe((e) => e.type === 'leaf' && events.push(e));
      const before = await c.getTreeRoot({ tree_id: 1 });
      const note = await h.deposit(alice, SOL, 1_000n, 1);
      expect(await c.getBalance({ owner: alice.address, mint: SOL })).toBe('0');
      expect(await c.getBalance({ owner: VAULT_ADDRESS, mint: SOL })).toBe('1000');
      const after = await c.getTreeRoot({ tree_id: 1 });
      expect(after.leaf_count).toBe(before.leaf_count + 1);
      expect(after.merkle_root).not.toBe(before.merkle_root);
      expect((await c.getLeaves({ tree_id: 1, from: 0, to: 10 })).leaves).toEqual([
        { leaf_index: 0, value: note.commitment },
      ]);
      await waitFor(() => events.length === 1);
      off();
      expect(events[0]).toMatchObject({
        type: 'leaf',
        tree_id: 1,
        leaf_index: 0,
        commitment: note.commitment,
      });
    });

    it('refuses insufficient funds, a commitment that does not re-derive, duplicates, bad shards and zero', async () => {
      const note = makeNote(SOL, 10n);
      const args = {
        tree_id: 0,
        mint: SOL,
        amount: '10',
        note_commitment: note.commitment,
        opening_hash: note.openingHash,
      };
      expect((await alice.send(c, 'deposit', args)).err?.code).toBe('InsufficientFunds');
      await c.requestAirdrop({ owner: alice.address, mint: SOL, amount: '100' });
      expect((await alice.send(c, 'deposit', { ...args, amount: '11' })).err?.code).toBe(
        'CommitmentMismatch',
      );
      expect((await alice.send(c, 'deposit', { ...args, mint: USDC })).err?.code).toBe('CommitmentMismatch');
      expect((await alice.send(c, 'deposit', { ...args, tree_id: 4 })).err?.code).toBe('BadTreeId');
      expect((await alice.send(c, 'deposit', { ...args, amount: '0' })).err?.code).toBe('InvalidArgs');
      expect((await alice.send(c, 'deposit', args)).err).toBeNull();
      expect((await alice.send(c, 'deposit', args)).err?.code).toBe('DuplicateCommitment');
      // Failed deposits moved nothing.
      expect(await c.getBalance({ owner: alice.address, mint: SOL })).toBe('90');
      expect((await c.getTreeRoot({ tree_id: 0 })).leaf_count).toBe(1);
    });

    it('the finalized root lags until the append is 31 slots old', async () => {
      const empty = await c.getTreeRoot({ tree_id: 0, commitment: 'finalized' });
      await h.deposit(alice, SOL, 5n);
      expect((await c.getTreeRoot({ tree_id: 0, commitment: 'finalized' })).merkle_root).toBe(
        empty.merkle_root,
      );
      expect((await c.getTreeRoot({ tree_id: 0, commitment: 'confirmed' })).leaf_count).toBe(0);
      await c.advanceSlots({ slots: 1 });
      expect((await c.getTreeRoot({ tree_id: 0, commitment: 'confirmed' })).leaf_count).toBe(1);
      await c.advanceSlots({ slots: 30 });
      const fin = await c.getTreeRoot({ tree_id: 0, commitment: 'finalized' });
      expect(fin.leaf_count).toBe(1);
      expect(fin.merkle_root).toBe(await h.currentRoot());
    });
  });

  describe('lock_note', () => {
    beforeEach(refresh);
    let note: TestNote;
    beforeEach(async () => {
      note = await h.deposit(alice, SOL, 500n);
    });

    it('locks by nullifier, use tag and expiry, its proof verified once against [use_tag, merkle_root, nullifier]', async () => {
      const calls = h.verifier.calls.length;
      const slot = await c.getSlot();
      const rec = await h.lock(note, 40);
      expect(rec.err).toBeNull();
      expect(h.verifier.calls.slice(calls)).toEqual([
        {
          circuit: 'valid_input_v2',
          inputs: [note.useTag, await h.currentRoot(), note.nullifier].map((x) => BigInt('0x' + x)),
        },
      ]);
      expect(await c.getNoteStatus({ nullifier: note.nullifier })).toEqual({
        state: 'locked',
        locked_until_slot: slot + 40,
      });
    });

    it('refuses a non-TEE signer, a bad expiry, an unknown shard or root, a second lock, a zero nullifier or use tag and the old argument shapes', async () => {
      const slot = await c.getSlot();
      const args = await h.lockArgs(note, { untilOffset: 50 });
      expect((await alice.send(c, 'lock_note', args)).err?.code).toBe('Unauthorized');
      expect((await h.tee.send(c, 'lock_note', { ...args, until_slot: String(slot) })).err?.code).toBe(
        'BadLockExpiry',
      );
      expect((await h.tee.send(c, 'lock_note', { ...args, until_slot: String(slot + 4501) })).err?.code).toBe(
        'BadLockExpiry',
      );
      expect((await h.tee.send(c, 'lock_note', { ...args, nullifier: '00'.repeat(32) })).err?.code).toBe(
        'InvalidArgs',
      );
      expect((await h.tee.send(c, 'lock_note', { ...args, use_tag: '00'.repeat(32) })).err?.code).toBe(
        'InvalidArgs',
      );
      expect((await h.tee.send(c, 'lock_note', { ...args, tree_id: 9 })).err?.code).toBe('BadTreeId');
      expect((await h.tee.send(c, 'lock_note', { ...args, merkle_root: '07'.repeat(32) })).err?.code).toBe(
        'UnknownRoot',
      );
      // What a lock used to carry (commitment, mint, order) is refused, not ignored; so is the
      // issue-18 shape without root, use tag and proof.
      const { tree_id: _t, merkle_root: _r, use_tag: _u, proof: _p, ...bare } = args;
      for (const shape of [
        { ...args, note_commitment: note.commitment },
        { ...args, order_id: 'ab'.repeat(16) },
        { ...args, mint: SOL },
        { ...args, circuit: 'valid_lock' },
        bare,
        { ...bare, proof: '11'.repeat(256) },
      ]) {
        expect((await h.tee.send(c, 'lock_note', shape)).err?.code).toBe('InvalidArgs');
      }
      expect((await c.getNoteStatus({ nullifier: note.nullifier })).state).toBe('free');
      expect((await h.tee.send(c, 'lock_note', { ...args, until_slot: String(slot + 4500) })).err).toBeNull();
      expect((await h.tee.send(c, 'lock_note', args)).err?.code).toBe('NoteLocked');
    });

    it('a TEE key not yet finalized may not lock', async () => {
      const fresh = new Actor();
      await h.admin.send(c, 'set_tee_keys', { keys: [h.tee.address, fresh.address] });
      const slot = await c.getSlot();
      const args = await h.lockArgs(note, { untilOffset: 50 });
      expect((await fresh.send(c, 'lock_note', args)).err?.code).toBe('Unauthorized');
      await c.advanceSlots({ slots: 31 });
      expect((await fresh.send(c, 'lock_note', { ...args, until_slot: String(slot + 80) })).err).toBeNull();
    });

    it('release_lock only by the locker, before or after expiry; the note may then be locked again', async () => {
      await h.lock(note, 10);
      expect((await alice.send(c, 'release_lock', { nullifier: note.nullifier })).err?.code).toBe(
        'Unauthorized',
      );
      // Its locker frees it early (an order that left the book): the owner's note is free at once.
      expect((await h.tee.send(c, 'release_lock', { nullifier: note.nullifier })).err).toBeNull();
      expect(await c.getNoteStatus({ nullifier: note.nullifier })).toEqual({ state: 'free' });
      await h.lock(note, 10);
      await c.advanceSlots({ slots: 10 });
      expect((await alice.send(c, 'release_lock', { nullifier: note.nullifier })).err?.code).toBe(
        'Unauthorized',
      );
      expect((await h.tee.send(c, 'release_lock', { nullifier: note.nullifier })).err).toBeNull();
      expect((await h.tee.send(c, 'release_lock', { nullifier: note.nullifier })).err?.code).toBe(
        'NotLocked',
      );
      expect((await h.lock(note)).err).toBeNull();
    });
  });
}
