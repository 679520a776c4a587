import { loadVerificationKey, NoteProver } from '@nightjar/circuits';
import { MerkleTree } from '@nightjar/crypto';
import { bytesToHex, parseAddress } from '@nightjar/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMMITMENT_LAG,
  createGroth16Verifier,
  ensureDevGenesis,
  Ledger,
  loadOrCreateDevKeys,
  VAULT_ADDRESS,
} from '../src/index.js';
import { Actor, makeNote, SOL } from './harness.js';

describe('vault program with real Groth16 proofs', () => {
  let prover: NoteProver;
  beforeAll(async () => {
    prover = new NoteProver();
    await prover.start();
  }, 60_000);
  afterAll(async () => {
    await prover.close();
  });

  it('withdraws with a VALID_SPEND proof; forged ones are refused', async () => {
    const verifier = await createGroth16Verifier({ valid_spend: await loadVerificationKey('valid_spend') });
    const ledger = Ledger.open({ clock: { mode: 'manual' }, verifier, freshSignerWorkBits: 0 });
    Actor.chain = await ledger.getChain();
    const keys = loadOrCreateDevKeys(undefined);
    await ensureDevGenesis(ledger, keys);
    const admin = new Actor(keys.adminSeed);
    await admin.sync(ledger);
    const tee = new Actor();
    await admin.send(ledger, 'set_tee_keys', { keys: [tee.address] });
    await ledger.advanceSlots({ slots: COMMITMENT_LAG.finalized });

    const alice = new Actor();
    const note = makeNote(SOL, 1234n);
    await ledger.requestAirdrop({ owner: alice.address, mint: SOL, amount: '1234' });
    const dep = await alice.send(ledger, 'deposit', {
      tree_id: 0,
      mint: SOL,
      amount: '1234',
      note_commitment: note.commitment,
      opening_hash: note.openingHash,
    });
    expect(dep.err).toBeNull();

    const mirror = new MerkleTree();
    for (const leaf of (await ledger.getLeaves({ tree_id: 0, from: 0, to: 10 })).leaves)
      mirror.append(BigInt('0x' + leaf.value));
    const path = mirror.proof(dep.result!.leaf!.leaf_index);
    const provable = {
      mint: parseAddress(SOL)!,
      amount: 1234n,
      spendingKey: note.spendingKey,
      noteInnerHash: note.inner,
    };
    const root = (await ledger.getTreeRoot({ tree_id: 0 })).merkle_root;
    const bob = new Actor();
    const bobKey = parseAddress(bob.address)!;
    const spend = await prover.proveValidSpend({ note: provable, path, recipient: bobKey });
    const withdraw = {
      tree_id: 0,
      merkle_root: root,
      nullifier: note.nullifier,
      mint: SOL,
      amount: '1234',
      recipient: bob.address,
      proof: bytesToHex(spend.proof),
    };
    // The proof binds the recipient and the amount (refused before landing, InvalidProof).
    for (const forged of [
      { ...withdraw, recipient: alice.address },
      { ...withdraw, amount: '1235' },
    ])
      await expect(alice.send(ledger, 'withdraw', forged)).rejects.toMatchObject({
        code: -32002,
        message: expect.stringMatching(/^InvalidProof/),
      });
    expect((await alice.send(ledger, 'withdraw', withdraw)).err).toBeNull();
    expect(await ledger.getBalance({ owner: bob.address, mint: SOL })).toBe('1234');
    expect(await ledger.getBalance({ owner: VAULT_ADDRESS, mint: SOL })).toBe('0');
    await ledger.close();
  }, 60_000);
});
