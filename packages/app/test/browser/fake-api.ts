/**
 * A tiny stand-in for the app server: canned JSON per `src/api-types.ts`, the events socket, and the
 * real `registerWebApp`, so the UI can be tested in a browser fast and deterministically (no venue,
 * no proofs). Every request is logged, to prove what the page did or did not send.
 */
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import type {
  FillSummaryView,
  AccountView,
  AppEvent,
  DrainView,
  MetricsView,
  OperatorLoginView,
  TransparencyView,
  BalanceView,
  FillView,
  MarketView,
  OrderPreview,
  OrderRequest,
  OrderView,
  TransferView,
  VenueView,
} from '../../src/api-types.js';
import { registerWebApp } from '../../src/web/index.js';

const HEX = (c: string) => c.repeat(64);

/** The fake wallet's funding address: a withdrawal to it needs the user's confirmation. */
export const FAKE_FUNDING_ADDRESS = '8VRKn2i9eeEx7hVK9hPW5ZUeCN9qEpWrLG1uGUsG3dyY';

export function verifiedVenue(): VenueView {
  return {
    base_url: 'https://127.0.0.1:8443',
    attestation: 'verified',
    dev: true,
    account_id: 'acct-7f3a',
    boot_session_id: HEX('b'),
    compose_hash: HEX('c'),
    tls_spki_sha256: HEX('d'),
    checked_at: Date.UTC(2025, 0, 1, 12, 0, 0),
    checks: [
      {
        id: 'a',
        title: 'Platform quote',
        ok: true,
        detail: 'TDX quote signed by the pinned platform root; TCB UpToDate',
      },
      {
        id: 'b',
        title: 'Release',
        ok: true,
        detail: `compose_hash ${HEX('c').slice(0, 16)}… is the pinned release`,
      },
      { id: 'c', title: 'TLS key binding', ok: true, detail: "the quote binds this connection's TLS key" },
      {
        id: 'd',
        title: 'Boot session',
        ok: true,
        detail: `boot_session_id ${HEX('b').slice(0, 16)}… matches /info`,
      },
    ],
  };
}

export function failedVenue(): VenueView {
  const v = verifiedVenue();
  return {
    ...v,
    attestation: 'failed',
    checks: v.checks.map((c) =>
      c.id === 'b'
        ? { ...c, ok: false, detail: `compose_hash ${HEX('e').slice(0, 16)}… is not the pinned release` }
        : c,
    ),
    error: {
      code: 'ATTESTATION_FAILED',
      message: 'The quote names a compose hash that is not the pinned release.',
      fix: 'Do not trade on this venue; check that you started the release you meant to.',
      venue_code: 'compose_mismatch',
    },
  };
}

export const MARKETS: MarketView[] = [
  {
    symbol: 'SOL-USDC',
    base: { symbol: 'SOL', mint: 'So1Mint111', decimals: 9 },
    quote: { symbol: 'USDC', mint: 'UsdcMint111', decimals: 6 },
    tick_size: '0.01',
    min_size: '0.001',
    min_expiry_s: 5,
    max_expiry_s: 3600,
    fee_bps: 10,
  },
  {
    symbol: 'ETH-USDC',
    base: { symbol: 'ETH', mint: 'EthMint111', decimals: 9 },
    quote: { symbol: 'USDC', mint: 'UsdcMint111', decimals: 6 },
    tick_size: '0.1',
    min_size: '0.0001',
    min_expiry_s: 5,
    max_expiry_s: 3600,
  },
];

function balances(): BalanceView[] {
  return [
    {
      asset: 'SOL',
      mint: 'So1Mint111',
      decimals: 9,
      usable: '4.5',
      arriving: '0',
      locked: '0.5',
      pending_settlement: '0',
      funding: '95',
    },
    {
      asset: 'USDC',
      mint: 'UsdcMint111',
      decimals: 6,
      usable: '1000',
      arriving: '250',
      locked: '151.875',
      pending_settlement: '0',
      funding: '8600',
    },
  ];
}

function units(text: string, decimals: number): bigint {
  const [w = '0', f = ''] = text.split('.');
  return BigInt((w || '0') + f.slice(0, decimals).padEnd(decimals, '0'));
}

/** The fake wallet's one free note per asset (the balances' `available`), in smallest units. */
const FREE_NOTE_UNITS: Record<string, bigint> = { SOL: 4_500_000_000n, USDC: 1_000_000_000n };

