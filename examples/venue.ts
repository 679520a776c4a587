/**
 * Shared setup of the examples: reads `nightjar start`'s ready.json (NIGHTJAR_DATA_DIR, default
 * ./.nightjar) and opens a verified client for a wallet. Credentials come from NIGHTJAR_API_KEY,
 * NIGHTJAR_API_SECRET and NIGHTJAR_PASSPHRASE, or the dev admin account of ready.json.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient, type Client, type Wallet } from '@nightjar/sdk';

export interface Ready {
  base_url: string;
  ledger_url: string;
  compose_hash: string;
  platform_root?: string;
  admin?: { api_key: string; api_secret: string; passphrase: string };
}

export const dataDir = process.env.NIGHTJAR_DATA_DIR ?? '.nightjar';

export function readReady(): Ready {
  return JSON.parse(readFileSync(join(dataDir, 'ready.json'), 'utf8')) as Ready;
}

/** A verified, logged-in client for `wallet`, with durable nonces under `stateDir`. */
export async function connect(wallet: Wallet, stateDir: string): Promise<Client> {
  const ready = readReady();
  if (!ready.platform_root) throw new Error('ready.json names no platform root: pin the real one');
  const credentials =
    process.env.NIGHTJAR_API_KEY && process.env.NIGHTJAR_API_SECRET && process.env.NIGHTJAR_PASSPHRASE
      ? {
          api_key: process.env.NIGHTJAR_API_KEY,
          api_secret: process.env.NIGHTJAR_API_SECRET,
          passphrase: process.env.NIGHTJAR_PASSPHRASE,
        }
      : ready.admin;
  if (!credentials) throw new Error('set NIGHTJAR_API_KEY, NIGHTJAR_API_SECRET and NIGHTJAR_PASSPHRASE');
  return createClient({
    baseUrl: ready.base_url,
    pinnedRoot: new Uint8Array(readFileSync(ready.platform_root)),
    composeHash: ready.compose_hash,
    ledgerUrl: ready.ledger_url,
    credentials,
    wallet,
    stateDir,
  });
}

/** Waits `ms`. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the wallet's note is in the engine's tree (finalized on the ledger), up to `ms`. */
export async function waitForInclusion(client: Client, commitment: string, ms = 60_000): Promise<void> {
  const { getInclusion, NotFoundError } = await import('@nightjar/sdk');
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      await getInclusion(client, { commitment });
      return;
    } catch (err) {
      if (!(err instanceof NotFoundError) || Date.now() > deadline) throw err;
      await sleep(1_000);
    }
  }
}
