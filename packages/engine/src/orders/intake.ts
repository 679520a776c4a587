/**
 * Order intake: place, cancel and modify, each running the spec's checks in the spec's order, after
 * the caller has been admitted by the rate limit (`admit`, the front door: 1401 comes first).
 * Checks that await (proof verification) run first; everything after them (duplicate id, nonce,
 * collateral reservation, rate limit, booking) runs synchronously in one go, so two concurrent
 * requests can never both pass a check that only one of them may pass. The cryptographic checks
 * (opening, signatures, root window, proof) are crypto-checks.ts.
 */
import { isContributoryX25519, type OrderCheckItem, type OrderCheckOutcome } from '@nightjar/crypto';
import {
  bytesToHex,
  cancelSigningFields,
  modifyCancelFields,
  parseCancelBody,
  parseModifyBody,
  parseParam,
  queryParams,
  RATE_LIMIT,
  screenPlaceOrder,
  VenueError,
  type CancelResponse,
  type ModifyResponse,
  type PlaceOrderResponse,
  type ScreenedOrder,
  type ValidatedOrder,
} from '@nightjar/protocol';
import type { NoteState } from '../note-states.js';
import { CryptoChecks, type VerifiedNote } from './crypto-checks.js';
import type { EngineOrder } from './engine-order.js';
import type { AccountLimiter } from '../limits/account-limiter.js';
import type { MarketWriter } from './market-writer.js';
import type { OrderRegistry } from './order-registry.js';

/** Who is asking: the authenticated account (from the bearer token). */
export interface Caller {
  accountId: string;
}

export interface IntakeDeps {
  bootSessionId: string;
  currentSlot(): bigint;
  numTrees(): number;
  settlementBufferSlots: bigint;
  /** Each market's single writer, by symbol. */
  markets: Map<string, MarketWriter>;
  registry: OrderRegistry;
  /** Is `root` in the shard's recent-root window (and the shard healthy)? */
  isRecentRoot(treeId: number, rootHex: string): boolean;
  /**
   * The cryptographic intake steps of one order (opening 1006, Ed25519 1102, VALID_INPUT v2 1011),
   * run off the main thread in the verifier workers and batched there.
   */
  checkOrder(check: OrderCheckItem): Promise<OrderCheckOutcome>;
  rateLimiter: AccountLimiter;
  /** Undefined when trading is open; otherwise why new trading is paused (5001). */
  tradingPausedReason(): string | undefined;
  /** The note's state on the ledger, from the engine's nullifier mirror (note-states.ts). */
  noteState?(nullifier: string): { state: NoteState; lockedUntilSlot?: number };
  /** Seconds left of the account's cool-down after repeated failed locks, if it is in one. */
  lockFailureCoolDown?(accountId: string): number | undefined;
  /** Another engine's base URL for a market it writes (several engines, DESIGN 11). */
  servedAt?(symbol: string): Promise<string | undefined>;
}

/** Order operations and their weights in the per-account bucket (DESIGN.md section 9). */
export type OrderOperation = keyof typeof RATE_LIMIT.cost;

export interface PlaceOptions {
  /** Stream session that asked for cancel-on-disconnect. */
  cancelOnDisconnectSession?: string;
}

export class Intake {
  private readonly crypto: CryptoChecks;

  constructor(private readonly deps: IntakeDeps) {
    this.crypto = new CryptoChecks(deps);
  }

  private assertTradingOpen(): void {
    const reason = this.deps.tradingPausedReason();
    if (reason !== undefined) throw new VenueError(5001, reason);
  }

  /** An account whose orders kept failing their locks places nothing for a while (1401). */
  private assertNotCoolingDown(caller: Caller): void {
    const seconds = this.deps.lockFailureCoolDown?.(caller.accountId);
    if (seconds !== undefined)
      throw new VenueError(
        1401,
        `orders of this account failed their note locks repeatedly; retry in about ${Math.ceil(seconds)} s`,
        { retryAfterSeconds: seconds },
      );
  }

