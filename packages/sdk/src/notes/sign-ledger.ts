/**
 * Signing ledger transactions as the SDK's keys: every transaction is signed for the client's
 * ledger's chain (its `chain_id`, read once per client), and a fresh signer's (no landed
 * successful transaction) carries the ledger's small proof of work, its nonce ground by
 * `signTransaction` (docs/ledger.md, "Transactions").
 */
import { randomBytes } from 'node:crypto';
import {
  chainInfo,
  signTransaction,
  type Instruction,
  type Transaction,
} from '@nightjar/protocol/ledger-client';
import type { Client } from '../client.js';

/** Funding keys known to have history, per ledger client: history never goes away. */
const seasoned = new WeakMap<object, Set<string>>();

/**
 * Signs `instruction` as the wallet's funding key with the nonce after its last: with the work
 * while the key has no landed successful transaction (its first deposit; or after only failed ones).
 * Call under the funding lock, like every use of the key's nonce.
 */
export async function signAsFunding(client: Client, instruction: Instruction): Promise<Transaction> {
  const funding = client.wallet.keys.funding;
  const chain = await chainInfo(client.ledger);
  const last = await client.ledger.getNonce({ signer: funding.address });
  const fresh = last === null || !(await hasHistory(client, funding.address));
  return signTransaction(funding.seed, BigInt(last ?? '0') + 1n, instruction, chain, { fresh });
}

/**
 * Signs `instruction` with a new one-time key (a join-split, a withdrawal: nothing links it to the wallet),
 * which is fresh by definition: it carries the work.
 */
export async function signAsOneTimeKey(client: Client, instruction: Instruction): Promise<Transaction> {
  const chain = await chainInfo(client.ledger);
  return signTransaction(Uint8Array.from(randomBytes(32)), 1n, instruction, chain, { fresh: true });
}

/** A funding key has history once one of its deposits landed (a withdrawal needs a note it deposited). */
async function hasHistory(client: Client, address: string): Promise<boolean> {
  let known = seasoned.get(client.ledger);
  if (!known) seasoned.set(client.ledger, (known = new Set()));
  if (known.has(address)) return true;
  const { deposits } = await client.ledger.getDeposits({ owner: address });
  if (deposits.length > 0) known.add(address);
  return deposits.length > 0;
}
