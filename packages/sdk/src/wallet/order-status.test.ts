import { describe, expect, it } from 'vitest';
import { ORDER_EVENT_KINDS, TERMINAL_ORDER_EVENTS, type OrderStatusResponse } from '@nightjar/protocol';
import {
  applyOrderEvent,
  eventKindBetween,
  isLiveStatus,
  isTerminal,
  statusFromLookup,
} from './order-status.js';
import type { TrackedOrder } from './wallet.js';

const order = (o: Partial<TrackedOrder> = {}): TrackedOrder => ({
  orderId: '44'.repeat(16),
  symbol: 'SOL-USDC',
  side: 'bid',
  noteCommitment: '55'.repeat(32),
  status: 'pending',
  baseMint: 'b',
  quoteMint: 'q',
  filledQuantity: 0n,
  ...o,
});
const lookup = (status: OrderStatusResponse['status'], filled = 0n, amount = 10n) =>
  ({ status, filled_quantity: filled, amount }) as OrderStatusResponse;

describe('the one order status mapping (16.5)', () => {
  it('a 404 frees the note only after a match', () => {
    expect(statusFromLookup(order(), undefined)).toBe('pending');
    expect(statusFromLookup(order(), undefined, 'free')).toBe('pending');
    expect(statusFromLookup(order({ status: 'pending_settlement' }), undefined)).toBe('settlement_failed');
    expect(statusFromLookup(order({ filledQuantity: 3n }), undefined)).toBe('settlement_failed');
    expect(statusFromLookup(order(), undefined, 'locked')).toBe('settlement_failed');
    expect(statusFromLookup(order(), undefined, 'spent')).toBe('settlement_failed');
  });

  it('lookup statuses', () => {
    expect(statusFromLookup(order({ status: 'pending_settlement' }), lookup('pending'))).toBe('pending');
    expect(statusFromLookup(order(), lookup('pending_settlement'))).toBe('pending_settlement');
    expect(statusFromLookup(order(), lookup('empty', 10n))).toBe('fully_filled');
    expect(statusFromLookup(order(), lookup('empty', 4n))).toBe('cancelled');
    expect(statusFromLookup(order(), lookup('expired'))).toBe('expired');
  });

  it('events: a terminal order stays terminal; the kind a change amounts to', () => {
    const o = order();
    applyOrderEvent(o, 'partially_filled', 4n);
    expect(o).toMatchObject({ status: 'pending', filledQuantity: 4n });
    applyOrderEvent(o, 'fully_filled', 10n);
    applyOrderEvent(o, 'pending_settlement', undefined);
    expect(o.status).toBe('fully_filled');
    const before = { status: 'pending' as const, filledQuantity: 0n };
    expect(eventKindBetween(before, { status: 'pending', filledQuantity: 4n })).toBe('partially_filled');
    expect(eventKindBetween(before, { status: 'pending', filledQuantity: 0n })).toBeUndefined();
    expect(eventKindBetween(before, { status: 'cancelled', filledQuantity: 0n })).toBe('cancelled');
  });

  it('isTerminal: one vocabulary for wallet states and stream event kinds, the venue’s terminal set', () => {
    for (const kind of ORDER_EVENT_KINDS)
      expect(isTerminal(kind), kind).toBe(TERMINAL_ORDER_EVENTS.has(kind));
    const states: TrackedOrder['status'][] = [
      'pending',
      'pending_settlement',
      'fully_filled',
      'cancelled',
      'expired',
      'settlement_failed',
    ];
    // Exactly the states that no longer hold a note are terminal.
    for (const s of states) expect(isTerminal(s), s).toBe(!isLiveStatus(s));
    expect(isTerminal('partially_filled')).toBe(false);
  });
});
