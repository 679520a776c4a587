/**
 * The trader's side of the app: markets, balances, deposits (with the dev faucet), withdrawals,
 * the order ticket (preview without a proof, place with progress frames, cancel, modify) and
 * fills with their settlement, all in human units, on the SDK. What the venue never sends (an
 * order's ticket, a fill's price) the app remembers in its state directory.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { MAX_ORDER_LIFETIME_SLOTS, SETTLEMENT_BUFFER_SLOTS } from '@nightjar/protocol';
import {
  cancelOrder,
  deposit,
  isNightjarError,
  NightjarError,
  NIGHTJAR_ERROR__DEPOSIT_PENDING,
  NIGHTJAR_ERROR__LINKS_FUNDING_ADDRESS,
  formatPrice,
  formatUnits,
  waitForInclusion,
  getInstruments,
  isTerminal,
  modifyOrder,
  orderTerms,
  parsePrice,
  parseUnits,
  placeOrder,
  requestFaucet,
  syncWallet,
  withdraw,
  fundingAddresses,
  type BuildOrderParameters,
  type Client,
  type Instrument,
  type JoinSplitProgress,
  type OrderEvent,
  type ProofProgress,
  type SettlementStatusResponse,
  type StreamClientEvent,
  type TrackedOrder,
  type Wallet,
  type WalletFillEvent,
  type WalletNote,
} from '@nightjar/sdk';
import type {
  ApiError,
  AppEvent,
  BalanceView,
  DepositRequest,
  FaucetRequest,
  FaucetResult,
  FillView,
  MarketView,
  ModifyRequest,
  OrderPreview,
  OrderRequest,
  OrderView,
  TransferView,
  WithdrawRequest,
} from './api-types.js';
import { AppError, badRequest, toAppError } from './errors.js';
import type { AppState } from './state.js';
import type { VenueSession } from './venue.js';

/** An asset of the venue's markets. */
export interface Asset {
  symbol: string;
  mint: string;
  decimals: number;
}

/** What the app remembers of an order it placed (the venue never echoes the ticket). */
interface OrderRecord {
  order_id: string;
  market: string;
  side: 'buy' | 'sell';
  type: 'limit' | 'ioc' | 'fok';
  amount: string;
  price: string;
  created_at: number;
  expires_at?: number;
}

/** How long a deposit waits for its note to be usable (in the venue's tree): 31 slots and margin. */
const USABLE_WAIT_MS = 60_000;

type Progress = (stage: string, detail?: string) => void;

/** The order (or transfer) whose progress a prover call belongs to. */
const progressContext = new AsyncLocalStorage<Progress>();

const sideOf = (s: 'bid' | 'ask'): 'buy' | 'sell' => (s === 'bid' ? 'buy' : 'sell');

/** A join-split's stage as a progress detail. */
function splitDetail(p: JoinSplitProgress): string {
  switch (p.stage) {
    case 'proving':
      return `proving a note ${p.inputs.length === 1 ? 'split' : 'merge'}`;
    case 'sending':
      return 'sending the split to the ledger';
    case 'landed':
      return 'split landed, waiting until final';
    case 'usable':
      return 'the new notes are usable';
  }
}

/** A proof's start or end as the progress of the order (or transfer) it belongs to. */
function proofProgress(e: ProofProgress): void {
  const emit = progressContext.getStore();
  if (e.proof === 'valid_join_split') {
    if (e.stage === 'start') emit?.('preparing_note');
  } else emit?.(e.stage === 'start' ? 'proving' : 'sending');
}

function toParams(req: OrderRequest): BuildOrderParameters {
  return {
    symbol: req.market,
    side: req.side === 'buy' ? 'bid' : 'ask',
    type: req.type,
    amount: req.amount,
    price: req.price,
    ...(req.min_fill === undefined ? {} : { minFillSize: req.min_fill }),
    ...(req.expires_in_s === undefined ? {} : { expiry: { seconds: req.expires_in_s } }),
  };
}

