/** Where this wallet's deposits came from: an address a withdrawal should not pay. */
import type { Wallet } from './wallet.js';

/**
 * The addresses that funded this wallet's deposits: its funding key's (deposits are signed by it
 * alone). A withdrawal paid there is public proof that the two belong together.
 */
export function fundingAddresses(wallet: Wallet): string[] {
  return [wallet.keys.funding.address];
}
