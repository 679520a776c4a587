/**
 * `deposit` against the in-process dev ledger (manual clock): the note is in the wallet before it
 * is sent, at its leaf once landed, usable once the venue's tree has it; a refusal removes it; a
 * venue's tree that lags is `DepositPendingError`; bad parameters never reach the ledger.
 */
import {
  FAKE_USDC,
  ZERO_FIELD,
  fakeClient,
  useFakeLedger,
  type FakeRoutes,
} from '@nightjar/testkit/sdk-fakes';
import { describe, expect, it } from 'vitest';
import { deposit, type DepositProgress } from './deposit.js';

const ledger = useFakeLedger();

/** A client on the shared ledger whose funding account holds `amount` USDC. */
async function funded(amount: bigint, routes?: FakeRoutes) {
  const fake = fakeClient({ ledger: ledger(), ...(routes ? { routes } : {}) });
  if (amount > 0n)
    await ledger().requestAirdrop({
      owner: fake.wallet.keys.funding.address,
      mint: FAKE_USDC,
      amount: `${amount}`,
    });
  return fake;
}

describe('deposit', () => {
  it('resolves once usable by default, telling each stage; the note sits at its leaf', async () => {
    const { client, wallet } = await funded(20_000_000n);
    const stages: DepositProgress['stage'][] = [];
    const r = await deposit(client, {
      asset: 'usdc',
      amount: '12.5',
      onProgress: (p) => stages.push(p.stage),
    });
    expect(stages).toEqual(['sending', 'landed', 'usable']);
    expect(r).toMatchObject({
      index: 0,
      usable: true,
      note: { mint: FAKE_USDC, amount: 12_500_000n, state: 'free' },
    });
    expect(r.note.leafIndex).toBeDefined();
    expect(wallet.leaves.get(r.note.commitment)?.leafIndex).toBe(r.note.leafIndex);
    expect(wallet.depositCount).toBe(1);

    const landed = await deposit(client, { mint: FAKE_USDC, amount: 1n, wait: 'landed' });
    expect(landed).toMatchObject({ index: 1, usable: false });
    expect(wallet.balances()[FAKE_USDC]?.available).toBe(12_500_001n);
  });

  it('the venue’s tree lags past waitMs: DepositPendingError, the note kept', async () => {
    const lagging = {
      'GET /tree/root': () => ({ tree_id: 0, merkle_root: ZERO_FIELD, leaf_count: 0, on_chain_slot: 1 }),
    };
    const { client, wallet } = await funded(5n, lagging);
    await expect(deposit(client, { mint: FAKE_USDC, amount: 5n, waitMs: 20 })).rejects.toMatchObject({
      codeName: 'DEPOSIT_PENDING',
    });
    expect(wallet.unspentNotes().map((n) => n.amount)).toEqual([5n]);
  });

  it('a refusal (no funds) is LedgerRefusedError and removes the note; bad parameters send nothing', async () => {
    const { client, wallet } = await funded(0n);
    await expect(deposit(client, { mint: FAKE_USDC, amount: 5n, wait: 'landed' })).rejects.toMatchObject({
      codeName: 'LEDGER_REFUSED',
      context: { instruction: 'deposit' },
    });
    expect(wallet.notes.size).toBe(0);
    await expect(deposit(client, { asset: 'USDC', amount: '0' })).rejects.toMatchObject({
      message: 'a deposit must be positive: give an amount above 0',
    });
    await expect(
      deposit(client, { mint: FAKE_USDC, amount: 1n, wait: 'soon' as 'sent' }),
    ).rejects.toMatchObject({ message: "deposit's wait is 'usable', 'landed' or 'sent' (got soon)" });
    expect(wallet.depositCount).toBe(1); // only the refused deposit took an index
  });
});
