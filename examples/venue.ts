/**
 * Shared setup of the examples: reads `nightjar start`'s ready.json (NIGHTJAR_DATA_DIR, default
 * ./.nightjar), opens the example's own wallet file and a verified client for its own trading
 * account. The account comes from NIGHTJAR_API_KEY, NIGHTJAR_API_SECRET and NIGHTJAR_PASSPHRASE;
 * else, on a dev venue, the example creates one with the dev admin of ready.json (`createAccount`,
 * once) and keeps it beside its wallet (`<name>.account.json`, mode 0600): the examples never
 * trade as the admin, whose account the demo traders' venue shares.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addressToBase58, bytesToHex, createSecretFile, ed25519PublicKey } from '@nightjar/protocol';
import {
  createAccount,
  createClient,
  createWallet,
  type Client,
  type Credentials,
  type Wallet,
} from '@nightjar/sdk';

export interface Ready {
  base_url: string;
  ledger_url: string;
  compose_hash: string;
  platform_root?: string;
  admin?: Credentials;
  /** Dev venues: the ledger's dev secret, which its faucet needs. */
  ledger_dev_secret?: string;
}

export const dataDir = process.env.NIGHTJAR_DATA_DIR ?? '.nightjar';

export function readReady(): Ready {
  return JSON.parse(readFileSync(join(dataDir, 'ready.json'), 'utf8')) as Ready;
}

/** What every client of this venue pins, from ready.json. */
function venue(ready: Ready) {
  if (!ready.platform_root) throw new Error('ready.json names no platform root: pin the real one');
  return {
    baseUrl: ready.base_url,
    pinnedRoot: new Uint8Array(readFileSync(ready.platform_root)),
    composeHash: ready.compose_hash,
    ledgerUrl: ready.ledger_url,
    ...(ready.ledger_dev_secret ? { ledgerDevSecret: ready.ledger_dev_secret } : {}),
  };
}

/** The example's wallet file (`<name>.wallet`), opened when it exists, else created. */
export function openWallet(name: string): Wallet {
  return createWallet({
    path: join(dataDir, `${name}.wallet`),
    password: process.env.WALLET_PASSWORD ?? 'example only',
  });
}

/** The example's own trading account (see the module comment). */
export async function accountFor(name: string): Promise<Credentials> {
  const {
    NIGHTJAR_API_KEY: api_key,
    NIGHTJAR_API_SECRET: api_secret,
    NIGHTJAR_PASSPHRASE: passphrase,
  } = process.env;
  if (api_key && api_secret && passphrase) return { api_key, api_secret, passphrase };
  const file = join(dataDir, `${name}.account.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Credentials;
  const ready = readReady();
  if (!ready.admin)
    throw new Error('not a dev venue: set NIGHTJAR_API_KEY, NIGHTJAR_API_SECRET and NIGHTJAR_PASSPHRASE');
  const admin = await createClient({ ...venue(ready), credentials: ready.admin });
  try {
    const created = await createAccount(admin, { label: `example-${name}` });
    writeFileSync(file, JSON.stringify(created), { mode: 0o600 });
    console.log(`created account ${created.account_id} for this example (${file})`);
    return created;
  } finally {
    await admin.close();
  }
}

/** A verified, logged-in client of the example's account for `wallet`, durable nonces in `<name>-state`. */
export async function connect(name: string, wallet: Wallet): Promise<Client> {
  return createClient({
    ...venue(readReady()),
    credentials: await accountFor(name),
    wallet,
    stateDir: join(dataDir, `${name}-state`),
  });
}

/** Waits `ms`. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A new ledger address to withdraw to, its key saved in the data directory (`NAME-withdrawal-
 * ADDRESS.key`, hex seed). A fresh address links the withdrawal to nothing; the wallet's funding
 * address would link it to every deposit (the SDK refuses it without `linkFundingAddress`).
 */
export function freshRecipient(name: string): string {
  const seed = new Uint8Array(randomBytes(32));
  const address = addressToBase58(ed25519PublicKey(seed));
  // A secret: 0600 in the private data directory, never over an existing file.
  if (!createSecretFile(join(dataDir, `${name}-withdrawal-${address}.key`), bytesToHex(seed) + '\n'))
    throw new Error(`a key file for ${address} already exists`);
  return address;
}
