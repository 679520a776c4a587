/**
 * The wallet follows the stream. Built on the stream connection's events alone (it subscribes to
 * them), it delivers the events a program sees, each once the wallet has taken it in:
 * - `order`: applied to the tracked order through the one status mapping (`order-status.ts`)
 *   before it is delivered; an order that ended has its note's state read from the ledger.
 * - `fill`: the memo is decrypted and its outputs stored once they are known leaves; when one is
 *   not, the wallet reads only the leaves it lacks of the shard the event names (`syncShard`),
 *   never every shard. Delivered with `stored`.
 * - `reconnected`: every tracked live order is re-read (`refreshOrder`), the event each one's
 *   state implies is delivered with `source: 'resync'` when it differs from the last one seen,
 *   the wallet is synced from the ledger, then `resync` and `reconnected` are delivered.
 * - `disconnected`: delivered at once (the connection is reconnecting).
 * - `tree`, `error`: delivered as received.
 */
import type { FillEvent, OrderEvent } from '@nightjar/protocol';
import type { Client } from './client.js';
import { refreshNoteStates } from './notes/note-states.js';
import { refreshOrder } from './orders/refresh-order.js';
import { syncWallet } from './actions/sync-wallet.js';
import { syncShard } from './notes/ledger-sync.js';
import { Listeners, type EventSource } from './core/stream/listeners.js';
import type { ReceivedEvent, ResyncReason, StreamClientEvent } from './core/stream/types.js';
import { applyOrderEvent, isLiveStatus, statusFromEvent } from './wallet/order-status.js';

/** The order events that say a settlement consumed the order's note. */
const FILL_KINDS: ReadonlySet<OrderEvent['kind']> = new Set(['partially_filled', 'fully_filled']);
/** Follows `received` into the client's wallet; returns the events to deliver. */
export function followStream(
  client: Client,
  received: EventSource<ReceivedEvent>,
): EventSource<StreamClientEvent> {
  return new StreamFollower(client, received).delivered;
}

class StreamFollower {
  readonly delivered = new Listeners<StreamClientEvent>();
  /** Last order event kind seen per live order, to infer what a disconnection hid. */
  private readonly seen = new Map<string, { kind: string; filled: bigint }>();
  /** Resyncs run one after another, each delivering its `resync` when done. */
  private resyncing: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: Client,
    received: EventSource<ReceivedEvent>,
  ) {
    received.on('order', ({ event, engine }) => this.onOrder(event, 'stream', engine));
    received.on('fill', ({ event, engine }) => void this.onFill(event, engine));
    received.on('disconnected', (e) => this.delivered.emit(e));
    received.on('reconnected', ({ reason, disconnectedAt, engine }) => {
      this.resyncing = this.resyncing.then(() => this.onReconnected(reason, disconnectedAt, engine));
    });
    received.on('tree', (e) => this.delivered.emit(e));
    received.on('error', (e) => this.delivered.emit(e));
  }

  private error(error: unknown): void {
    this.delivered.emit({ type: 'error', error: error as Error });
  }

  private onOrder(event: OrderEvent, source: 'stream' | 'resync', engine?: string): void {
    const filled = event.filled_quantity === undefined ? undefined : BigInt(event.filled_quantity);
    const prev = this.seen.get(event.order_id);
    // Kept for live orders only (a terminal event is an order's last), so the map stays bounded.
    if (isLiveStatus(statusFromEvent(event.kind)))
      this.seen.set(event.order_id, { kind: event.kind, filled: filled ?? prev?.filled ?? 0n });
    else this.seen.delete(event.order_id);
    const wallet = this.client.wallet;
    const o = wallet.orders.get(event.order_id);
    if (o) {
      const wasLive = isLiveStatus(o.status);
      wallet.updateOrder(o, () => applyOrderEvent(o, event.kind, filled));
      const note = wallet.notes.get(o.noteCommitment);
      // A confirmed fill consumed the order's note (settlement spends it whole; what rests goes
      // on a change note): out of use now, before the program hears of the fill, so a program
      // that stops at `fully_filled` leaves a wallet that never offers it again, though the fill's
      // memo or the ledger's word may come later.
      if (note && FILL_KINDS.has(event.kind) && (note.state === 'free' || note.state === 'locked'))
        note.state = 'spending';
      wallet.save();
      // It ended: its note's state is the ledger's (locked after a failed settlement, until the
      // lock expires; spent after a fill; free after a cancel).
      if (wasLive && !isLiveStatus(o.status) && note)
        refreshNoteStates(this.client, [note])
          .then(() => wallet.save())
          .catch((error: unknown) => this.error(error));
    }
    this.delivered.emit({ type: 'order', event, source, engine });
  }

  private async onFill(event: FillEvent, engine?: string): Promise<void> {
    let stored = false;
    try {
      const wallet = this.client.wallet;
      const o = wallet.orders.get(event.order_id);
      const mints = o ? [o.baseMint, o.quoteMint] : [];
      let r = wallet.ingestMemo(event.memo, mints);
      // An output is not a known leaf yet: read what the wallet lacks of the event's shard.
      if (r.status === 'unverified') {
        await syncShard(this.client, event.tree_id);
        r = wallet.ingestMemo(event.memo, mints);
      }
      stored = r.status === 'stored';
      // The consumed note is `spending` now; the ledger says whether it is spent.
      if (r.status === 'stored') await refreshNoteStates(this.client, [r.consumed]);
      wallet.save();
    } catch (error) {
      this.error(error);
    }
    this.delivered.emit({ type: 'fill', event, stored, engine });
  }

  private async onReconnected(reason: ResyncReason, disconnectedAt: number, engine?: string): Promise<void> {
    await this.resync().catch((error: unknown) => this.error(error));
    this.delivered.emit({ type: 'resync', reason, engine });
    this.delivered.emit({ type: 'reconnected', reason, downtimeMs: Date.now() - disconnectedAt, engine });
  }

  /**
   * Re-reads every tracked live order through the one status mapping and delivers what the
   * disconnection hid; then syncs the wallet. An order whose lookup fails (5001, the network)
   * keeps its status and its note: the failure is delivered as an `error` event.
   */
  private async resync(): Promise<void> {
    const wallet = this.client.wallet;
    for (const o of wallet.orders.values()) {
      if (!isLiveStatus(o.status)) continue;
      let kind: OrderEvent['kind'] | undefined;
      try {
        kind = await refreshOrder(this.client, o);
      } catch (error) {
        this.error(error);
        continue;
      }
      wallet.save();
      if (!kind || this.seen.get(o.orderId)?.kind === kind) continue;
      this.onOrder(
        {
          channel: 'orders',
          seq: 0,
          order_id: o.orderId,
          market_id: '',
          server_time_ms: Date.now(),
          kind,
          filled_quantity: o.filledQuantity,
        },
        'resync',
      );
    }
    await syncWallet(this.client);
  }
}
