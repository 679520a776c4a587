/**
 * Every order the engine knows this boot: live ones (resting or settlement-pending), a bounded
 * window of recently terminal ones (the spec lets old terminal orders age out), the collateral
 * reservations (one live order per note commitment) and the two nonce counters per trading key.
 * Single writer: only the engine's intake and market loops call the mutating methods.
 */
import type { EngineOrder } from './engine-order.js';

export const RECENT_TERMINAL_CAPACITY = 100_000;

export class OrderRegistry {
  private readonly live = new Map<string, EngineOrder>();
  /** Insertion-ordered: the oldest terminal order is evicted first. */
  private readonly terminal = new Map<string, EngineOrder>();
  private readonly reservations = new Map<string, string>();
  private readonly arrivalNonces = new Map<string, bigint>();
  private readonly cancelNonces = new Map<string, bigint>();

  constructor(private readonly terminalCapacity = RECENT_TERMINAL_CAPACITY) {}

  get(orderId: string): EngineOrder | undefined {
    return this.live.get(orderId) ?? this.terminal.get(orderId);
  }

  getLive(orderId: string): EngineOrder | undefined {
    return this.live.get(orderId);
  }

  liveOrders(): IterableIterator<EngineOrder> {
    return this.live.values();
  }

  get liveCount(): number {
    return this.live.size;
  }

  /** The live order holding this note commitment, if any. */
  reservedBy(noteCommitment: string): string | undefined {
    return this.reservations.get(noteCommitment);
  }

  lastArrivalNonce(tradingKey: string): bigint | undefined {
    return this.arrivalNonces.get(tradingKey);
  }

  lastCancelNonce(tradingKey: string): bigint | undefined {
    return this.cancelNonces.get(tradingKey);
  }

  recordArrivalNonce(tradingKey: string, nonce: bigint): void {
    this.arrivalNonces.set(tradingKey, nonce);
  }

  recordCancelNonce(tradingKey: string, nonce: bigint): void {
    this.cancelNonces.set(tradingKey, nonce);
  }

  addLive(order: EngineOrder): void {
    // A reclaimed id (modify in place) replaces its own terminal record.
    this.terminal.delete(order.orderId);
    this.live.set(order.orderId, order);
    this.reservations.set(order.noteCommitment, order.orderId);
  }

  /** Moves a live order to the terminal window with its final lookup status. */
  retire(order: EngineOrder, lifecycle: EngineOrder['lifecycle']): void {
    order.lifecycle = lifecycle;
    if (this.live.get(order.orderId) === order) this.live.delete(order.orderId);
    if (this.reservations.get(order.noteCommitment) === order.orderId)
      this.reservations.delete(order.noteCommitment);
    this.terminal.set(order.orderId, order);
    if (this.terminal.size > this.terminalCapacity) {
      const oldest = this.terminal.keys().next().value as string;
      this.terminal.delete(oldest);
    }
  }

  /** A partial fill moved the order onto its change note: the reservation follows it. */
  rekeyNote(order: EngineOrder, newCommitment: string): void {
    if (this.reservations.get(order.noteCommitment) === order.orderId)
      this.reservations.delete(order.noteCommitment);
    order.noteCommitment = newCommitment;
    this.reservations.set(newCommitment, order.orderId);
  }

  /** Forgets an order entirely (a definitive settlement failure removes it from the lookup). */
  forget(order: EngineOrder): void {
    if (this.live.get(order.orderId) === order) this.live.delete(order.orderId);
    this.terminal.delete(order.orderId);
    if (this.reservations.get(order.noteCommitment) === order.orderId)
      this.reservations.delete(order.noteCommitment);
  }
}