  /**
   * The note must be usable on the ledger: a spent note backs no collateral (1003); a note under a
   * lock is reserved by a settlement-pending order (1204). `ownLock`: the order being replaced holds
   * the lock on this very note, so only a spent note is refused.
   */
  private assertNoteUsable(nullifier: string, ownLock = false): void {
    const note = this.deps.noteState?.(nullifier);
    if (note?.state === 'spent')
      throw new VenueError(1003, 'the collateral note is spent on the ledger and backs nothing');
    if (note?.state === 'locked' && !ownLock)
      throw new VenueError(
        1204,
        `the collateral note is locked on the ledger until slot ${note.lockedUntilSlot ?? 'unknown'}`,
      );
  }

  /**
   * The front door of every order operation (place, modify, cancel, order reads), on REST and on
   * the stream: called right after the token check and before anything else is parsed or
   * verified, so an account over its limit costs the venue no signature or proof work. Takes the
   * operation's weight from the account's bucket, or refuses with 429 1401 and Retry-After.
   */
  async admit(caller: Caller, op: OrderOperation): Promise<void> {
    const r = await this.deps.rateLimiter.take(caller.accountId, RATE_LIMIT.cost[op]);
    if (!r.ok)
      throw new VenueError(1401, `rate limited; retry in about ${Math.ceil(r.retryAfterSeconds)} s`, {
        retryAfterSeconds: r.retryAfterSeconds,
      });
  }

  /** The cheap checks of a place body (1001 … 1012 but 1006 and 1102), as protocol defines them. */
  private screen(raw: unknown): ScreenedOrder {
    const market = (symbol: string) => this.deps.markets.get(symbol)?.instrument;
    const result = screenPlaceOrder(raw, {
      instrument: market,
      currentSlot: this.deps.currentSlot(),
      numTrees: this.deps.numTrees(),
      settlementBufferSlots: this.deps.settlementBufferSlots,
      isContributoryViewingKey: isContributoryX25519,
    });
    if (!result.ok) throw new VenueError(result.code, result.message);
    return result;
  }

  /** `screen`, and a market another engine writes is refused naming where it is served (1301). */
  private async screenHere(raw: unknown): Promise<ScreenedOrder> {
    try {
      return this.screen(raw);
    } catch (err) {
      const symbol = (raw as { symbol?: unknown } | null)?.symbol;
      if (!(err instanceof VenueError) || err.code !== 1301 || typeof symbol !== 'string') throw err;
      const url = await this.deps.servedAt?.(symbol).catch(() => undefined);
      if (url === undefined) throw err;
      throw new VenueError(1301, `${symbol} is served by the engine at ${url}; place its orders there`);
    }
  }

  private isResend(
    existing: EngineOrder | undefined,
    o: ValidatedOrder,
    caller: Caller,
  ): existing is EngineOrder {
    return (
      existing !== undefined &&
      existing.accountId === caller.accountId &&
      existing.digestHex === bytesToHex(o.digest) &&
      existing.signatureHex === o.trading_key_signature &&
      existing.ownerCommitment === o.owner_commitment &&
      existing.noteInnerHash === o.note_inner_hash &&
      existing.merkleRoot === o.merkle_root &&
      existing.validInputProof === o.valid_input_proof &&
      existing.treeId === o.tree_id &&
      existing.noteAmount === o.note_amount
    );
  }

  private toEngineOrder(
    o: ValidatedOrder,
    caller: Caller,
    { market }: MarketWriter,
    { nullifier, useTag }: VerifiedNote,
    options: PlaceOptions,
  ): EngineOrder {
    const slot = this.deps.currentSlot();
    return {
      seq: market.nextSeq(),
      orderId: o.order_id,
      accountId: caller.accountId,
      tradingKey: o.trading_key,
      ownerCommitment: o.owner_commitment,
      side: o.side,
      orderType: o.order_type,
      amount: o.amount,
      priceLimit: o.price_limit,
      minFillSize: o.min_fill_size,
      expirySlot: o.expiry_slot,
      arrivalSlot: slot,
      arrivalTick: market.nextTick,
      noteAmount: o.note_amount,
      status: 'pending',
      symbol: o.symbol,
      marketId: market.instrument.market_id,
      originalAmount: o.amount,
      filledQuantity: 0n,
      noteCommitment: o.note_commitment,
      noteInnerHash: o.note_inner_hash,
      nullifier,
      useTag,
      treeId: o.tree_id,
      viewingPubkey: o.viewing_pubkey,
      merkleRoot: o.merkle_root,
      validInputProof: o.valid_input_proof,
      digestHex: bytesToHex(o.digest),
      signatureHex: o.trading_key_signature,
      lifecycle: 'pending',
      ...(options.cancelOnDisconnectSession
        ? { cancelOnDisconnectSession: options.cancelOnDisconnectSession }
        : {}),
    };
  }

