/** A fill's size, quote amount, price and fee, read once from its verified memo. */
import type { FillMemo } from '@nightjar/crypto';
import { bytesToHex } from '@nightjar/protocol';
import { knownInstrument } from '../core/utils/asset-registry.js';
import type { WalletFillEvent } from './events.js';
import type { TrackedOrder, WalletNote } from './types.js';

/**
 * The fill event of `order` from its memo: the consumed note paid `consumed - change - fee` (quote
 * for a bid, base for an ask) and the trade-out is the other side; the price is the smallest on
 * the tick with `quote = floor(size × price / price_scale)`.
 */
export function fillEvent(
  order: TrackedOrder,
  memo: FillMemo,
  consumed: WalletNote,
  notes: WalletNote[],
): WalletFillEvent {
  const spent = consumed.amount - memo.changeAmount - memo.feeAmount;
  const [size, quote] = order.side === 'bid' ? [memo.tradeAmount, spent] : [spent, memo.tradeAmount];
  const inst = knownInstrument(order.symbol);
  let price: bigint | undefined;
  if (inst && size > 0n) {
    const p = (quote * inst.price_scale + size - 1n) / size;
    price = ((p + inst.tick_size - 1n) / inst.tick_size) * inst.tick_size;
  }
  return {
    orderId: bytesToHex(memo.orderId),
    matchId: memo.matchId.toString(),
    order,
    size,
    quote,
    price,
    fee: memo.feeAmount,
    feeMint: consumed.mint,
    consumed,
    notes,
    memo,
  };
}
