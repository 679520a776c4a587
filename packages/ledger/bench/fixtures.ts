/** Ledgers the benchmarks start from: a fresh dev ledger, or one whose shard 0 holds many leaves. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDevGenesis, Ledger, loadOrCreateDevKeys } from '../src/index.js';
import { Actor, SOL, type TestNote } from '../test/harness.js';
import { writeLeaves } from '../test/leaves-fixture.js';

/** Proof checks stubbed: the figures measure the ledger (Groth16 has its own benchmark). */
export const acceptAll = { verify: async () => true };
export { SOL };

/** `user`'s signed deposit of `note` (1,000 base units of SOL) into shard 0. */
export function depositOf(user: Actor, note: TestNote) {
  return user.sign({
    name: 'deposit',
    args: {
      tree_id: 0,
      mint: SOL,
      amount: '1000',
      note_commitment: note.commitment,
      opening_hash: note.openingHash,
    },
  });
}

/** A dev ledger (manual clock) with its genesis and one finalized TEE key. */
export async function freshLedger(
  dataDir?: string,
  options: Partial<Parameters<typeof Ledger.open>[0]> = {},
) {
  // No fresh-signer work: the bench measures the ledger, not a client's hashing.
  const ledger = Ledger.open({
    dataDir,
    clock: { mode: 'manual' },
    verifier: acceptAll,
    freshSignerWorkBits: 0,
    ...options,
  });
  Actor.chain = await ledger.getChain();
  const keys = loadOrCreateDevKeys(dataDir);
  await ensureDevGenesis(ledger, keys);
  const admin = new Actor(keys.adminSeed);
  await admin.sync(ledger);
  const tee = new Actor();
  await admin.send(ledger, 'set_tee_keys', { keys: [tee.address] });
  await ledger.advanceSlots({ slots: 31 });
  return { ledger, tee };
}

/**
 * A closed ledger directory whose shard 0 holds `n` leaves (test/leaves-fixture.ts).
 * `buildMs`: hashing them once.
 */
export async function ledgerWithLeaves(n: number): Promise<{ dir: string; root: bigint; buildMs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'nightjar-bench-'));
  const { ledger } = await freshLedger(dir);
  await ledger.close();
  return { dir, ...writeLeaves(dir, n) };
}
