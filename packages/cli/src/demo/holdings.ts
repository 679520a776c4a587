/**
 * What one side of a demo trader holds, as the round's plan needs it. Value in flight counts as
 * tied: a note a fill is consuming (`spending`) counts nowhere in the wallet's balances until the
 * fill's outputs arrive, and a partly filled ask's remainder comes back as a new note with the
 * fill's memo; counted as gone, the trader would refill a side whose value is on its way back.
 */
import type { Wallet, WalletNote } from '@nightjar/sdk';
import type { Side } from './quote-plan.js';

export interface SideHoldings {
  free: WalletNote[];
  tied: bigint;
  /** A fill of this side's orders was heard and its memo (with the outputs) has not arrived. */
  awaitingMemo: boolean;
}

export function sideHoldings(wallet: Wallet, mint: string, side: Side): SideHoldings {
  const b = wallet.balances()[mint];
  let spending = 0n;
  for (const n of wallet.unspentNotes())
    if (n.mint === mint && n.state === 'spending' && !wallet.orderBacking(n.commitment)) spending += n.amount;
  let awaitingMemo = false;
  for (const f of wallet.fills.values())
    if (
      f.size === undefined &&
      f.settlement.outcome !== 'failed' &&
      wallet.orders.get(f.orderId)?.side === side
    )
      awaitingMemo = true;
  return {
    free: wallet.freeNotes(mint),
    tied: (b ? b.locked + b.pendingSettlement + b.pending : 0n) + spending,
    awaitingMemo,
  };
}