/** The preview's guards, as the app computes them (`trading/price-check.ts`, `collateral-note.ts`). */
function guards(req: OrderRequest, m: MarketView, collateralUnits: bigint, refs: readonly string[]) {
  const asset = req.side === 'bid' ? m.quote.symbol : m.base.symbol;
  const decimals = req.side === 'bid' ? m.quote.decimals : m.base.decimals;
  const fmt = (u: bigint) => (Number(u) / 10 ** decimals).toString();
  const fee = (collateralUnits * BigInt(m.fee_bps ?? 0)) / 10_000n;
  const noteUnits = FREE_NOTE_UNITS[asset] ?? 0n;
  const far = refs.find((r) => Math.abs(Number(req.price) - Number(r)) * 100 > Number(r) * 20);
  return {
    fee: { asset, amount: fmt(fee), amount_units: fee.toString() },
    ...(noteUnits >= collateralUnits && collateralUnits > 0n
      ? {
          note: {
            amount: fmt(noteUnits),
            amount_units: noteUnits.toString(),
            whole_note_locked: noteUnits > collateralUnits,
            split_remainder: fmt(noteUnits - collateralUnits),
            explanation: `The order is backed by one note of ${fmt(noteUnits)} ${asset}: the whole note is out of use until the order ends.`,
          },
        }
      : {}),
    clearing_rule: 'Uniform price per batch: you may fill better than your limit, never worse.',
    price_check: {
      far: far !== undefined,
      threshold_percent: 20,
      reference_prices: refs.map((price) => ({ source: 'recent_fill' as const, price })),
      ...(far
        ? {
            warning: `The price ${req.price} ${m.quote.symbol} is more than 20% away from your recent fill at ${far} ${m.quote.symbol}.`,
          }
        : {}),
    },
  };
}

/** The order once cancelled, as the app tells it. */
const cancelled = (o: OrderView): OrderView => ({
  ...o,
  status: 'cancelled',
  status_label: 'Cancelled',
  terminal: true,
});

function preview(req: OrderRequest, refs: readonly string[]): OrderPreview {
  const m = MARKETS.find((x) => x.symbol === req.symbol) ?? MARKETS[0]!;
  const errors: OrderPreview['errors'] = [];
  const priceCents = Number(req.price) / Number(m.tick_size);
  let nearest: string[] | undefined;
  if (Math.abs(priceCents - Math.round(priceCents)) > 1e-9) {
    const lo = (Math.floor(priceCents) * Number(m.tick_size)).toFixed(2);
    const hi = (Math.ceil(priceCents) * Number(m.tick_size)).toFixed(2);
    nearest = [lo, hi];
    errors.push({
      code: 'price_off_tick',
      message: `The price ${req.price} ${m.quote.symbol} is not on the tick of ${m.tick_size}.`,
      fix: `Use ${lo} or ${hi}.`,
    });
  }
  if (Number(req.amount) < Number(m.min_size))
    errors.push({
      code: 'amount_too_small',
      message: `The amount ${req.amount} ${m.base.symbol} is below the minimum.`,
      fix: `Order at least ${m.min_size} ${m.base.symbol}.`,
    });
  const amountUnits = units(req.amount, m.base.decimals);
  const priceUnits = units(req.price, m.quote.decimals);
  const buy = req.side === 'bid';
  const collateralUnits = buy ? (amountUnits * priceUnits) / 10n ** BigInt(m.base.decimals) : amountUnits;
  if (collateralUnits > (FREE_NOTE_UNITS[buy ? m.quote.symbol : m.base.symbol] ?? 0n))
    // The app's answer: the plain sentence for screens, the route for API clients.
    errors.push({
      code: 'INSUFFICIENT_NOTES',
      message: 'The order locks more than the wallet has free.',
      fix: 'Deposit more first. (POST /api/v1/deposits)',
      fix_plain: 'Deposit more first.',
      hint: 'POST /api/v1/deposits',
    });
  return {
    ok: errors.length === 0,
    errors,
    amount_units: amountUnits.toString(),
    price_units: priceUnits.toString(),
    collateral: {
      asset: buy ? m.quote.symbol : m.base.symbol,
      amount: buy ? (Number(req.amount) * Number(req.price)).toString() : req.amount,
      amount_units: collateralUnits.toString(),
    },
    ...guards(req, m, collateralUnits, refs),
    ...(nearest ? { nearest_prices: nearest } : {}),
  };
}

