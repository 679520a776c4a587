/**
 * Genesis: a new ledger gets a vault, three demo mints and two demo markets, created by ordinary
 * signed transactions from the admin key. In dev mode that key is generated here, and it and the
 * fee owner's spending key are dev secrets kept in `<dataDir>/dev-admin.json` (mode 0600) so that a
 * restarted ledger, and `nightjar start`, can still act as admin. In production the operator
 * supplies the authority key (see genesis-authority.ts); nothing is generated or written.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ownerCommitment, randomFieldElement } from '@nightjar/crypto';
import {
  addressToBase58,
  bytesToHex,
  ed25519PublicKey,
  fieldToHex,
  hexToBytes,
  loadOrCreateSecretFile,
} from '@nightjar/protocol';
import {
  mintAddress,
  RPC_ERRORS,
  RpcError,
  chainInfo,
  signTransaction,
  type LedgerClient,
  type Instruction,
} from '@nightjar/protocol/ledger-client';
import type { Ledger } from './ledger.js';

/** What signing as the admin needs from a ledger, in process or over JSON-RPC. */
export type AdminLedger = Pick<LedgerClient, 'getChain' | 'getNonce' | 'sendTransaction' | 'getTransaction'>;

/** The genesis authority's secret side: its Ed25519 seed and the fee owner commitment it sets. */
export interface AuthorityKey {
  adminSeed: Uint8Array;
  feeOwnerCommitment: string;
}

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

/** The dev ledger's admin keys: `<dataDir>/dev-admin.json` (ours alone, 0600), made exclusively at first use. */
export function loadOrCreateDevKeys(dataDir: string | undefined): DevKeys {
  const make = () => ({ adminSeed: Uint8Array.from(randomBytes(32)), feeSpendingKey: randomFieldElement() });
  if (dataDir === undefined) return make();
  const text = loadOrCreateSecretFile(join(dataDir, 'dev-admin.json'), () => {
    const keys = make();
    return (
      JSON.stringify({
        admin_seed: bytesToHex(keys.adminSeed),
        fee_spending_key: fieldToHex(keys.feeSpendingKey),
      }) + '\n'
    );
  });
  const saved = JSON.parse(text) as { admin_seed: string; fee_spending_key: string };
  return { adminSeed: hexToBytes(saved.admin_seed), feeSpendingKey: BigInt('0x' + saved.fee_spending_key) };
}

/** Signs and lands instructions as the admin, in order, failing loudly on any error. */
export async function runAsAdmin(
  ledger: AdminLedger,
  adminSeed: Uint8Array,
  instructions: Instruction[],
): Promise<void> {
  const admin = addressToBase58(ed25519PublicKey(adminSeed));
  const chain = await chainInfo(ledger);
  const last = await ledger.getNonce({ signer: admin });
  let nonce = BigInt(last ?? '0');
  for (const [i, instruction] of instructions.entries()) {
    // Until initialize has landed the admin has no history (an earlier failed try does not count):
    // its first transaction carries the work. Later ones follow a successful one.
    const fresh = i === 0 && (last === null || instruction.name === 'initialize');
    const tx = signTransaction(adminSeed, nonce + 1n, instruction, chain, { fresh });
    nonce = BigInt(tx.nonce);
    await ledger.sendTransaction({ transaction: tx });
    const record = await ledger.getTransaction({ signature: tx.signature });
    if (!record || record.err)
      throw new Error(`genesis ${instruction.name} failed: ${record?.err?.message ?? 'did not land'}`);
  }
}

/** Initialises a new dev ledger; does nothing to one that already has a vault. */
export async function ensureDevGenesis(ledger: Ledger, keys: DevKeys): Promise<void> {
  if (ledger.isInitialized) return;
  const feeOwner = fieldToHex(ownerCommitment(keys.feeSpendingKey));
  await runAsAdmin(ledger, keys.adminSeed, genesisInstructions(feeOwner));
}

/** Initialises a ledger as the configured authority (production); does nothing once it has a vault. */
export async function ensureGenesis(
  ledger: AdminLedger & Pick<LedgerClient, 'getVault'>,
  authority: AuthorityKey,
): Promise<void> {
  const initialized = await ledger.getVault().then(
    () => true,
    (err: unknown) => {
      // getVault's only invalid-request answer: the vault does not exist yet.
      if (err instanceof RpcError && err.code === RPC_ERRORS.invalidRequest) return false;
      throw err;
    },
  );
  if (!initialized)
    await runAsAdmin(ledger, authority.adminSeed, genesisInstructions(authority.feeOwnerCommitment));
}

function genesisInstructions(feeOwnerCommitment: string): Instruction[] {
  return [
    {
      name: 'initialize',
      args: { fee_owner_commitment: feeOwnerCommitment, num_trees: DEV_NUM_TREES },
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
}
