/**
 * What the wallet tells as it changes, so views (the app's orders and fills, the CLI's lines)
 * follow it instead of recomputing it: `note-stored` (a note joined the wallet), `fill` (a fill
 * memo was verified and stored: size, price and fee computed once, here), `order` (a tracked
 * order's state changed). Listeners run synchronously, after the wallet's state is updated; one
 * that throws is reported as a process warning and the wallet goes on.
 */
import process from 'node:process';
import type { FillMemo } from '@nightjar/crypto';
import type { TrackedOrder, WalletNote } from './types.js';

/** A note joined the wallet (a deposit, a fill's output, a split's or a withdrawal's change). */
export interface WalletNoteStoredEvent {
  note: WalletNote;
}

/** A fill of one of this wallet's orders, from its verified memo. Amounts are atomic units. */
export interface WalletFillEvent {
  orderId: string;
  /** The venue's match id (decimal). */
  matchId: string;
  /** The tracked order filled (its `symbol` and `side`). */
  order: TrackedOrder;
  /** Base quantity filled. */
  size: bigint;
  /** Quote amount exchanged: paid by a bid, received by an ask. */
  quote: bigint;
  /**
   * The clearing price (`price_limit` units: quote per base times `price_scale`), the smallest on
   * the tick that gives `quote` for `size`; undefined when the market's instrument is not known
   * in this process (no `getInstruments` nor order on it yet) or nothing was filled.
   */
  price: bigint | undefined;
  /** Fee paid, in `feeMint` (the collateral's mint: quote for a bid, base for an ask). */
  fee: bigint;
  feeMint: string;
  /** The note the fill consumed (now `spending`) and the notes it stored. */
  consumed: WalletNote;
  notes: WalletNote[];
  memo: FillMemo;
}

/** A tracked order's state changed: placed (`previous` undefined), a status or its filled quantity. */
export interface WalletOrderEvent {
  order: TrackedOrder;
  previous: Pick<TrackedOrder, 'status' | 'filledQuantity'> | undefined;
}

/** The wallet's events by name. */
export interface WalletEventMap {
  'note-stored': WalletNoteStoredEvent;
  fill: WalletFillEvent;
  order: WalletOrderEvent;
}

export type WalletEventName = keyof WalletEventMap;
export type WalletListener<K extends WalletEventName> = (event: WalletEventMap[K]) => void;

/** A typed listener set per event name. */
export class WalletEmitter {
  private readonly listeners: { [K in WalletEventName]: Set<WalletListener<K>> } = {
    'note-stored': new Set(),
    fill: new Set(),
    order: new Set(),
  };

  on<K extends WalletEventName>(name: K, listener: WalletListener<K>): () => void {
    this.listeners[name].add(listener);
    return () => this.off(name, listener);
  }

  off<K extends WalletEventName>(name: K, listener: WalletListener<K>): void {
    this.listeners[name].delete(listener);
  }

  emit<K extends WalletEventName>(name: K, event: WalletEventMap[K]): void {
    for (const l of [...this.listeners[name]]) {
      try {
        l(event);
      } catch (err) {
        // A view's failure must not stop the wallet mid-update (a fill half stored, a memo not
        // marked seen): it is reported as a process warning, never thrown into the wallet.
        const why = err instanceof Error ? err.message : String(err);
        process.emitWarning(`a wallet '${name}' listener threw: ${why}`, 'NightjarWalletListenerWarning');
      }
    }
  }
}
