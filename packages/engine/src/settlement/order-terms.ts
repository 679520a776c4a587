/**
 * An order's terms as DESIGN 3's order digest binds them (contract A): the market id split like a
 * mint, the side, the amount left, limit, min fill, expiry and the 128-bit order id. Intake binds
 * the client's VALID_INPUT proof to them (the use tag), VALID_MATCH opens them, and a change
 * note's VALID_LOCK binds its remainder's.
 */
import { marketToFields, noteUseTag, orderDigest, orderIdToField, type OrderTerms } from '@nightjar/crypto';
import { fieldToHex, hexToBytes, parseAddress } from '@nightjar/protocol';
import type { BookOrder } from '../book/types.js';
import type { PlannedTerms } from './types.js';

/** The circuit terms of an order of `marketId` whose amount left is `terms.amount`. */
export function circuitTerms(
  marketId: string,
  side: 'bid' | 'ask',
  orderId: string,
  terms: PlannedTerms,
): OrderTerms {
  return {
    ...marketToFields(parseAddress(marketId)!),
    side: side === 'bid' ? 0 : 1,
    amount: BigInt(terms.amount),
    priceLimit: BigInt(terms.priceLimit),
    minFillSize: BigInt(terms.minFillSize),
    expirySlot: BigInt(terms.expirySlot),
    orderId: orderIdToField(hexToBytes(orderId)),
  };
}

/** A book order's terms now (its `amount` is what is left). */
export function plannedTerms(
  o: Pick<BookOrder, 'amount' | 'priceLimit' | 'minFillSize' | 'expirySlot'>,
): PlannedTerms {
  return {
    amount: o.amount.toString(),
    priceLimit: o.priceLimit.toString(),
    minFillSize: o.minFillSize.toString(),
    expirySlot: o.expirySlot.toString(),
  };
}

/** The note's use tag for an order (hex): Poseidon(8, commitment, inner, order digest). */
export function useTagFor(commitmentHex: string, innerHex: string, terms: OrderTerms): string {
  return fieldToHex(noteUseTag(BigInt('0x' + commitmentHex), BigInt('0x' + innerHex), orderDigest(terms)));
}
