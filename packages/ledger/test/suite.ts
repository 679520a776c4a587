/**
 * The ledger's behaviour suite, written against the LedgerClient interface so that the in-process
 * ledger and the JSON-RPC transport run exactly the same tests.
 */
import { beforeEach, afterEach, describe, expect, it } from 'vitest';
import { VAULT_ADDRESS, COMMITMENT_LAG, type DevLedgerClient, type LedgerEvent } from '../src/index.js';
import {
  Actor,
  BAD_PROOF,
  GOOD_PROOF,
  makeNote,
  SOL,
  startHarness,
  USDC,
  type Harness,
  type TestNote,
} from './harness.js';
import { settlementTests, SUITE_MEMOS_PER_READ } from './suite-settlement.js';
import { rootWindowTests } from './suite-root-window.js';
import { signerTests } from './suite-signers.js';
import { waitFor } from './wait.js';

export { waitFor };

export function ledgerSuite(
  name: string,
  wrap?: NonNullable<Parameters<typeof startHarness>[0]>['wrap'],
): void {
  describe(`ledger over ${name}`, () => {
    let h: Harness;
    let c: DevLedgerClient;
    let alice: Actor;

    beforeEach(async () => {
      h = await startHarness({ wrap, memosPerRead: SUITE_MEMOS_PER_READ });
      c = h.client;
      alice = new Actor();
    });
    afterEach(async () => {
      if (c !== h.ledger) await c.close();
      await h.ledger.close();
    });

    describe('genesis and reads', () => {
      it('a fresh dev ledger has a vault and two demo markets', async () => {
        const markets = await c.getMarkets();
        expect(markets.map((m) => m.symbol)).toEqual(['SOL-USDC', 'ETH-USDC']);
        expect(markets[0]).toMatchObject({
          base_mint: SOL,
          quote_mint: USDC,
          base_decimals: 9,
          quote_decimals: 6,
          price_scale: '1000000000',
        });
        const vault = await c.getVault();
        expect(vault.num_trees).toBe(4);
        expect(vault.tee_keys).toEqual([h.tee.address]);
        expect(vault.signer_set_sha256).toMatch(/^[0-9a-f]{64}$/);
      });

      it('commitment levels lag processed by 1 and 31 slots', async () => {
        const slot = await c.getSlot();
        expect(await c.getSlot({ commitment: 'confirmed' })).toBe(slot - 1);
        expect(await c.getSlot({ commitment: 'finalized' })).toBe(slot - 31);
      });

      it('a new signer set is visible at processed at once and at finalized only after 31 slots', async () => {
        const other = new Actor();
        expect(
          (await h.admin.send(c, 'set_tee_keys', { keys: [h.tee.address, other.address] })).err,
        ).toBeNull();
        expect((await c.getVault()).tee_keys).toHaveLength(2);
        expect((await c.getVault({ commitment: 'finalized' })).tee_keys).toEqual([h.tee.address]);
        await c.advanceSlots({ slots: 31 });
        expect((await c.getVault({ commitment: 'finalized' })).tee_keys).toHaveLength(2);
      });

      it('the faucet credits balances', async () => {
        await c.requestAirdrop({ owner: alice.address, mint: SOL, amount: '5' });
        expect(await c.getBalance({ owner: alice.address, mint: SOL })).toBe('5');
      });

      it('rejects bad read parameters with RPC errors, not crashes', async () => {
        await expect(c.getTreeRoot({ tree_id: 99 })).rejects.toMatchObject({ code: -32602 });
        await expect(c.getLeaves({ tree_id: 0, from: 5, to: 1 })).rejects.toMatchObject({ code: -32602 });
        await expect(c.getBalance({ owner: 'nope', mint: SOL })).rejects.toMatchObject({ code: -32602 });
        await expect(
          c.requestAirdrop({ owner: alice.address, mint: SOL, amount: '-1' }),
        ).rejects.toMatchObject({ code: -32602 });
      });
    });

    describe('transactions', () => {
      it('statuses move processed → confirmed → finalized', async () => {
        const tx = alice.sign({ name: 'release_lock', args: { nullifier: '00'.repeat(32) } });
        await c.sendTransaction({ transaction: tx });
        const [s0] = await c.getSignatureStatuses({ signatures: [tx.signature] });
        expect(s0).toMatchObject({ confirmation_status: 'processed', err: { code: 'NotLocked' } });
        await c.advanceSlots({ slots: 1 });
        expect((await c.getSignatureStatuses({ signatures: [tx.signature] }))[0]?.confirmation_status).toBe(
          'confirmed',
        );
        await c.advanceSlots({ slots: 30 });
        expect((await c.getSignatureStatuses({ signatures: [tx.signature] }))[0]?.confirmation_status).toBe(
          'finalized',
        );
        expect(await c.getSignatureStatuses({ signatures: ['ab'.repeat(64)] })).toEqual([null]);
      });

      it('refuses a bad signature, a stale nonce and a replay before landing', async () => {
        const tx = alice.sign({ name: 'release_lock', args: { nullifier: '00'.repeat(32) } });
        await expect(
          c.sendTransaction({
            transaction: {
              ...tx,
              signature: tx.signature.replace(/^./, tx.signature[0] === 'a' ? 'b' : 'a'),
            },
          }),
        ).rejects.toMatchObject({ code: -32002 });
        await c.sendTransaction({ transaction: tx });
        await expect(c.sendTransaction({ transaction: tx })).rejects.toMatchObject({ code: -32002 });
        const stale = alice.sign({ name: 'release_lock', args: { nullifier: '00'.repeat(32) } }, 1n);
        await expect(c.sendTransaction({ transaction: stale })).rejects.toMatchObject({ code: -32002 });
      });

      it('refuses malformed envelopes', async () => {
        const tx = alice.sign({ name: 'release_lock', args: { nullifier: '00'.repeat(32) } });
        for (const bad of [
          { ...tx, nonce: '01' },
          { ...tx, signer: 'x' },
          { ...tx, extra: 1 },
          { ...tx, instruction: null },
        ]) {
          await expect(c.sendTransaction({ transaction: bad as never })).rejects.toMatchObject({
            code: -32602,
          });
        }
      });

      it('lands an unknown instruction or bad arguments as a failed transaction', async () => {
        expect((await alice.send(c, 'mint_money', {})).err?.code).toBe('UnknownInstruction');
        expect((await alice.send(c, 'deposit', { tree_id: 0 })).err?.code).toBe('InvalidArgs');
      });
    });

    describe('admin instructions', () => {
      it('initialize only once', async () => {
        expect(
          (await h.admin.send(c, 'initialize', { fee_owner_commitment: '00'.repeat(32), num_trees: 1 })).err
            ?.code,
        ).toBe('AlreadyInitialized');
      });
      it('only the admin may set keys or create markets and mints', async () => {
        expect((await alice.send(c, 'set_tee_keys', { keys: [alice.address] })).err?.code).toBe(
          'Unauthorized',
        );
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
        expect(
          (await h.admin.send(c, 'create_market', { ...base, quote_mint: VAULT_ADDRESS })).err?.code,
        ).toBe('UnknownMint');
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
        expect((await alice.send(c, 'deposit', { ...args, mint: USDC })).err?.code).toBe(
          'CommitmentMismatch',
        );
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
      let note: TestNote;
      beforeEach(async () => {
        note = await h.deposit(alice, SOL, 500n);
      });

      it('locks with a verified VALID_INPUT proof over the right public inputs', async () => {
        expect((await h.lock(note)).err).toBeNull();
        const call = h.verifier.calls.at(-1)!;
        expect(call.circuit).toBe('valid_input');
        expect(call.inputs.slice(0, 3).map((x) => x.toString(16).padStart(64, '0'))).toEqual([
          await h.currentRoot(),
          note.commitment,
          note.nullifier,
        ]);
      });

      it('refuses a second lock, a non-TEE signer, a bad proof, an unknown root and a wrong mint', async () => {
        const root = await h.currentRoot();
        const slot = await c.getSlot();
        const args = {
          tree_id: 0,
          merkle_root: root,
          note_commitment: note.commitment,
          nullifier: note.nullifier,
          mint: SOL,
          proof: GOOD_PROOF,
          order_id: 'ab'.repeat(16),
          until_slot: String(slot + 50),
        };
        expect((await alice.send(c, 'lock_note', args)).err?.code).toBe('Unauthorized');
        expect((await h.tee.send(c, 'lock_note', { ...args, proof: BAD_PROOF })).err?.code).toBe(
          'InvalidProof',
        );
        expect((await h.tee.send(c, 'lock_note', { ...args, merkle_root: '01'.repeat(32) })).err?.code).toBe(
          'UnknownRoot',
        );
        expect((await h.tee.send(c, 'lock_note', { ...args, mint: USDC })).err?.code).toBe('MintMismatch');
        expect(
          (await h.tee.send(c, 'lock_note', { ...args, note_commitment: '02'.repeat(32) })).err?.code,
        ).toBe('UnknownNote');
        expect((await h.tee.send(c, 'lock_note', { ...args, until_slot: String(slot) })).err?.code).toBe(
          'BadLockExpiry',
        );
        expect(
          (await h.tee.send(c, 'lock_note', { ...args, until_slot: String(slot + 4501) })).err?.code,
        ).toBe('BadLockExpiry');
        expect((await h.tee.send(c, 'lock_note', args)).err).toBeNull();
        expect((await h.tee.send(c, 'lock_note', args)).err?.code).toBe('NoteLocked');
      });

      it('a TEE key not yet finalized may not lock', async () => {
        const fresh = new Actor();
        await h.admin.send(c, 'set_tee_keys', { keys: [h.tee.address, fresh.address] });
        const slot = await c.getSlot();
        const args = {
          tree_id: 0,
          merkle_root: await h.currentRoot(),
          note_commitment: note.commitment,
          nullifier: note.nullifier,
          mint: SOL,
          proof: GOOD_PROOF,
          order_id: 'ab'.repeat(16),
          until_slot: String(slot + 50),
        };
        expect((await fresh.send(c, 'lock_note', args)).err?.code).toBe('Unauthorized');
        await c.advanceSlots({ slots: 31 });
        expect((await fresh.send(c, 'lock_note', { ...args, until_slot: String(slot + 80) })).err).toBeNull();
      });

      it('accepts any root in the window of the last 64 appends, not an older one', async () => {
        const oldRoot = await h.currentRoot();
        for (let i = 0; i < 64; i++) await h.deposit(alice, SOL, 1n + BigInt(i));
        const slot = await c.getSlot();
        const args = {
          tree_id: 0,
          merkle_root: oldRoot,
          note_commitment: note.commitment,
          nullifier: note.nullifier,
          mint: SOL,
          proof: GOOD_PROOF,
          order_id: 'ab'.repeat(16),
          until_slot: String(slot + 50),
        };
        expect((await h.tee.send(c, 'lock_note', args)).err).toBeNull();
        // Freed by its locker, the note may be locked again, but no longer under the old root.
        expect((await h.tee.send(c, 'release_lock', { nullifier: note.nullifier })).err).toBeNull();
        await h.deposit(alice, SOL, 999n);
        expect(
          (await h.tee.send(c, 'lock_note', { ...args, until_slot: String(slot + 120) })).err?.code,
        ).toBe('UnknownRoot');
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

    describe('settle_batch', () => {
      it('consumes locked inputs, appends outputs and stores memos; value is conserved per mint', async () => {
        const bid = await h.deposit(alice, USDC, 1_000n);
        const bob = new Actor();
        const ask = await h.deposit(bob, SOL, 10n);
        await h.lock(bid);
        await h.lock(ask);
        const outputs = [
          { tree_id: 0, mint: SOL, amount: '10', opening_hash: makeNote(SOL, 10n).openingHash },
          { tree_id: 0, mint: USDC, amount: '990', opening_hash: makeNote(USDC, 990n).openingHash },
          { tree_id: 2, mint: USDC, amount: '10', opening_hash: makeNote(USDC, 10n).openingHash },
        ];
        const rec = await h.tee.send(c, 'settle_batch', {
          batch_id: '1',
          matches: [{ match_idx: 0, inputs: [bid.nullifier, ask.nullifier], outputs, memos: ['aa', 'bb'] }],
        });
        expect(rec.err).toBeNull();
        expect(rec.result?.matches).toEqual([
          {
            match_idx: 0,
            ok: true,
            output_leaves: [
              { tree_id: 0, leaf_index: 2 },
              { tree_id: 0, leaf_index: 3 },
              { tree_id: 2, leaf_index: 0 },
            ],
          },
        ]);
        expect(await c.getMemosBySignature({ signature: rec.signature })).toEqual({
          memos: [
            { index: 0, signature: rec.signature, match_idx: 0, party: 0, memo: 'aa' },
            { index: 1, signature: rec.signature, match_idx: 0, party: 1, memo: 'bb' },
          ],
        });
        expect((await c.getTreeRoot({ tree_id: 0 })).leaf_count).toBe(4);
        // Consumed: cannot be locked or settled again.
        expect((await h.lock(bid)).err?.code).toBe('NoteSpent');
      });

      it('each match stands alone: a bad match fails, the good one lands', async () => {
        const a = await h.deposit(alice, SOL, 7n);
        const b = await h.deposit(alice, SOL, 8n);
        await h.lock(a);
        const good = {
          match_idx: 0,
          inputs: [a.nullifier],
          outputs: [{ tree_id: 0, mint: SOL, amount: '7', opening_hash: makeNote(SOL, 7n).openingHash }],
          memos: [],
        };
        const unlocked = {
          match_idx: 1,
          inputs: [b.nullifier],
          outputs: [{ tree_id: 0, mint: SOL, amount: '8', opening_hash: makeNote(SOL, 8n).openingHash }],
          memos: [],
        };
        const rec = await h.tee.send(c, 'settle_batch', { batch_id: '2', matches: [unlocked, good] });
        expect(rec.err).toBeNull();
        expect(rec.result?.matches?.map((m) => [m.match_idx, m.ok, m.err?.code])).toEqual([
          [1, false, 'NotLocked'],
          [0, true, undefined],
        ]);
        expect((await c.getTreeRoot({ tree_id: 0 })).leaf_count).toBe(3);
      });

      it('refuses unbalanced value, expired locks, double consumption and non-TEE signers', async () => {
        const a = await h.deposit(alice, SOL, 7n);
        await h.lock(a, 30);
        const out = (amount: bigint) => [
          { tree_id: 0, mint: SOL, amount: String(amount), opening_hash: makeNote(SOL, amount).openingHash },
        ];
        const m = (amount: bigint, idx = 0) => ({
          match_idx: idx,
          inputs: [a.nullifier],
          outputs: out(amount),
          memos: [],
        });
        expect((await alice.send(c, 'settle_batch', { batch_id: '3', matches: [m(7n)] })).err?.code).toBe(
          'Unauthorized',
        );
        const unbalanced = await h.tee.send(c, 'settle_batch', { batch_id: '3', matches: [m(8n)] });
        expect(unbalanced.result?.matches?.[0]?.err?.code).toBe('ValueNotConserved');
        const twice = await h.tee.send(c, 'settle_batch', { batch_id: '4', matches: [m(7n, 0), m(7n, 1)] });
        expect(twice.result?.matches?.map((x) => x.err?.code)).toEqual([undefined, 'NoteSpent']);
        const b = await h.deposit(alice, SOL, 9n);
        await h.lock(b, 5);
        await c.advanceSlots({ slots: 5 });
        const expired = await h.tee.send(c, 'settle_batch', {
          batch_id: '5',
          matches: [{ match_idx: 0, inputs: [b.nullifier], outputs: out(9n), memos: [] }],
        });
        expect(expired.result?.matches?.[0]?.err?.code).toBe('LockExpired');
        expect(await c.getBalance({ owner: VAULT_ADDRESS, mint: SOL })).toBe('16');
      });
    });

    describe('withdraw', () => {
      it('pays the recipient with a VALID_SPEND proof and marks the nullifier spent', async () => {
        const note = await h.deposit(alice, SOL, 40n);
        const bob = new Actor();
        const args = {
          tree_id: 0,
          merkle_root: await h.currentRoot(),
          nullifier: note.nullifier,
          mint: SOL,
          amount: '40',
          recipient: bob.address,
          proof: GOOD_PROOF,
        };
        expect((await alice.send(c, 'withdraw', { ...args, proof: BAD_PROOF })).err?.code).toBe(
          'InvalidProof',
        );
        expect((await alice.send(c, 'withdraw', { ...args, merkle_root: '05'.repeat(32) })).err?.code).toBe(
          'UnknownRoot',
        );
        expect((await alice.send(c, 'withdraw', args)).err).toBeNull();
        expect(h.verifier.calls.at(-1)!.circuit).toBe('valid_spend');
        expect(h.verifier.calls.at(-1)!.inputs[4]).toBe(40n);
        expect(await c.getBalance({ owner: bob.address, mint: SOL })).toBe('40');
        expect(await c.getBalance({ owner: VAULT_ADDRESS, mint: SOL })).toBe('0');
        expect((await alice.send(c, 'withdraw', args)).err?.code).toBe('NoteSpent');
        expect((await h.lock(note)).err?.code).toBe('NoteSpent');
      });

      it('refuses a locked note', async () => {
        const note = await h.deposit(alice, SOL, 40n);
        await h.lock(note);
        const args = {
          tree_id: 0,
          merkle_root: await h.currentRoot(),
          nullifier: note.nullifier,
          mint: SOL,
          amount: '40',
          recipient: alice.address,
          proof: GOOD_PROOF,
        };
        expect((await alice.send(c, 'withdraw', args)).err?.code).toBe('NoteLocked');
      });
    });

    describe('fault injection', () => {
      it('reject: the transaction never lands', async () => {
        await c.setFaults({ rejectRate: 1 });
        const tx = alice.sign({ name: 'release_lock', args: { nullifier: '00'.repeat(32) } });
        await expect(c.sendTransaction({ transaction: tx })).rejects.toMatchObject({ code: -32002 });
        await c.setFaults({ rejectRate: 0 });
        expect(await c.getTransaction({ signature: tx.signature })).toBeNull();
      });

      it('drop: the transaction lands but the sender hears an error', async () => {
        await c.setFaults({ dropRate: 1 });
        const tx = alice.sign({ name: 'release_lock', args: { nullifier: '00'.repeat(32) } });
        await expect(c.sendTransaction({ transaction: tx })).rejects.toMatchObject({ code: -32004 });
        await c.setFaults({ dropRate: 0 });
        expect(await c.getTransaction({ signature: tx.signature })).not.toBeNull();
      });

      it('latency: the transaction lands only after the added slots', async () => {
        await c.setFaults({ latencySlots: 3 });
        const tx = alice.sign({ name: 'release_lock', args: { nullifier: '00'.repeat(32) } });
        await c.sendTransaction({ transaction: tx });
        await c.advanceSlots({ slots: 2 });
        expect(await c.getSignatureStatuses({ signatures: [tx.signature] })).toEqual([null]);
        await c.advanceSlots({ slots: 1 });
        expect((await c.getSignatureStatuses({ signatures: [tx.signature] }))[0]?.slot).toBe(
          await c.getSlot(),
        );
      });

      it('outage: every call fails until it is lifted', async () => {
        await c.setFaults({ outage: true });
        await expect(c.getSlot()).rejects.toMatchObject({ code: -32005 });
        await expect(c.getMarkets()).rejects.toMatchObject({ code: -32005 });
        await c.setFaults({ outage: false });
        expect(await c.getSlot()).toBeGreaterThan(0);
      });

      it('divergence: leaf events on the shard stop matching the chain', async () => {
        await c.setFaults({ divergedShards: [3] });
        const events: LedgerEvent[] = [];
        const off = c.subscribe((e) => e.type === 'leaf' && events.push(e));
        const note = await h.deposit(alice, SOL, 3n, 3);
        await waitFor(() => events.length === 1);
        off();
        expect(events[0]).toMatchObject({ tree_id: 3, leaf_index: 0 });
        expect(events[0]!.type === 'leaf' && events[0]!.commitment).not.toBe(note.commitment);
        expect((await c.getLeaves({ tree_id: 3, from: 0, to: 1 })).leaves[0]!.value).toBe(note.commitment);
      });

      it('refuses nonsense fault settings', async () => {
        await expect(c.setFaults({ rejectRate: 2 })).rejects.toMatchObject({ code: -32602 });
        await expect(c.setFaults({ latencySlots: -1 })).rejects.toMatchObject({ code: -32602 });
      });
    });

    settlementTests(() => ({ h, c, alice }));
    signerTests(() => ({ h, c, alice }));
    rootWindowTests(() => ({ h, c, alice }));

    it('slot events reach subscribers', async () => {
      const slots: number[] = [];
      const off = c.subscribe((e) => e.type === 'slot' && slots.push(e.slot));
      const before = await c.getSlot();
      await c.advanceSlots({ slots: 2 });
      await waitFor(() => slots.length === 2);
      off();
      expect(slots).toEqual([before + 1, before + 2]);
      expect(COMMITMENT_LAG.finalized).toBe(31);
    });
  });
}
