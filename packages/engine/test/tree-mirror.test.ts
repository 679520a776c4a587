import { randomBytes } from 'node:crypto';
import { deriveNote, ownerCommitment, randomFieldElement } from '@nightjar/crypto';
import { addressToBase58, ed25519PublicKey, fieldToHex, parseAddress } from '@nightjar/protocol';
import {
  COMMITMENT_LAG,
  ensureDevGenesis,
  Ledger,
  loadOrCreateDevKeys,
  signTransaction,
  type ChainInfo,
  type LedgerClient,
  type LedgerEvent,
} from '@nightjar/ledger';
import { describe, expect, it } from 'vitest';
import { TreeMirror } from '../src/tree-mirror.js';
import { SOL } from '@nightjar/testkit';

async function until(predicate: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((r) => setImmediate(r));
  }
}

/** Signs a deposit of a fresh note of `amount` into shard 0 from `wallet` (the ledgers here ask no work). */
function depositTx(chain: ChainInfo, wallet: Uint8Array, nonce: bigint, amount: bigint) {
  const d = deriveNote({
    mint: parseAddress(SOL)!,
    amount,
    ownerCommitment: ownerCommitment(randomFieldElement()),
    noteInnerHash: randomFieldElement(),
  });
  return signTransaction(
    wallet,
    nonce,
    {
      name: 'deposit',
      args: {
        tree_id: 0,
        mint: SOL,
        amount: String(amount),
        note_commitment: fieldToHex(d.noteCommitment),
        opening_hash: fieldToHex(d.openingHash),
      },
    },
    chain,
  );
}

describe('TreeMirror', () => {
  it('a resync (after an event-stream interruption) keeps the chain’s root window', async () => {
    const ledger = Ledger.open({
      clock: { mode: 'manual' },
      verifier: { verify: async () => true },
      freshSignerWorkBits: 0,
    });
    await ensureDevGenesis(ledger, loadOrCreateDevKeys(undefined));
    const mirror = new TreeMirror(ledger);
    await mirror.start(4);
    const wallet = Uint8Array.from(randomBytes(32));
    await ledger.requestAirdrop({
      owner: addressToBase58(ed25519PublicKey(wallet)),
      mint: SOL,
      amount: '100',
    });
    const roots: string[] = [];
    for (let i = 1; i <= 3; i++) {
      await ledger.sendTransaction({
        transaction: depositTx(await ledger.getChain(), wallet, BigInt(i), BigInt(i)),
      });
      roots.push((await ledger.getTreeRoot({ tree_id: 0 })).merkle_root);
    }
    await ledger.advanceSlots({ slots: COMMITMENT_LAG.finalized + 1 });
    await until(() => mirror.shard(0)!.size === 3);
    expect(roots.map((r) => mirror.isRecentRoot(0, r))).toEqual([true, true, true]);
    await mirror.resync(0);
    expect(mirror.shard(0)!.size).toBe(3);
    expect(roots.map((r) => mirror.isRecentRoot(0, r))).toEqual([true, true, true]);
    expect(mirror.isRecentRoot(0, '01'.repeat(32))).toBe(false);
    mirror.stop();
    await ledger.close();
  });

  it('a rebuild pages by the leaves the ledger returned, whatever page cap the ledger has', async () => {
    const ledger = Ledger.open({
      clock: { mode: 'manual' },
      verifier: { verify: async () => true },
      freshSignerWorkBits: 0,
    });
    await ensureDevGenesis(ledger, loadOrCreateDevKeys(undefined));
    const chain = await ledger.getChain();
    // A ledger whose getLeaves pages are two leaves (as the RPC cuts a page longer than its cap).
    const shortPages: LedgerClient = Object.assign(Object.create(ledger) as LedgerClient, {
      getLeaves: (p: { tree_id: number; from: number; to: number }) =>
        ledger.getLeaves({ ...p, to: Math.min(p.to, p.from + 2) }),
    });
    const wallet = Uint8Array.from(randomBytes(32));
    await ledger.requestAirdrop({
      owner: addressToBase58(ed25519PublicKey(wallet)),
      mint: SOL,
      amount: '100',
    });
    for (let i = 1; i <= 5; i++)
      await ledger.sendTransaction({ transaction: depositTx(chain, wallet, BigInt(i), 1n) });
    await ledger.advanceSlots({ slots: COMMITMENT_LAG.finalized + 1 });
    const mirror = new TreeMirror(shortPages);
    await mirror.start(4);
    expect(mirror.shard(0)!.size).toBe(5);
    expect(fieldToHex(mirror.shard(0)!.root)).toBe((await ledger.getTreeRoot({ tree_id: 0 })).merkle_root);
    mirror.stop();
    await ledger.close();
  });

  it('notices finalized leaves it never heard about and reads them back from the chain', async () => {
    const ledger = Ledger.open({
      clock: { mode: 'manual' },
      verifier: { verify: async () => true },
      freshSignerWorkBits: 0,
    });
    await ensureDevGenesis(ledger, loadOrCreateDevKeys(undefined));
    let dropping = false;
    // A client whose event stream silently loses leaf events while `dropping` is set.
    const lossy: LedgerClient = Object.assign(Object.create(ledger) as LedgerClient, {
      subscribe: (l: (e: LedgerEvent) => void) =>
        ledger.subscribe((e) => (dropping && e.type === 'leaf' ? undefined : l(e))),
    });
    const mirror = new TreeMirror(lossy);
    await mirror.start(4);
    const announced: number[] = [];
    const resets: number[] = [];
    mirror.onLeaves((applied) => announced.push(applied.firstLeafIndex));
    mirror.onReset((treeId) => resets.push(treeId));
    const wallet = Uint8Array.from(randomBytes(32));
    await ledger.requestAirdrop({
      owner: addressToBase58(ed25519PublicKey(wallet)),
      mint: SOL,
      amount: '100',
    });
    dropping = true;
    for (let i = 1; i <= 3; i++)
      await ledger.sendTransaction({
        transaction: depositTx(await ledger.getChain(), wallet, BigInt(i), BigInt(i)),
      });
    dropping = false;
    await ledger.advanceSlots({ slots: COMMITMENT_LAG.finalized + 1 });
    expect(mirror.shard(0)!.size).toBe(0);
    await mirror.checkAgainstChain();
    await until(() => mirror.shard(0)!.size === 3);
    const chain = await ledger.getTreeRoot({ tree_id: 0, commitment: 'finalized' });
    expect(fieldToHex(mirror.shard(0)!.root)).toBe(chain.merkle_root);
    expect(mirror.isDiverged(0)).toBe(false);
    // Leaves read back from the chain had no events of their own: the rebuild is announced instead.
    expect(announced).toEqual([]);
    expect(resets).toEqual([0]);
    mirror.stop();
    await ledger.close();
  });
});