export function sampleFills(now = Date.UTC(2025, 0, 1, 12, 0, 0)): FillView[] {
  const prices = [100.5, 100.75, 101.25, 100.9, 101.6, 102.05, 101.8];
  return prices.map((p, i) => ({
    fill_id: `fill-${i}`,
    order_id: `ord-old-${i}`,
    symbol: 'SOL-USDC',
    side: i % 3 === 0 ? 'ask' : 'bid',
    side_label: i % 3 === 0 ? 'Sell' : 'Buy',
    price: p.toFixed(2),
    size: (0.25 * (1 + (i % 3))).toString(),
    fee: '0.03',
    fee_asset: 'USDC',
    time: now - (prices.length - i) * 45_000,
    settlement: {
      batch_id: String(40 + i),
      stage: i === prices.length - 1 ? 'settling' : 'done',
      outcome: i === prices.length - 1 ? 'pending' : 'settled',
      ...(i === prices.length - 1 ? {} : { ledger_signature: `5${'K'.repeat(40)}${i}xYz` }),
    },
  }));
}

/** Canned figures of SOL-USDC's fills (the app computes them: trading/fill-summary.ts). */
export function sampleFigures(): FillSummaryView {
  return {
    symbol: 'SOL-USDC',
    base: 'SOL',
    quote: 'USDC',
    realised_pnl: '19.43',
    position: '1',
    avg_cost: '110',
    avg_buy_price: '110',
    avg_sell_price: '120',
    bought: '3',
    sold: '2',
    fees_quote: '0.33',
    fees_base: '0.002',
    fills: 3,
    awaiting_memo: 1,
  };
}

export interface FakeApi {
  url: string;
  app: FastifyInstance;
  /** Every request as "METHOD /path". */
  requests: string[];
  /** The body of every POST /orders, in order. */
  placed: OrderRequest[];
  venue: VenueView;
  orders: Map<string, OrderView>;
  fills: FillView[];
  /** Sends a frame to every connected page. */
  push(e: AppEvent): void;
  /** Drops every socket (the page should show it and reconnect). */
  dropSockets(): void;
  /** While false, socket upgrades are refused (the page keeps retrying). */
  sockets: { accept: boolean };
  /** Whether the operator session is logged in. */
  operator: { loggedIn: boolean };
  close(): Promise<void>;
}

