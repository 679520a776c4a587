import type { Client } from '../client.js';
import { fundNotes } from '../notes/fund.js';
import type { JoinSplitProgress, JoinSplitReturnType } from '../notes/run-join-split.js';
import { withSendLock } from '../core/utils/send-lock.js';
import type { WalletNote } from '../wallet/wallet.js';
import {
  orderTerms,
  type NotePreparation,
  type OrderParameters,
  type OrderTerms,
} from '../orders/order-terms.js';
import { prepareOrder, signOrder } from '../orders/prepare-order.js';
import { submitOrder, type PlacedOrder } from '../orders/submit-order.js';
import type { NightjarError } from '../core/errors/index.js';

/** Orders to place together (a ladder), and how to find their notes. */
export interface PlaceOrdersParameters {
  /** The orders, each as `placeOrder` takes it; sent in this order. */
  orders: readonly Omit<OrderParameters, 'prepareNote' | 'onNoteProgress'>[];
  /**
   * How the orders without a named `note` get theirs (default `auto`): an exact free note each
   * first; then, with `auto`, a larger note each when there are enough for all of them; else
   * join-splits make an exact note for every other order (one split makes up to 8 notes, or 7 and
   * the remainder; more orders chain further splits on the remainder). `exact` always splits
   * rather than use a larger note; `off` selects each order's note as `placeOrder` does.
   */
  prepareNote?: NotePreparation;
  /** Told each stage of every split, and each order as it is placed or fails. */
  onProgress?: (progress: PlaceOrdersProgress) => void;
}

/** Progress of `placeOrders`: a split's stages (`JoinSplitProgress`), then each order's outcome. */
export type PlaceOrdersProgress =
  | JoinSplitProgress
  | { stage: 'placed'; index: number; orderId: string }
  | { stage: 'failed'; index: number; error: Error };

/** One order's outcome. */
export type PlaceOrdersResult =
  { status: 'success'; result: PlacedOrder } | { status: 'failure'; error: Error };

/** Per order in the order given, and the splits made for them. */
export interface PlaceOrdersReturnType {
  results: PlaceOrdersResult[];
  splits: JoinSplitReturnType[];
}

/**
 * Places several orders at once, typically a ladder from one deposit: computes every order's
 * collateral, makes the notes the orders lack with as few join-splits as it can (one per mint for
 * up to 8 orders), then proves every order in parallel and sends them in the order given (nonces
 * increasing, as `placeOrder` does). Never throws for one order: each result is the accepted order
 * or its error, and what was placed stays placed.
 *
 * @example
 * const { results } = await placeOrders(client, {
 *   orders: ['149', '148', '147', '146', '145'].map((price) => ({
 *     symbol: 'SOL-USDC', side: 'bid', amount: '1', price,
 *   })),
 * });
 * for (const r of results) console.log(r.status === 'success' ? r.result.orderId : r.error.message);
 */
export async function placeOrders(
  client: Client,
  params: PlaceOrdersParameters,
): Promise<PlaceOrdersReturnType> {
  const mode = params.prepareNote ?? 'auto';
  const orders = params.orders;
  const results: (PlaceOrdersResult | undefined)[] = orders.map(() => undefined);
  const fail = (index: number, error: unknown) => {
    results[index] = { status: 'failure', error: error as Error };
    params.onProgress?.({ stage: 'failed', index, error: error as Error });
  };

  // Every order's collateral, then one plan per collateral mint for the orders without a note.
  const terms = await Promise.allSettled(orders.map((o) => orderTerms(client, o)));
  const byMint = new Map<string, { index: number; terms: OrderTerms }[]>();
  terms.forEach((t, index) => {
    if (t.status === 'rejected') return fail(index, t.reason);
    if (mode === 'off' || orders[index]!.note) return;
    byMint.set(t.value.mint, [...(byMint.get(t.value.mint) ?? []), { index, terms: t.value }]);
  });
  const held: (WalletNote | undefined)[] = orders.map(() => undefined);
  const splits: JoinSplitReturnType[] = [];
  const named = new Set(orders.flatMap((o) => (o.note ? [o.note] : [])));
  await Promise.all(
    [...byMint].map(async ([mint, group]) => {
      try {
        const r = await fundNotes(client, {
          mint,
          amounts: group.map((g) => g.terms.required),
          allowLarger: mode === 'auto',
          exclude: named,
          ...(params.onProgress ? { onProgress: params.onProgress } : {}),
        });
        splits.push(...r.splits);
        r.funded.forEach((f, j) => {
          if (f.status === 'success') held[group[j]!.index] = f.note;
          else fail(group[j]!.index, f.error);
        });
      } catch (error) {
        for (const g of group) fail(g.index, error);
      }
    }),
  );

  // Prove every order at once; send in the order given.
  let sending: Promise<void> = Promise.resolve();
  orders.forEach((order, index) => {
    if (results[index]) return;
    const note = held[index];
    const prepared = prepareOrder(
      client,
      { ...order, prepareNote: mode },
      { sign: false, ...(note ? { held: note } : {}) },
    );
    prepared.catch(() => undefined); // handled in turn below
    sending = sending.then(async () => {
      try {
        const { body, note: backing } = await prepared;
        const placed = await withSendLock(client, () =>
          submitOrder(client, signOrder(client, body), backing.commitment),
        ).finally(() => client.wallet.reserved.delete(backing.commitment));
        results[index] = { status: 'success', result: placed };
        params.onProgress?.({ stage: 'placed', index, orderId: placed.orderId });
      } catch (error) {
        fail(index, error);
      }
    });
  });
  await sending;
  return { results: results as PlaceOrdersResult[], splits };
}

/** What `placeOrders` throws: the SDK's typed errors (`NightjarError` and its subclasses). */
export type PlaceOrdersErrorType = NightjarError;
