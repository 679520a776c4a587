/**
 * A venue for SDK tests that need orders, fills and the stream but not real proofs: the engine's
 * harness (HTTPS, attestation, in-process ledger with a manual clock, the engine's stand-in proof
 * check), and SDK clients whose prover returns a stand-in proof.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validJoinSplitWitness, validSpendV2Witness } from '@nightjar/circuits';
import { COMMITMENT_LAG, type LedgerClient } from '@nightjar/ledger';
import type { Instrument } from '@nightjar/protocol';
import {
  createClient,
  createWallet,
  deposit,
  type Client,
  type CreateClientParameters,
  type Prover,
  type Wallet,
} from '@nightjar/sdk';
import type { TestVenue } from './engine-venue.js';

/** What an SDK client pins for a venue: its simulated root, its release, its ledger. */
export function pins(v: TestVenue) {
  return {
    rootCaDer: v.engine.attestation.rootCa!.der,
    composeHash: v.engine.attestation.identity.compose_hash,
    ledger: v.ledger,
  };
}

/**
 * Proofs the harness's engine and ledger accept (they check only the first byte). A join-split's and a withdrawal's
 * witnesses are computed for real (the SDK needs their outputs), with the same checks as the prover's.
 */
export const standInProver: Prover = {
  proveValidInputV2: async () => ({ proof: new Uint8Array(256).fill(0x11), publicInputs: [] }),
  proveValidSpendV2: async (req) => {
    const { publicInputs, change } = validSpendV2Witness(req);
    return { proof: new Uint8Array(256).fill(0x11), publicInputs, change };
  },
  proveValidJoinSplit: async (req) => {
    const { publicInputs, inputs, outputs } = validJoinSplitWitness(req);
    return { proof: new Uint8Array(256).fill(0x11), publicInputs, inputs, outputs };
  },
  close: async () => undefined,
};

export const FAST_SCRYPT = { N: 1024, r: 8, p: 1 };

export interface Party {
  wallet: Wallet;
  client: Client;
  path: string;
}

/**
 * A fresh account with a wallet file and a client (optionally over a wrapped ledger). `client`
 * adds or overrides createClient's parameters; with `ledgerUrl` among them, the client reads that
 * JSON-RPC ledger instead of the venue's in-process one.
 */
export async function newParty(
  v: TestVenue,
  options: {
    ledger?: (l: LedgerClient) => LedgerClient;
    path?: string;
    seed?: Uint8Array;
    client?: Partial<CreateClientParameters>;
  } = {},
): Promise<Party> {
  const { credentials } = await v.newAccount();
  const path = options.path ?? join(mkdtempSync(join(tmpdir(), 'sdk-fast-')), 'w.wallet');
  const wallet = createWallet({
    path,
    password: 'pw',
    scrypt: FAST_SCRYPT,
    ...(options.seed ? { seed: options.seed } : {}),
  });
  const p = pins(v);
  const client = await createClient({
    baseUrl: v.engine.url,
    pinnedRoot: p.rootCaDer,
    composeHash: p.composeHash,
    ...(options.client?.ledgerUrl ? {} : { ledger: options.ledger ? options.ledger(v.ledger) : v.ledger }),
    credentials,
    wallet,
    prover: standInProver,
    backoff: { attempts: 1 },
    ...options.client,
  });
  return { wallet, client, path };
}

/**
 * Airdrops and deposits `amount` atomic units of `mint` (not finalized: the clock is the test's, so
 * the deposit resolves once landed, or with `wait: 'sent'` once sent).
 */
export async function fund(
  party: Party,
  v: TestVenue,
  mint: string,
  amount: bigint,
  wait: 'landed' | 'sent' = 'landed',
) {
  await v.ledger.requestAirdrop({
    owner: party.wallet.keys.funding.address,
    mint,
    amount: amount.toString(),
  });
  return (await deposit(party.client, { mint, amount, wait })).note;
}

/** Lets the chain finalize what landed and the engine's mirror apply it. */
export async function finalize(v: TestVenue): Promise<void> {
  await v.advance(COMMITMENT_LAG.finalized + 1);
  await v.engine.context.trees.checkAgainstChain();
}

/**
 * Advances the chain slot by slot until `condition` holds (settlement runs on slots; the engine's
 * settlement pipeline works between them).
 */
export async function advanceUntil(
  v: TestVenue,
  condition: () => boolean | Promise<boolean>,
  what: string,
  maxMs = 20_000,
): Promise<void> {
  const deadline = performance.now() + maxMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await v.advance(1);
    await new Promise((r) => setTimeout(r, 15));
  }
}

/** One base unit and a price, in atomic units, for `inst`. */
export function units(inst: Instrument) {
  return {
    one: 10n ** BigInt(inst.base_decimals),
    price: (p: number) => BigInt(p) * 10n ** BigInt(inst.quote_decimals),
  };
}
