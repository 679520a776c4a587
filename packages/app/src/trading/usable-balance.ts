/**
 * A mint's balance as a trader can act on it. The wallet calls a note "available" once its leaf is
 * on the ledger, but an order's input proof is built against the engine's tree, which takes the
 * leaf only when the ledger finalizes it (about 31 slots, some 13 s later); until then an order on
 * it is refused (1301). A deposit note on its fresh-note hold cannot back an order either. So
 * "usable" is what can back an order now; the rest of the free value is "arriving".
 */
import type { MintBalance, Wallet, WalletNote } from '@nightjar/sdk';

/** Atomic units of one mint, split by what the trader can do with them now. */
export interface UsableBalance {
  /** Free notes the engine's tree has, off any hold: they can back an order now. */
  usable: bigint;
  /** Free notes the engine's tree lacks (or on hold), and notes whose leaf has not landed yet. */
  arriving: bigint;
  /** Notes backing live orders, or chosen for an order being placed. */
  locked: bigint;
  /** Notes locked on the ledger while a match settles. */
  pendingSettlement: bigint;
}

const sum = (notes: readonly WalletNote[]) => notes.reduce((s, n) => s + n.amount, 0n);

/**
 * `mint`'s balance in `wallet`; `canBack(note)`: the engine's tree has the note and no hold keeps it.
 * `balances`: the wallet's balances per mint, read once by a caller that asks for several mints.
 */
export function usableBalance(
  wallet: Wallet,
  mint: string,
  canBack: (note: WalletNote) => boolean,
  balances: Record<string, MintBalance> = wallet.balances(),
): UsableBalance {
  const b: MintBalance = balances[mint] ?? {
    available: 0n,
    locked: 0n,
    pendingSettlement: 0n,
    pending: 0n,
  };
  const free = wallet.freeNotes(mint);
  const freeSum = sum(free);
  const usable = sum(free.filter(canBack));
  return {
    usable,
    arriving: b.pending + freeSum - usable,
    // The wallet's "available" less its free notes: the notes reserved for an order in flight.
    locked: b.locked + b.available - freeSum,
    pendingSettlement: b.pendingSettlement,
  };
}