  /** `POST /orders` and `order.place` (the caller was admitted by `admit`). */
  async place(caller: Caller, raw: unknown, options: PlaceOptions = {}): Promise<PlaceOrderResponse> {
    this.assertTradingOpen();
    this.assertNotCoolingDown(caller);
    const screened = await this.screenHere(raw);
    const o = screened.order;
    // A byte-identical re-send passed every cryptographic check already, with these very bytes.
    const before = this.deps.registry.get(o.order_id);
    if (screened.failure === undefined && this.isResend(before, o, caller))
      return { order_id: before.orderId, status: 'accepted', arrival_slot: before.arrivalSlot };
    const note = await this.crypto.verifyOrder(screened, this.marketIdOf(o.symbol));
    if (o.session_id !== this.deps.bootSessionId)
      throw new VenueError(1205, 'order signed for another boot session; read /info and re-sign');

    // From here on: synchronous, so the checks and the booking are one atomic step.
    this.assertTradingOpen();
    const existing = this.deps.registry.get(o.order_id);
    if (this.isResend(existing, o, caller))
      return { order_id: existing.orderId, status: 'accepted', arrival_slot: existing.arrivalSlot };
    if (existing) throw new VenueError(1201, 'order_id is used by a different order');
    this.checkArrivalNonce(o);
    if (this.deps.registry.reservedBy(o.note_commitment) !== undefined) throw new VenueError(1204);
    this.assertNoteUsable(note.nullifier);
    const market = this.deps.markets.get(o.symbol)!;
    const order = this.toEngineOrder(o, caller, market, note, options);
    this.deps.registry.recordArrivalNonce(o.trading_key, o.arrival_nonce);
    market.add(order);
    return { order_id: order.orderId, status: 'accepted', arrival_slot: order.arrivalSlot };
  }

  /** A screened order's market id (screening refused an unknown symbol with 1301). */
  private marketIdOf(symbol: string): string {
    return this.deps.markets.get(symbol)?.instrument.market_id ?? '';
  }

  private checkArrivalNonce(o: ValidatedOrder): void {
    const last = this.deps.registry.lastArrivalNonce(o.trading_key);
    if (last !== undefined && o.arrival_nonce <= last)
      throw new VenueError(1202, `arrival_nonce must exceed ${last}`);
  }

  private checkCancelNonce(tradingKey: string, nonce: bigint): void {
    const last = this.deps.registry.lastCancelNonce(tradingKey);
    if (last !== undefined && nonce <= last) throw new VenueError(1202, `cancel_nonce must exceed ${last}`);
  }

  /** The caller's order, or the same 404 whether it is unknown or another account's. */
  private ownOrder(caller: Caller, orderId: string): EngineOrder {
    const order = this.deps.registry.get(orderId);
    if (!order || order.accountId !== caller.accountId) throw new VenueError(1301, 'no such order');
    return order;
  }

  private static parseOrderId(raw: string): string {
    return parseParam(queryParams.order_id, raw, 'order_id');
  }

  /** `GET /orders/{id}`: the caller's order (foreign orders are indistinguishable from unknown). */
  lookup(caller: Caller, rawOrderId: string): EngineOrder {
    return this.ownOrder(caller, Intake.parseOrderId(rawOrderId));
  }

  /** `DELETE /orders/{id}` and `order.cancel`. */
  async cancel(caller: Caller, rawOrderId: string, raw: unknown): Promise<CancelResponse> {
    const orderId = Intake.parseOrderId(rawOrderId);
    const parsed = parseCancelBody(raw);
    if (!parsed.ok) throw new VenueError(1001, parsed.message);
    const body = parsed.value;
    await this.crypto.verifyCancel(cancelSigningFields(orderId, body), body.trading_key_signature);
    // Synchronous from here: the order's state is read after the only await.
    const order = this.ownOrder(caller, orderId);
    if (order.tradingKey !== body.trading_key) throw new VenueError(1103);
    if (body.session_id !== this.deps.bootSessionId)
      throw new VenueError(1205, 'cancel signed for another boot session');
    this.checkCancelNonce(body.trading_key, body.cancel_nonce);
    if (order.lifecycle !== 'pending') throw new VenueError(1301, 'order is no longer resting');
    this.deps.registry.recordCancelNonce(body.trading_key, body.cancel_nonce);
    this.deps.markets.get(order.symbol)!.cancel(order);
    return { order_id: orderId, status: 'cancelled' };
  }

