/**
 * Start-up: what the engine follows of the ledger: the slot and signer set (polled), the markets,
 * the finalized tree mirror and the nullifier mirror (started later, with settlement).
 */
import type { LedgerClient } from '@nightjar/ledger';
import { ChainView } from '../chain-view.js';
import { MarketRegistry } from '../markets.js';
import { NoteStateMirror } from '../note-states.js';
import { TreeMirror } from '../tree-mirror.js';

export interface LedgerViews {
  chain: ChainView;
  markets: MarketRegistry;
  trees: TreeMirror;
  notes: NoteStateMirror;
}

export async function followLedger(
  ledger: LedgerClient,
  warn: (msg: string, fields?: object) => void,
  ownMarkets?: readonly string[],
): Promise<LedgerViews> {
  const chain = new ChainView(ledger);
  await chain.start();
  chain.startPolling();
  const markets = await MarketRegistry.load(ledger, ownMarkets);
  const trees = new TreeMirror(ledger);
  await trees.start(chain.numTrees);
  const notes = new NoteStateMirror(ledger, warn);
  return { chain, markets, trees, notes };
}
