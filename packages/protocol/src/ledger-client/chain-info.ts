/**
 * A client's view of the chain it signs for: `getChain` asked once per ledger client and kept
 * (the chain id never changes; the work bits only with the ledger's configuration).
 */
import type { LedgerClient } from './methods.js';
import type { ChainInfo } from './types.js';

const known = new WeakMap<object, Promise<ChainInfo>>();

/** The chain `ledger` serves, read once per client object; a failed read is not kept. */
export function chainInfo(ledger: Pick<LedgerClient, 'getChain'>): Promise<ChainInfo> {
  let info = known.get(ledger);
  if (!info) {
    info = ledger.getChain();
    known.set(ledger, info);
    info.catch(() => known.delete(ledger));
  }
  return info;
}