export async function startFakeApi(
  opts: {
    venue?: VenueView;
    fills?: FillView[];
    orders?: OrderView[];
    fillSummary?: FillSummaryView[];
    /** The wallet's reference prices the preview checks a price against (none: nothing is far). */
    referencePrices?: string[];
    /** POST /orders answers this error instead of placing. */
    placeError?: { status: number; error: { code: string; message: string; fix?: string; hint?: string } };
  } = {},
): Promise<FakeApi> {
  const app = Fastify({ logger: false });
  const requests: string[] = [];
  const placed: OrderRequest[] = [];
  const sockets = new Set<WebSocket>();
  const state = {
    venue: opts.venue ?? verifiedVenue(),
    orders: new Map((opts.orders ?? []).map((o) => [o.order_id, o])),
    fills: opts.fills ?? [],
    operator: { loggedIn: false },
  };
  let seq = 0;
  const push = (e: AppEvent) => {
    const s = JSON.stringify(e);
    for (const ws of sockets) ws.send(s);
  };
  const err = (code: string, message: string, fix?: string) => ({
    error: { code, message, ...(fix ? { fix } : {}) },
  });

  app.addHook('onRequest', async (req) => {
    requests.push(`${req.method} ${req.url.split('?')[0]}`);
  });
  await registerWebApp(app);

  app.get('/api/v1/venue', async () => state.venue);
  app.get('/api/v1/markets', async () => MARKETS);
  app.get('/api/v1/balances', async () => balances());
  app.get('/api/v1/orders', async () => [...state.orders.values()]);
  app.get('/api/v1/fills', async () => state.fills);
  app.get('/api/v1/fills/summary', async () => opts.fillSummary ?? []);
  app.post('/api/v1/orders/preview', async (req) =>
    preview(req.body as OrderRequest, opts.referencePrices ?? []),
  );
  app.post('/api/v1/orders', async (req, reply) => {
    const body = req.body as OrderRequest;
    placed.push(body);
    if (opts.placeError) return reply.code(opts.placeError.status).send({ error: opts.placeError.error });
    const ref = body.client_ref;
    for (const stage of ['note', 'proving', 'signing', 'sent'])
      push({ type: 'progress', ...(ref ? { client_ref: ref } : {}), action: 'place', stage });
    const o: OrderView = {
      order_id: `ord-${++seq}`,
      symbol: body.symbol,
      side: body.side,
      side_label: body.side === 'bid' ? 'Buy' : 'Sell',
      type: body.type,
      amount: body.amount,
      price: body.price,
      filled: '0',
      status: 'pending',
      status_label: 'Open',
      terminal: false,
      created_at: Date.now(),
      expires_at: Date.now() + (body.expiry_seconds ?? 3600) * 1000,
    };
    state.orders.set(o.order_id, o);
    push({ type: 'order', order: o });
    return o;
  });
  app.delete('/api/v1/orders/:id', async (req, reply) => {
    const id = (req.params as { id: string }).id;
    const o = state.orders.get(id);
    if (!o) return reply.code(404).send(err('order_not_found', `No order ${id}.`));
    const next = cancelled(o);
    state.orders.set(id, next);
    push({ type: 'order', order: next });
    return next;
  });
  app.post('/api/v1/orders/cancel-all', async () => {
    const live = [...state.orders.values()].filter((o) => !o.terminal);
    for (const o of live) {
      const next = cancelled(o);
      state.orders.set(o.order_id, next);
      push({ type: 'order', order: next });
    }
    return { cancelled: live.map((o) => o.order_id), failed: [] };
  });
  app.patch('/api/v1/orders/:id', async (req) => {
    const id = (req.params as { id: string }).id;
    const o = state.orders.get(id)!;
    const next = { ...o, ...(req.body as object) };
    state.orders.set(id, next);
    push({ type: 'order', order: next });
    return next;
  });
  const transfer = (kind: TransferView['kind']) => async (req: { body: unknown }) => {
    const b = req.body as { asset: string; amount: string };
    const dec = b.asset === 'USDC' ? 6 : 9;
    return {
      id: `t-${++seq}`,
      kind,
      asset: b.asset,
      amount: b.amount,
      amount_units: units(b.amount, dec).toString(),
      ledger_signature: `4${'Q'.repeat(60)}`,
      state: 'usable',
    } satisfies TransferView;
  };
  app.post('/api/v1/deposits', transfer('deposit'));
  app.post(
    '/api/v1/withdrawals',
    async (req: { body: unknown }, reply: { code(n: number): { send(b: unknown): unknown } }) => {
      const b = req.body as { recipient?: string; confirm_funding_link?: boolean };
      if (!b.recipient) return reply.code(400).send(err('BAD_REQUEST', '`recipient` is required'));
      // The app's answer for the wallet's funding address until the user confirms the link.
      if (b.recipient === FAKE_FUNDING_ADDRESS && b.confirm_funding_link !== true)
        return reply
          .code(409)
          .send(
            err(
              'LINKS_FUNDING_ADDRESS',
              `recipient ${FAKE_FUNDING_ADDRESS} funded this wallet's deposits: a withdrawal to it is public on the ledger and links this withdrawal (its amount and time) to every deposit from that address, and so to this wallet`,
              'Withdraw to a fresh address, or accept that the withdrawal links to your deposits. (`confirm_funding_link: true`)',
            ),
          );
      return transfer('withdrawal')(req);
    },
  );

  // Operator routes: the venue's own bodies, as the app forwards them.
  const needOp = async (_req: unknown, reply: { code(n: number): { send(b: unknown): unknown } }) => {
    if (!state.operator.loggedIn)
      return reply.code(401).send(err('operator_login_required', 'Log in as an operator first.'));
    return undefined;
  };
  app.post('/api/v1/session/logout', async (_req, reply) =>
    reply.header('set-cookie', 'nightjar_session=; Max-Age=0').send({ logged_in: false }),
  );
  app.get('/api/v1/operator/session', async () =>
    state.operator.loggedIn
      ? { logged_in: true, api_key: 'admin-key', account_id: 'admin' }
      : { logged_in: false },
  );
  app.post('/api/v1/operator/logout', async (_req, reply) => {
    state.operator.loggedIn = false;
    // As the app does: a new session cookie once the admin login ends.
    return reply
      .header('set-cookie', 'nightjar_session=after-logout; Path=/; HttpOnly')
      .send({ logged_in: false });
  });
  app.post('/api/v1/operator/login', async (req, reply) => {
    const b = req.body as { dev?: boolean; api_key?: string };
    if (!b.dev && b.api_key !== 'admin-key')
      return reply
        .code(401)
        .send(
          err(
            'bad_credentials',
            'The venue refused these credentials.',
            'Check the API key, secret and passphrase.',
          ),
        );
    state.operator.loggedIn = true;
    return { logged_in: true, api_key: 'admin-key', account_id: 'admin' } satisfies OperatorLoginView;
  });
  const drain: DrainView = {
    state: 'idle',
    open_orders: 3,
    pending_settlements: 1,
    in_flight_settlements: 1,
    safe_to_stop: false,
  };
  const accounts: AccountView[] = [
    { account_id: 'admin', api_key: 'admin-key-000000000000', is_admin: true, enabled: true },
    { account_id: 'acct-7f3a', api_key: 'trader-key-7f3a00000000', is_admin: false, enabled: true },
    { account_id: 'acct-91bc', api_key: 'trader-key-91bc00000000', is_admin: false, enabled: false },
  ];
  app.get('/api/v1/operator/status', { preHandler: needOp }, async () => ({
    matching: 'running',
    settlement: 'wired',
    ledger: 'connected',
    trading: 'open',
    draining: drain.state !== 'idle',
    slot: '48213',
    drain,
    account_id: 'admin',
  }));
  app.get('/api/v1/operator/transparency', { preHandler: needOp }, async (): Promise<TransparencyView> => ({
    slot: '48213',
    engine: { boot_session_id: HEX('b'), compose_hash: HEX('c'), signer_set_sha256: HEX('5') },
    mints: [
      {
        asset: 'SOL',
        mint: 'So1Mint111',
        vault_balance: '105',
        outstanding_note_value: '105',
        vault_balance_units: '105000000000',
        outstanding_note_value_units: '105000000000',
        solvent: true,
      },
      {
        asset: 'USDC',
        mint: 'UsdcMint111',
        vault_balance: '9851.875',
        outstanding_note_value: '9851.875',
        vault_balance_units: '9851875000',
        outstanding_note_value_units: '9851875000',
        solvent: true,
      },
    ],
    orders: { resting: 3, pending_settlement: 1 },
    settlement: { batches: 12, confirmed_matches: 17, rejected_matches: 0 },
  }));
  const latency = {
    proving: { count: 17, p50_ms: 1840.5, p90_ms: 2410, p99_ms: 2702.2 },
    locking: { count: 17, p50_ms: 610, p90_ms: 1200, p99_ms: 1450 },
    settling: { count: 17, p50_ms: 5900, p90_ms: 6300, p99_ms: 6410 },
    match_to_done: { count: 17, p50_ms: 8800, p90_ms: 9900, p99_ms: 10400 },
  };
  const queueDepth = { proving: 0, locking: 1, settling: 0, releasing: 0 };
  const counters = { batches_submitted: 12, matches_confirmed: 17, matches_rejected: 0, rebroadcasts: 1 };
  app.get('/api/v1/operator/metrics', { preHandler: needOp }, async (): Promise<MetricsView> => ({
    stages: Object.entries(latency).map(([stage, q]) => ({ stage, ...q })),
    queue_depth: queueDepth,
    counters,
    raw: {
      settlement: 'wired',
      pending_batches: 1,
      open_orders: 4,
      queue_depth: queueDepth,
      stage_latency: latency,
      journal_write: { count: 120, p50_ms: 0.8, p99_ms: 3.1 },
      counters,
      rejections_by_reason: {},
    },
  }));
  app.get('/api/v1/operator/drain', { preHandler: needOp }, async () => drain);
  app.post('/api/v1/operator/drain', { preHandler: needOp }, async () => {
    drain.state = 'draining';
    drain.started_at_ms = Date.now();
    return drain;
  });
  app.delete('/api/v1/operator/drain', { preHandler: needOp }, async () => {
    drain.state = 'idle';
    delete drain.started_at_ms;
    return drain;
  });
  app.get('/api/v1/operator/accounts', { preHandler: needOp }, async () => accounts);
  app.post('/api/v1/operator/accounts', { preHandler: needOp }, async () => ({
    account_id: 'acct-new1',
    api_key: 'new-key',
    api_secret: 'new-secret',
    passphrase: 'new-pass',
    is_admin: false,
  }));
  app.post('/api/v1/operator/accounts/:key/:action', { preHandler: needOp }, async (req) => {
    const { key, action } = req.params as { key: string; action: string };
    const a = accounts.find((x) => x.api_key === key);
    if (a && action === 'disable') a.enabled = false;
    if (a && action === 'enable') a.enabled = true;
    return a;
  });

  const wss = new WebSocketServer({ noServer: true });
  const socketGate = { accept: true };
  app.server.on('upgrade', (req, socket, head) => {
    if (req.url !== '/api/v1/events' || !socketGate.accept) return socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      ws.send(JSON.stringify({ type: 'connection', state: 'connected' } satisfies AppEvent));
    });
  });

  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    requests,
    placed,
    get venue() {
      return state.venue;
    },
    set venue(v: VenueView) {
      state.venue = v;
    },
    orders: state.orders,
    fills: state.fills,
    push,
    dropSockets: () => {
      for (const ws of sockets) ws.terminate();
    },
    sockets: socketGate,
    operator: state.operator,
    close: async () => {
      for (const ws of sockets) ws.terminate();
      wss.close();
      await app.close();
    },
  };
}
