/**
 * Dev genesis: a new dev ledger gets a vault, three demo mints and two demo markets, created by
 * ordinary signed transactions from a generated admin key. The admin key and the fee owner's
 * spending key are dev secrets kept in `<dataDir>/dev-admin.json` (mode 0600) so that a restarted
 * ledger, and `nightjar start`, can still act as admin.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ownerCommitment, randomFieldElement } from '@nightjar/crypto';
import { addressToBase58, bytesToHex, ed25519PublicKey, fieldToHex, hexToBytes } from '@nightjar/protocol';
import { mintAddress } from './addresses.js';
import type { Ledger } from './ledger.js';
import { signTransaction } from './transaction.js';
import type { Instruction } from './types.js';

export interface DevKeys {
  adminSeed: Uint8Array;
  feeSpendingKey: bigint;
}

export const DEMO_MINTS = [
  { label: 'SOL', decimals: 9 },
  { label: 'USDC', decimals: 6 },
  { label: 'ETH', decimals: 8 },
] as const;

export const DEMO_MARKETS = [
  {
    symbol: 'SOL-USDC',
    base: 'SOL',
    quote: 'USDC',
    price_scale: '1000000000',
    tick_size: '1000',
    min_order_size: '1000000',
    fee_bps: '10',
  },
  {
    symbol: 'ETH-USDC',
    base: 'ETH',
    quote: 'USDC',
    price_scale: '100000000',
    tick_size: '1000',
    min_order_size: '100000',
    fee_bps: '10',
  },
] as const;

export const DEV_NUM_TREES = 4;

export function loadOrCreateDevKeys(dataDir: string | undefined): DevKeys {
  const file = dataDir === undefined ? undefined : join(dataDir, 'dev-admin.json');
  if (file && existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { admin_seed: string; fee_spending_key: string };
    return { adminSeed: hexToBytes(saved.admin_seed), feeSpendingKey: BigInt('0x' + saved.fee_spending_key) };
  }
  const keys = { adminSeed: Uint8Array.from(randomBytes(32)), feeSpendingKey: randomFieldElement() };
  if (file) {
    writeFileSync(
      file,
      JSON.stringify({
        admin_seed: bytesToHex(keys.adminSeed),
        fee_spending_key: fieldToHex(keys.feeSpendingKey),
      }) + '\n',
      {
        mode: 0o600,
      },
    );
  }
  return keys;
}

/** Signs and lands instructions as the admin, in order, failing loudly on any error. */
export async function runAsAdmin(
  ledger: Ledger,
  adminSeed: Uint8Array,
  instructions: Instruction[],
): Promise<void> {
  const admin = addressToBase58(ed25519PublicKey(adminSeed));
  let nonce = BigInt((await ledger.getNonce({ signer: admin })) ?? '0');
  for (const instruction of instructions) {
    nonce += 1n;
    const tx = signTransaction(adminSeed, nonce, instruction);
    await ledger.sendTransaction({ transaction: tx });
    const record = await ledger.getTransaction({ signature: tx.signature });
    if (!record || record.err)
      throw new Error(`genesis ${instruction.name} failed: ${record?.err?.message ?? 'did not land'}`);
  }
}

/** Initialises a new dev ledger; does nothing to one that already has a vault. */
export async function ensureDevGenesis(ledger: Ledger, keys: DevKeys): Promise<void> {
  if (ledger.isInitialized) return;
  const instructions: Instruction[] = [
    {
      name: 'initialize',
      args: {
        fee_owner_commitment: fieldToHex(ownerCommitment(keys.feeSpendingKey)),
        num_trees: DEV_NUM_TREES,
      },
    },
    ...DEMO_MINTS.map((m) => ({ name: 'create_mint', args: { label: m.label, decimals: m.decimals } })),
    ...DEMO_MARKETS.map((m) => ({
      name: 'create_market',
      args: {
        symbol: m.symbol,
        base_mint: mintAddress(m.base),
        quote_mint: mintAddress(m.quote),
        price_scale: m.price_scale,
        tick_size: m.tick_size,
        min_order_size: m.min_order_size,
        fee_bps: m.fee_bps,
      },
    })),
  ];
  await runAsAdmin(ledger, keys.adminSeed, instructions);
}
