/**
 * 28.11 over two real servers with two data directories: a deposit signed for one ledger's chain
 * lands there and is refused by the other (its signature does not verify for that chain); fresh
 * ledgers have distinct chain ids, and a restarted one keeps its own.
 */
import { randomBytes } from 'node:crypto';
import { addressToBase58, ed25519PublicKey } from '@nightjar/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import {
  chainInfo,
  ensureDevGenesis,
  Ledger,
  loadOrCreateDevKeys,
  RpcLedgerClient,
  serveLedger,
  signTransaction,
} from '../src/index.js';
import { makeNote, SOL, tempDir, TestVerifier } from './harness.js';

const open: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of open.reverse()) await close();
  open.length = 0;
});

/** A dev ledger in `dir`, served over JSON-RPC, and a client of it. */
async function serve(dir: string) {
  const ledger = Ledger.open({
    dataDir: dir,
    clock: { mode: 'manual' },
    verifier: new TestVerifier(),
    freshSignerWorkBits: 4,
  });
  await ensureDevGenesis(ledger, loadOrCreateDevKeys(dir));
  const server = await serveLedger(ledger);
  const client = new RpcLedgerClient(server.url, { devSecret: server.devSecret });
  const close = async () => {
    await client.close();
    await server.close();
    await ledger.close();
  };
  open.push(close);
  return { ledger, client, close };
}

describe('transactions bound to one chain (28.11)', () => {
  it('a deposit signed for one ledger lands there and is refused by another; chain ids are distinct and survive a restart', async () => {
    const [dirA, dirB] = [tempDir(), tempDir()];
    const a = await serve(dirA);
    const b = await serve(dirB);
    const [vaultA, vaultB] = [await a.client.getVault(), await b.client.getVault()];
    expect(vaultA.chain_id).toMatch(/^[0-9a-f]{64}$/);
    expect(vaultB.chain_id).toMatch(/^[0-9a-f]{64}$/);
    expect(vaultA.chain_id).not.toBe(vaultB.chain_id);
    expect(await a.client.getChain()).toEqual({ chain_id: vaultA.chain_id, fresh_signer_work_bits: 4 });

    // The same funded owner, with history on both ledgers (a first deposit landed on each, signed
    // for each), signs its next deposit for ledger A.
    const seed = Uint8Array.from(randomBytes(32));
    const owner = addressToBase58(ed25519PublicKey(seed));
    const depositOf = (amount: bigint) => {
      const note = makeNote(SOL, amount);
      return {
        name: 'deposit',
        args: {
          tree_id: 0,
          mint: SOL,
          amount: String(amount),
          note_commitment: note.commitment,
          opening_hash: note.openingHash,
        },
      };
    };
    let nonce = 0n;
    for (const l of [a, b]) {
      await l.client.requestAirdrop({ owner, mint: SOL, amount: '11' });
      const first = signTransaction(seed, 1n, depositOf(1n), await chainInfo(l.client), { fresh: true });
      await l.client.sendTransaction({ transaction: first });
      expect((await l.client.getTransaction({ signature: first.signature }))?.err).toBeNull();
      if (BigInt(first.nonce) > nonce) nonce = BigInt(first.nonce);
    }
    const deposit = signTransaction(seed, nonce + 1n, depositOf(10n), await chainInfo(a.client));
    await a.client.sendTransaction({ transaction: deposit });
    expect((await a.client.getTransaction({ signature: deposit.signature }))?.err).toBeNull();
    await expect(b.client.sendTransaction({ transaction: deposit })).rejects.toMatchObject({
      code: -32002,
      message: expect.stringMatching(/signature does not verify/),
    });
    expect(await b.client.getTransaction({ signature: deposit.signature })).toBeNull();
    expect(await b.client.getBalance({ owner, mint: SOL })).toBe('10');
    expect(BigInt((await b.client.getNonce({ signer: owner }))!)).toBeLessThan(BigInt(deposit.nonce));

    // A restart keeps the chain id (it lives in ledger.sqlite).
    await a.close();
    open.splice(open.indexOf(a.close), 1);
    const again = await serve(dirA);
    expect((await again.client.getVault()).chain_id).toBe(vaultA.chain_id);
    expect((await again.client.getTransaction({ signature: deposit.signature }))?.err).toBeNull();
  }, 60_000);
});
