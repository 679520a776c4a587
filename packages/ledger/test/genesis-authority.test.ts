import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ownerCommitment, randomFieldElement } from '@nightjar/crypto';
import { addressToBase58, ed25519PublicKey, fieldToHex } from '@nightjar/protocol';
import { ensureGenesis, Ledger, signTransaction, type Instruction } from '../src/index.js';

const acceptAll = {
  verify: async () => true,
  verifyBatch: async (_c: unknown, i: unknown[]) => i.map(() => true),
};

function authority() {
  const seed = Uint8Array.from(randomBytes(32));
  return {
    seed,
    admin: addressToBase58(ed25519PublicKey(seed)),
    fee: fieldToHex(ownerCommitment(randomFieldElement())),
  };
}

describe('genesis authority (production ledger)', () => {
  const open: Ledger[] = [];
  afterEach(async () => {
    for (const l of open.splice(0)) await l.close();
  });

  it('a ledger outside dev mode will not open without its genesis authority', () => {
    expect(() => Ledger.open({ dev: false, verifier: acceptAll, clock: { mode: 'manual' } })).toThrow(
      /genesis authority/,
    );
  });

  it('only the configured authority initializes, with the configured fee owner; ensureGenesis does the rest', async () => {
    const auth = authority();
    const ledger = Ledger.open({
      dev: false,
      genesis: { admin: auth.admin, fee_owner_commitment: auth.fee },
      verifier: acceptAll,
      clock: { mode: 'manual' },
    });
    open.push(ledger);
    const chain = await ledger.getChain();
    // Each try is a fresh signer's (a failed one gives no history): it carries the work.
    const land = async (seed: Uint8Array, nonce: bigint, instruction: Instruction) => {
      const tx = signTransaction(seed, nonce, instruction, chain, { fresh: true });
      await ledger.sendTransaction({ transaction: tx });
      return (await ledger.getTransaction({ signature: tx.signature }))?.err?.code ?? null;
    };
    const init = (fee: string): Instruction => ({
      name: 'initialize',
      args: { fee_owner_commitment: fee, num_trees: 1 },
    });
    expect(await land(Uint8Array.from(randomBytes(32)), 1n, init(auth.fee))).toBe('Unauthorized');
    expect(await land(auth.seed, 1n, init(fieldToHex(1n)))).toBe('InvalidArgs');
    expect(ledger.isInitialized).toBe(false);

    await ensureGenesis(ledger, { adminSeed: auth.seed, feeOwnerCommitment: auth.fee });
    expect(await ledger.getVault()).toMatchObject({ admin: auth.admin, fee_owner_commitment: auth.fee });
    expect((await ledger.getMarkets()).map((m) => m.symbol)).toEqual(['SOL-USDC', 'ETH-USDC']);
    // Idempotent: a second run finds the vault and sends nothing.
    const nonce = await ledger.getNonce({ signer: auth.admin });
    await ensureGenesis(ledger, { adminSeed: auth.seed, feeOwnerCommitment: auth.fee });
    expect(await ledger.getNonce({ signer: auth.admin })).toBe(nonce);
  });
});
