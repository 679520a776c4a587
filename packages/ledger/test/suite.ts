/**
 * The ledger's behaviour suite, written against the LedgerClient interface so that the in-process
 * ledger and the JSON-RPC transport run exactly the same tests.
 */
import { rmSync } from 'node:fs';
import { beforeEach, afterEach, describe, expect, it } from 'vitest';
import { COMMITMENT_LAG, type DevLedgerClient } from '../src/index.js';
import { Actor, SOL, startHarness, tempDir, USDC, type Harness } from './harness.js';
import { blockTests } from './suite-blocks.js';
import { faultTests } from './suite-faults.js';
import { instructionTests } from './suite-instructions.js';
import { spendTests } from './suite-spend.js';
import { settlementTests, SUITE_MEMOS_PER_READ } from './suite-settlement.js';
import { rootWindowTests } from './suite-root-window.js';
import { signerTests } from './suite-signers.js';
import { waitFor } from './wait.js';

export { waitFor };

export function ledgerSuite(
  name: string,
  wrap?: NonNullable<Parameters<typeof startHarness>[0]>['wrap'],
  options: { inFile?: boolean } = {},
): void {
  describe(`ledger over ${name}`, () => {
    let h: Harness;
    let c: DevLedgerClient;
    let alice: Actor;
    let dir: string | undefined;

    beforeEach(async () => {
      // In a file, a served ledger answers its heavy reads from its reader thread.
      dir = options.inFile ? tempDir() : undefined;
      h = await startHarness({ wrap, memosPerRead: SUITE_MEMOS_PER_READ, dataDir: dir });
      c = h.client;
      alice = new Actor();
    });
    afterEach(async () => {
      if (c !== h.ledger) await c.close();
      await h.ledger.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
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

    instructionTests(() => ({ h, c, alice }));
    spendTests(() => ({ h, c, alice }));
    faultTests(() => ({ h, c, alice }));
    settlementTests(() => ({ h, c, alice }));
    signerTests(() => ({ h, c, alice }));
    rootWindowTests(() => ({ h, c, alice }));
    blockTests(() => ({ h, c, alice }));

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
