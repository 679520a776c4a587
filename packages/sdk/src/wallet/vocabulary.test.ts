import { describe, expect, it } from 'vitest';
import type { OrderStatusResponse } from '@nightjar/protocol';
import {
  ORDER_STATE_LABELS,
  orderStateOf,
  parseSide,
  sideWithLabel,
  stateWithLabel,
  trackedOrderState,
  venueOrderState,
} from './vocabulary.js';

const body = (status: OrderStatusResponse['status'], filled: bigint, amount = 10n) =>
  ({ status, filled_quantity: filled, amount }) as OrderStatusResponse;

describe('one vocabulary', () => {
  it("reads a side in the spec's words or the aliases buy and sell, any case", () => {
    expect(['bid', 'ask', 'buy', 'sell', 'BUY', 'Sell'].map(parseSide)).toEqual([
      'bid',
      'ask',
      'bid',
      'ask',
      'bid',
      'ask',
    ]);
    expect(parseSide('long')).toBeUndefined();
    expect(parseSide('constructor')).toBeUndefined();
  });

  it('labels sides and states as people read them', () => {
    expect(sideWithLabel('bid')).toBe('bid (Buy)');
    expect(sideWithLabel('ask')).toBe('ask (Sell)');
    expect(stateWithLabel('fully_filled')).toBe('fully_filled (Filled)');
    expect(ORDER_STATE_LABELS.pending).toBe('Open');
    expect(ORDER_STATE_LABELS.empty).toBe('Closed');
  });

  it('calls a resting order with a fill partially_filled', () => {
    expect(trackedOrderState({ status: 'pending', filledQuantity: 0n })).toBe('pending');
    expect(trackedOrderState({ status: 'pending', filledQuantity: 2n })).toBe('partially_filled');
    expect(trackedOrderState({ status: 'cancelled', filledQuantity: 2n })).toBe('cancelled');
  });

  it("reads the venue's empty as fully_filled when the whole amount filled, else keeps it", () => {
    expect(venueOrderState(body('empty', 10n))).toBe('fully_filled');
    expect(venueOrderState(body('empty', 4n))).toBe('empty');
    expect(venueOrderState(body('pending', 4n))).toBe('partially_filled');
    expect(venueOrderState(body('expired', 0n))).toBe('expired');
  });

  it("prefers the wallet's terminal word and reads a live order through its mapping", () => {
    expect(orderStateOf(body('empty', 4n), { status: 'settlement_failed', filledQuantity: 4n })).toBe(
      'settlement_failed',
    );
    expect(orderStateOf(body('empty', 10n), { status: 'pending', filledQuantity: 0n })).toBe('fully_filled');
    expect(orderStateOf(body('empty', 4n), { status: 'pending', filledQuantity: 0n })).toBe('cancelled');
    expect(orderStateOf(body('pending', 4n), { status: 'pending', filledQuantity: 0n })).toBe(
      'partially_filled',
    );
    expect(orderStateOf(body('empty', 10n), undefined)).toBe('fully_filled');
  });
});