// ---- the trader ------------------------------------------------------------------------------

export class Trader {
  private readonly orders: Map<string, OrderRecord>;
  private readonly fills: Map<string, FillView>;
  private instruments: Instrument[] | undefined;
  private syncing: Promise<unknown> | undefined;
  private balancesTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly venue: VenueSession,
    private readonly wallet: Wallet,
    private readonly state: AppState,
    private readonly emit: (e: AppEvent) => void,
  ) {
    this.orders = new Map(state.load<OrderRecord[]>('orders.json', []).map((o) => [o.order_id, o]));
    this.fills = new Map(state.load<FillView[]>('fills.json', []).map((f) => [f.fill_id, f]));
    // Every fill memo the wallet stores (from the stream or a sync) is a fill with its amounts.
    wallet.on('fill', (f) => this.onWalletFill(f));
  }

  /** A new client of the venue: its proofs tell the progress of the action they belong to. */
  attach(client: Client): void {
    client.onProof(proofProgress);
    this.instruments = undefined;
  }

  private async markets(client: Client): Promise<Instrument[]> {
    this.instruments ??= await getInstruments(client);
    return this.instruments;
  }

  async assets(client: Client): Promise<Asset[]> {
    const byMint = new Map<string, Asset>();
    for (const i of await this.markets(client)) {
      const [base = i.base_mint, quote = i.quote_mint] = i.symbol.split('-');
      byMint.set(i.base_mint, { symbol: base, mint: i.base_mint, decimals: i.base_decimals });
      byMint.set(i.quote_mint, { symbol: quote, mint: i.quote_mint, decimals: i.quote_decimals });
    }
    return [...byMint.values()];
  }

  private async asset(client: Client, name: string): Promise<Asset> {
    const all = await this.assets(client);
    const found = all.find((a) => a.mint === name || a.symbol.toUpperCase() === name.toUpperCase());
    if (!found)
      throw new AppError(
        400,
        'UNKNOWN_ASSET',
        `unknown asset ${name}`,
        `one of ${all.map((a) => a.symbol).join(', ')}`,
      );
    return found;
  }

  private async instrument(client: Client, symbol: string): Promise<Instrument> {
    const inst = (await this.markets(client)).find((i) => i.symbol === symbol);
    if (!inst) {
      const known = (await this.markets(client)).map((i) => i.symbol).join(', ');
      throw new AppError(404, 'UNKNOWN_MARKET', `unknown market ${symbol}`, `one of ${known}`);
    }
    return inst;
  }

  async marketViews(): Promise<MarketView[]> {
    const client = this.venue.require();
    const slotMs = client.slotMs;
    return (await this.markets(client)).map((i) => {
      const [base = i.base_mint, quote = i.quote_mint] = i.symbol.split('-');
      return {
        symbol: i.symbol,
        base: { symbol: base, mint: i.base_mint, decimals: i.base_decimals },
        quote: { symbol: quote, mint: i.quote_mint, decimals: i.quote_decimals },
        tick_size: formatPrice(i.tick_size, i),
        min_size: formatUnits(i.min_order_size, i.base_decimals),
        min_expiry_s: Math.ceil((Number(SETTLEMENT_BUFFER_SLOTS + 1n) * slotMs) / 1000),
        max_expiry_s: Math.floor((Number(MAX_ORDER_LIFETIME_SLOTS) * slotMs) / 1000),
        fee_bps: Number(i.fee_bps),
        trading_enabled: i.trading_enabled,
      };
    });
  }

  /** Syncs the wallet from the ledger (one sync at a time; callers meanwhile share it). */
  private sync(client: Client): Promise<unknown> {
    this.syncing ??= syncWallet(client, { refreshOrders: true }).finally(() => (this.syncing = undefined));
    return this.syncing;
  }

  async balances(options: { sync?: boolean } = {}): Promise<BalanceView[]> {
    const client = this.venue.require();
    if (options.sync ?? true) await this.sync(client);
    const assets = await this.assets(client);
    const mine = this.wallet.balances();
    const owner = this.wallet.keys.funding.address;
    return Promise.all(
      assets.map(async (a) => {
        const b = mine[a.mint] ?? { available: 0n, locked: 0n, pendingSettlement: 0n, pending: 0n };
        const funding = BigInt(await client.ledger.getBalance({ owner, mint: a.mint }));
        const f = (v: bigint) => formatUnits(v, a.decimals);
        return {
          asset: a.symbol,
          mint: a.mint,
          decimals: a.decimals,
          available: f(b.available),
          locked: f(b.locked),
          pending_settlement: f(b.pendingSettlement),
          pending_deposit: f(b.pending ?? 0n),
          funding: f(funding),
        };
      }),
    );
  }

  /** Tells the WebSocket the balances soon (one frame for a burst of changes). */
  private balancesSoon(): void {
    if (this.balancesTimer || this.closed) return;
    this.balancesTimer = setTimeout(() => {
      this.balancesTimer = undefined;
      this.balances({ sync: false }).then(
        (balances) => this.emit({ type: 'balances', balances }),
        () => undefined,
      );
    }, 250);
    this.balancesTimer.unref();
  }

  private progress(action: string, ref: string | undefined): Progress {
    return (stage, detail) =>
      this.emit({
        type: 'progress',
        ...(ref === undefined ? {} : { client_ref: ref }),
        action,
        stage,
        ...(detail === undefined ? {} : { detail }),
      });
  }

  /** Runs an action with progress frames, its failure told as a `failed` stage. */
  private async tracked<T>(progress: Progress, work: () => Promise<T>): Promise<T> {
    try {
      return await progressContext.run(progress, work);
    } catch (err) {
      const e = toAppError(err);
      this.venue.noteFailure(err);
      progress('failed', `${e.code}: ${e.message}`);
      throw err;
    }
  }

  private requireDev(): void {
    if (!this.venue.dev)
      throw new AppError(
        403,
        'DEV_ONLY',
        'the faucet exists on a dev venue only',
        "fund the wallet's funding account on the ledger, then deposit without `faucet`",
      );
  }

  async faucet(req: FaucetRequest): Promise<FaucetResult> {
    this.requireDev();
    const client = this.venue.require();
    const a = await this.asset(client, req.asset);
    const units = parseUnits(req.amount, a.decimals);
    if (units <= 0n) throw badRequest('`amount` must be positive');
    const owner = this.wallet.keys.funding.address;
    const { signature } = await client.ledger.requestAirdrop({
      owner,
      mint: a.mint,
      amount: units.toString(),
    });
    const funding = BigInt(await client.ledger.getBalance({ owner, mint: a.mint }));
    this.balancesSoon();
    return {
      asset: a.symbol,
      amount: formatUnits(units, a.decimals),
      amount_units: units.toString(),
      ledger_signature: signature,
      funding: formatUnits(funding, a.decimals),
    };
  }

  /** Deposits into a new note and resolves once it can back an order (in the venue's tree). */
  async deposit(req: DepositRequest & { client_ref?: string }): Promise<TransferView> {
    const client = this.venue.require();
    const a = await this.asset(client, req.asset);
    const units = parseUnits(req.amount, a.decimals);
    if (units <= 0n) throw badRequest('`amount` must be positive');
    if (req.faucet) this.requireDev();
    const progress = this.progress('deposit', req.client_ref);
    return this.tracked(progress, async () => {
      if (req.faucet) {
        progress('faucet');
        await requestFaucet(client, { mint: a.mint, amount: units });
      }
      let res: { note: WalletNote; signature: string; usable: boolean };
      try {
        res = await deposit(client, {
          mint: a.mint,
          amount: units,
          wait: 'usable',
          waitMs: USABLE_WAIT_MS,
          onProgress: (p) => {
            progress(p.stage, p.stage === 'landed' ? 'waiting until final (usable for orders)' : undefined);
            if (p.stage !== 'sending') this.balancesSoon();
          },
        });
      } catch (err) {
        // Landed, not final within the wait: the note is in the wallet and backs orders soon.
        if (!isNightjarError(err, NIGHTJAR_ERROR__DEPOSIT_PENDING)) throw err;
        const note = this.wallet.notes.get(err.context.commitment)!;
        res = { note, signature: err.context.signature, usable: false };
      }
      const { note, signature, usable } = res;
      this.balancesSoon();
      return {
        id: note.commitment,
        kind: 'deposit',
        asset: a.symbol,
        amount: formatUnits(units, a.decimals),
        amount_units: units.toString(),
        ledger_signature: signature,
        state: usable ? 'usable' : 'landed',
      };
    });
  }

  /**
   * Withdraws any amount of a free balance to the recipient the user typed, in one transaction
   * signed by a one-time key; the rest of the note stays in the wallet as a change note. A
   * recipient that funded this wallet's deposits is refused (409 LINKS_FUNDING_ADDRESS, saying what
   * it links) unless `confirm_funding_link` is true.
   */
  async withdraw(req: WithdrawRequest): Promise<TransferView> {
    const client = this.venue.require();
    const a = await this.asset(client, req.asset);
    const units = parseUnits(req.amount, a.decimals);
    if (units <= 0n) throw badRequest('`amount` must be positive');
    const linkFundingAddress = req.confirm_funding_link === true;
    // Refused before anything is synced or proved (the SDK would refuse it too).
    if (fundingAddresses(this.wallet).includes(req.recipient) && !linkFundingAddress)
      throw new NightjarError(NIGHTJAR_ERROR__LINKS_FUNDING_ADDRESS, { recipient: req.recipient });
    const progress = this.progress('withdrawal', req.client_ref);
    return this.tracked(progress, async () => {
      progress('syncing');
      await this.sync(client);
      // The note paid from must be in the venue's tree (a fresh change note may not be yet).
      const from = this.wallet
        .freeNotes(a.mint)
        .filter((n) => n.amount >= units)
        .sort((x, y) => (x.amount < y.amount ? -1 : x.amount > y.amount ? 1 : 0))[0];
      if (from) await waitForInclusion(client, { commitment: from.commitment, timeoutMs: USABLE_WAIT_MS });
      progress('proving');
      const res = await withdraw(client, {
        ...(from ? { commitment: from.commitment } : { mint: a.mint }),
        amount: units,
        recipient: req.recipient,
        linkFundingAddress,
      });
      progress('landed');
      this.balancesSoon();
      return {
        id: res.note.commitment,
        kind: 'withdrawal',
        asset: a.symbol,
        amount: formatUnits(units, a.decimals),
        amount_units: units.toString(),
        ledger_signature: res.signature,
        recipient: res.recipient,
        ...(res.change ? { change_units: res.change.amount.toString() } : {}),
        state: 'landed',
      };
    });
  }

  // ---- orders --------------------------------------------------------------------------------

  /** The exact conversion and the venue's rules, without a note, a proof or a request. */
  async preview(req: OrderRequest): Promise<OrderPreview> {
    const client = this.venue.require();
    const inst = await this.instrument(client, req.market);
    const errors: ApiError['error'][] = [];
    const tryIt = <T>(f: () => T): T | undefined => {
      try {
        return f();
      } catch (err) {
        errors.push(toAppError(err).body().error);
        return undefined;
      }
    };
    const amount = tryIt(() => parseUnits(req.amount, inst.base_decimals, 'amount')) ?? 0n;
    const price = tryIt(() => parsePrice(req.price, inst)) ?? 0n;
    let nearest: string[] | undefined;
    if (price % inst.tick_size !== 0n) {
      const below = (price / inst.tick_size) * inst.tick_size;
      nearest = [formatPrice(below, inst), formatPrice(below + inst.tick_size, inst)];
    }
    const params = toParams(req);
    let required = 0n;
    const mint = req.side === 'buy' ? inst.quote_mint : inst.base_mint;
    if (errors.length === 0) {
      try {
        required = (await orderTerms(client, params)).required;
      } catch (err) {
        errors.push(toAppError(err).body().error);
      }
    }
    const [baseSym = 'base', quoteSym = 'quote'] = inst.symbol.split('-');
    const decimals = req.side === 'buy' ? inst.quote_decimals : inst.base_decimals;
    if (errors.length === 0) {
      const free = this.wallet.freeNotes(mint).reduce((s, n) => s + n.amount, 0n);
      if (free < required)
        errors.push({
          code: 'INSUFFICIENT_NOTES',
          message: `the order locks ${formatUnits(required, decimals)} ${req.side === 'buy' ? quoteSym : baseSym}; the wallet has ${formatUnits(free, decimals)} free`,
          fix: `deposit ${formatUnits(required - free, decimals)} ${req.side === 'buy' ? quoteSym : baseSym} more (POST /api/v1/deposits)`,
        });
    }
    return {
      ok: errors.length === 0,
      errors,
      amount_units: amount.toString(),
      price_units: price.toString(),
      collateral: {
        asset: req.side === 'buy' ? quoteSym : baseSym,
        amount: formatUnits(required, decimals),
        amount_units: required.toString(),
      },
      ...(nearest ? { nearest_prices: nearest } : {}),
    };
  }

  async place(req: OrderRequest): Promise<OrderView> {
    const client = this.venue.require();
    await this.instrument(client, req.market);
    const params = toParams(req);
    const progress = this.progress('order', req.client_ref);
    return this.tracked(progress, async () => {
      progress('checking');
      // The venue's order rules, before the 1–3 s of a note split and a proof.
      await orderTerms(client, params);
      progress('preparing_note');
      const placed = await placeOrder(client, {
        ...params,
        onNoteProgress: (p) => progress('preparing_note', splitDetail(p)),
      });
      const now = Date.now();
      const record: OrderRecord = {
        order_id: placed.orderId,
        market: req.market,
        side: req.side,
        type: req.type,
        amount: req.amount,
        price: req.price,
        created_at: now,
        // The SDK's default lifetime is 1,000 slots.
        expires_at: now + (req.expires_in_s === undefined ? 1000 * client.slotMs : req.expires_in_s * 1000),
      };
      this.orders.set(record.order_id, record);
      this.saveOrders();
      progress('accepted', placed.orderId);
      const view = this.orderView(placed.orderId)!;
      this.emit({ type: 'order', order: view });
      this.balancesSoon();
      return view;
    });
  }

  async cancel(orderId: string): Promise<OrderView> {
    const client = this.venue.require();
    if (!this.wallet.orders.has(orderId)) throw notTracked(orderId);
    try {
      await cancelOrder(client, { orderId });
    } catch (err) {
      this.venue.noteFailure(err);
      throw err;
    }
    const view = this.orderView(orderId)!;
    this.emit({ type: 'order', order: view });
    this.balancesSoon();
    return view;
  }

  async modify(orderId: string, req: ModifyRequest): Promise<OrderView> {
    const client = this.venue.require();
    const tracked = this.wallet.orders.get(orderId);
    const old = this.orders.get(orderId);
    if (!tracked || !old) throw notTracked(orderId);
    const amount = req.amount ?? old.amount;
    const price = req.price ?? old.price;
    const progress = this.progress('modify', orderId);
    return this.tracked(progress, async () => {
      const placed = await modifyOrder(client, {
        orderId,
        side: tracked.side,
        type: old.type,
        amount,
        price,
      });
      const record: OrderRecord = { ...old, order_id: placed.orderId, amount, price, created_at: Date.now() };
      this.orders.set(record.order_id, record);
      this.saveOrders();
      progress('accepted', placed.orderId);
      if (placed.orderId !== orderId) this.emit({ type: 'order', order: this.orderView(orderId)! });
      const view = this.orderView(placed.orderId)!;
      this.emit({ type: 'order', order: view });
      return view;
    });
  }

  orderView(orderId: string): OrderView | undefined {
    const t = this.wallet.orders.get(orderId);
    const r = this.orders.get(orderId);
    if (!t && !r) return undefined;
    const inst = this.instruments?.find((i) => i.symbol === (t?.symbol ?? r?.market));
    const state: OrderView['state'] = t?.status ?? 'open';
    return {
      order_id: orderId,
      market: t?.symbol ?? r!.market,
      side: r?.side ?? sideOf(t!.side),
      type: r?.type ?? 'limit',
      amount: r?.amount ?? '',
      price: r?.price ?? '',
      filled: t && inst ? formatUnits(t.filledQuantity, inst.base_decimals) : '0',
      state,
      terminal: isTerminal(state),
      created_at: r?.created_at ?? 0,
      ...(r?.expires_at === undefined ? {} : { expires_at: r.expires_at }),
    };
  }

  /** Every order the wallet tracks, newest first. */
  orderViews(): OrderView[] {
    const ids = new Set([...this.wallet.orders.keys(), ...this.orders.keys()]);
    return [...ids].map((id) => this.orderView(id)!).sort((a, b) => b.created_at - a.created_at);
  }

  // ---- fills ---------------------------------------------------------------------------------

  async fillViews(): Promise<FillView[]> {
    const client = this.venue.require();
    const pending = [...this.fills.values()].filter(
      (f) =>
        f.settlement.batch_id !== undefined &&
        // Still settling, or settled without its signature yet; a failed one changes no more.
        (f.settlement.outcome === 'pending' ||
          (f.settlement.outcome === 'settled' && !f.settlement.ledger_signature)),
    );
    const batches = new Set(pending.map((f) => f.settlement.batch_id!));
    await Promise.all([...batches].map((b) => this.refreshBatch(client, b).catch(() => undefined)));
    return [...this.fills.values()].sort((a, b) => b.time - a.time);
  }

  /** Reads a batch's settlement record (stage, outcome, settle signature) into its fills. */
  private async refreshBatch(client: Client, batchId: string): Promise<void> {
    const rec = await client.request<SettlementStatusResponse>(`/settlement/status/${batchId}`);
    for (const f of this.fills.values()) {
      if (f.settlement.batch_id !== batchId) continue;
      const matchId = f.fill_id.split(':')[1];
      const job = rec.jobs.find((j) => j.match_id === matchId);
      if (!job) continue;
      const before = JSON.stringify(f.settlement);
      f.settlement = {
        batch_id: batchId,
        stage: job.stage,
        outcome:
          job.outcome === 'confirmed'
            ? 'settled'
            : job.outcome === 'rejected'
              ? 'failed'
              : f.settlement.outcome === 'settled'
                ? 'settled'
                : 'pending',
        ...(job.settle_signature ? { ledger_signature: job.settle_signature } : {}),
      };
      if (JSON.stringify(f.settlement) !== before) this.emit({ type: 'fill', fill: { ...f } });
    }
    this.saveFills();
  }

  private fillOf(orderId: string, matchId: string): FillView | undefined {
    const id = `${orderId}:${matchId}`;
    const existing = this.fills.get(id);
    if (existing) return existing;
    const t = this.wallet.orders.get(orderId);
    const r = this.orders.get(orderId);
    if (!t && !r) return undefined;
    const market = t?.symbol ?? r!.market;
    const [base = 'base', quote = 'quote'] = market.split('-');
    const side = r?.side ?? sideOf(t!.side);
    const fill: FillView = {
      fill_id: id,
      order_id: orderId,
      market,
      side,
      price: '',
      size: '',
      fee: '',
      fee_asset: side === 'buy' ? quote : base,
      time: Date.now(),
      settlement: { stage: 'queued', outcome: 'pending' },
    };
    this.fills.set(id, fill);
    return fill;
  }

  /** An order event: the order's new state, and for a match its fill's settlement. */
  private onOrderEvent(event: OrderEvent): void {
    const view = this.orderView(event.order_id);
    if (!view) return;
    this.emit({ type: 'order', order: view });
    if (event.match_id !== undefined) {
      const fill = this.fillOf(event.order_id, event.match_id);
      if (fill) {
        const batch = event.batch_id === undefined ? fill.settlement.batch_id : String(event.batch_id);
        const outcome: FillView['settlement']['outcome'] =
          event.kind === 'settlement_failed'
            ? 'failed'
            : event.kind === 'pending_settlement'
              ? 'pending'
              : 'settled';
        fill.settlement = {
          ...fill.settlement,
          ...(batch === undefined ? {} : { batch_id: batch }),
          stage: outcome === 'settled' ? 'done' : outcome === 'failed' ? 'failed' : fill.settlement.stage,
          outcome,
        };
        if (fill.size === '' && event.filled_quantity !== undefined && outcome === 'settled') {
          const inst = this.instruments?.find((i) => i.symbol === fill.market);
          if (inst) fill.size = formatUnits(BigInt(event.filled_quantity), inst.base_decimals);
        }
        this.saveFills();
        this.emit({ type: 'fill', fill: { ...fill } });
        // The settlement record names the stage and, once confirmed, the ledger's signature.
        const client = this.safeClient();
        if (batch !== undefined && client) void this.refreshBatch(client, batch).catch(() => undefined);
      }
    }
    if (isTerminal(view.state) || event.kind === 'partially_filled') this.balancesSoon();
  }

  /** A fill memo the wallet stored: the fill's size, price and fee (the venue sends them nowhere else). */
  private onWalletFill(f: WalletFillEvent): void {
    const fill = this.fillOf(f.orderId, f.matchId);
    const inst = this.instruments?.find((i) => i.symbol === fill?.market);
    if (!fill || !inst) return;
    if (f.price !== undefined) fill.price = formatPrice(f.price, inst);
    fill.size = formatUnits(f.size, inst.base_decimals);
    fill.fee = formatUnits(f.fee, fill.side === 'buy' ? inst.quote_decimals : inst.base_decimals);
    if (fill.settlement.outcome === 'pending') fill.settlement = { ...fill.settlement, outcome: 'settled' };
    this.saveFills();
    this.emit({ type: 'fill', fill: { ...fill } });
    this.balancesSoon();
  }

  private safeClient(): Client | undefined {
    try {
      return this.venue.require();
    } catch {
      return undefined;
    }
  }

  /** What the stream tells, applied to the views. */
  onStream(e: StreamClientEvent): void {
    if (e.type === 'order') this.onOrderEvent(e.event);
    else if (e.type === 'fill' || e.type === 'resync') {
      // Views of every order after a resync (its order events came with `source: 'resync'`).
      this.balancesSoon();
    }
  }

  private saveOrders(): void {
    this.state.save('orders.json', [...this.orders.values()]);
  }

  private saveFills(): void {
    this.state.save('fills.json', [...this.fills.values()]);
  }

  close(): void {
    this.closed = true;
    if (this.balancesTimer) clearTimeout(this.balancesTimer);
  }
}

function notTracked(orderId: string): AppError {
  return new AppError(
    404,
    'NOT_FOUND',
    `no order ${orderId} in this wallet`,
    'GET /api/v1/orders lists the orders this app placed',
  );
}

export type { TrackedOrder };