  /**
   * `PUT /orders/{id}` and `order.modify`: atomic cancel-and-replace. A replacement booked on a
   * cancel-on-disconnect session (`options`) is that session's; else it keeps the old order's.
   */
  async modify(
    caller: Caller,
    rawOrderId: string,
    raw: unknown,
    options: PlaceOptions = {},
  ): Promise<ModifyResponse> {
    this.assertTradingOpen();
    this.assertNotCoolingDown(caller);
    const oldId = Intake.parseOrderId(rawOrderId);
    const parsed = parseModifyBody(raw);
    if (!parsed.ok) throw new VenueError(1001, parsed.message);
    const body = parsed.value;
    this.ownOrder(caller, oldId);
    await this.crypto.verifyCancel(
      modifyCancelFields(oldId, body.cancel_nonce, body.replacement),
      body.cancel_signature,
    );
    const old = this.ownOrder(caller, oldId);
    if (old.tradingKey !== body.replacement.trading_key) throw new VenueError(1103);
    if (old.lifecycle !== 'pending') throw new VenueError(1301, 'order is no longer resting');
    if (body.replacement.symbol !== old.symbol)
      throw new VenueError(1001, 'replacement.symbol: must equal the old order’s symbol');
    const sameId = body.replacement.order_id === oldId;
    if (!sameId && this.deps.registry.getLive(body.replacement.order_id)) throw new VenueError(1203);

    const screened = this.screen(body.replacement);
    const o = screened.order;
    // The replacement carries its own proof, for its own terms: verified exactly like a place's.
    const note = await this.crypto.verifyOrder(screened, this.marketIdOf(o.symbol));
    if (o.session_id !== this.deps.bootSessionId)
      throw new VenueError(1205, 'replacement signed for another boot session');

    // Synchronous from here: preconditions again, then the whole swap or nothing.
    this.assertTradingOpen();
    if (old.lifecycle !== 'pending' || this.deps.registry.getLive(oldId) !== old)
      throw new VenueError(1301, 'order is no longer resting');
    if (!sameId) {
      if (this.deps.registry.getLive(o.order_id)) throw new VenueError(1203);
      if (this.deps.registry.get(o.order_id))
        throw new VenueError(1201, 'order_id is used by a different order');
    }
    this.checkArrivalNonce(o);
    this.checkCancelNonce(o.trading_key, body.cancel_nonce);
    const holder = this.deps.registry.reservedBy(o.note_commitment);
    if (holder !== undefined && holder !== oldId) throw new VenueError(1204);
    // The old order's note may still hold the engine's lock of a match that just failed (being released).
    this.assertNoteUsable(note.nullifier, holder === oldId);

    const market = this.deps.markets.get(o.symbol)!;
    const replacement = this.toEngineOrder(o, caller, market, note, {
      ...(old.cancelOnDisconnectSession ? { cancelOnDisconnectSession: old.cancelOnDisconnectSession } : {}),
      ...options,
    });
    this.deps.registry.recordArrivalNonce(o.trading_key, o.arrival_nonce);
    this.deps.registry.recordCancelNonce(o.trading_key, body.cancel_nonce);
    if (sameId) market.reclaim(old, replacement);
    else market.cancel(old);
    if (!sameId) market.add(replacement);
    return {
      order_id: replacement.orderId,
      status: 'accepted',
      arrival_slot: replacement.arrivalSlot,
      replaced_order_id: oldId,
    };
  }

  /** Server-initiated cancel (cancel-on-disconnect): no signature, the booked key is the authority. */
  cancelForSession(sessionId: string): number {
    let n = 0;
    for (const order of [...this.deps.registry.liveOrders()]) {
      if (order.cancelOnDisconnectSession === sessionId && order.lifecycle === 'pending') {
        this.deps.markets.get(order.symbol)!.cancel(order);
        n++;
      }
    }
    return n;
  }
}
