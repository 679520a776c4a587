/**
 * The local API's wire types: the one contract between the app server (`src/`), the web front end
 * (`web/`) and bots (described again in the OpenAPI document, `openapi.ts`). Every amount and price
 * is a decimal string in human units ("1.5" SOL, "101.25" USDC per SOL); the exact smallest-unit
 * value travels beside it where a user should see the conversion. All paths are under `/api/v1`.
 */

/** A failed call: HTTP status 4xx/5xx with this body. `code` is stable; `fix` says what to do. */
export interface ApiError {
  error: {
    code: string;
    message: string;
    /** What the user can do about it, in the asset's units (as the CLI's messages do). */
    fix?: string;
    /** The venue's or ledger's own code, when the error came from there. */
    venue_code?: number | string;
  };
}

/** One of the transport checks (a)–(d) of DESIGN 8, as last run by the app. */
export interface AttestationCheck {
  id: 'a' | 'b' | 'c' | 'd';
  title: string;
  ok: boolean;
  /** What was verified (e.g. the TCB status, the compose hash, the boot session id), or why not. */
  detail: string;
}

/** GET /api/v1/venue */
export interface VenueView {
  base_url: string;
  /** 'verified' once all of (a)–(d) passed on the current connection; 'failed' sends nothing. */
  attestation: 'verified' | 'failed' | 'checking';
  checks: AttestationCheck[];
  /** Present when the attestation failed: why, with the spec's code when there is one. */
  error?: ApiError['error'];
  boot_session_id?: string;
  compose_hash?: string;
  tls_spki_sha256?: string;
  /** Unix ms of the last verification (boot change and reconnect re-run it). */
  checked_at?: number;
  /** A dev venue: the faucet is available. */
  dev: boolean;
  account_id?: string;
}

/** GET /api/v1/markets: what an order ticket needs, in human units. */
export interface MarketView {
  symbol: string;
  base: { symbol: string; mint: string; decimals: number };
  quote: { symbol: string; mint: string; decimals: number };
  /** Price tick and minimum order size, human units. */
  tick_size: string;
  min_size: string;
  /** Expiry bounds in seconds. */
  min_expiry_s: number;
  max_expiry_s: number;
  fee_bps?: number;
  /** Added by the server: false while the venue has trading on this market off. */
  trading_enabled?: boolean;
}

/** GET /api/v1/balances: one row per asset the wallet or funding account holds. */
export interface BalanceView {
  asset: string;
  mint: string;
  decimals: number;
  /** Free notes: can back an order or be withdrawn. */
  available: string;
  /** Notes backing resting orders. */
  locked: string;
  /** Notes locked on the ledger while a match settles. */
  pending_settlement: string;
  /** Notes deposited or created but not yet final (usable soon). */
  pending_deposit: string;
  /** The funding account's public balance on the ledger (what a deposit draws from). */
  funding: string;
}

/** POST /api/v1/faucet (dev venues only): credits the funding account. */
export interface FaucetRequest {
  asset: string;
  amount: string;
}

/** The result of POST /api/v1/faucet (added by the server). */
export interface FaucetResult {
  asset: string;
  amount: string;
  amount_units: string;
  ledger_signature: string;
  /** The funding account's balance after the airdrop. */
  funding: string;
}

/** POST /api/v1/deposits: moves funding balance into a hidden note; resolves once usable. */
export interface DepositRequest {
  asset: string;
  amount: string;
  /** Draw from the dev faucet first (dev venues only). */
  faucet?: boolean;
  /** The caller's id for progress events (echoed on `progress` frames). */
  client_ref?: string;
}

/** POST /api/v1/withdrawals: any amount of a free balance back to the funding account. */
export interface WithdrawRequest {
  asset: string;
  amount: string;
  /** The ledger address paid (Base58): always the user's explicit choice. */
  recipient: string;
  /**
   * The user saw that `recipient` funded this wallet's deposits (which a withdrawal to it links on
   * chain) and confirmed; without it such a recipient is refused with 409 LINKS_FUNDING_ADDRESS.
   */
  confirm_funding_link?: boolean;
  /** The caller's id for progress events (echoed on `progress` frames). */
  client_ref?: string;
}

/** The result of a deposit or withdrawal. */
export interface TransferView {
  id: string;
  kind: 'deposit' | 'withdrawal';
  asset: string;
  amount: string;
  /** Smallest units, exact. */
  amount_units: string;
  ledger_signature?: string;
  /** A withdrawal's recipient. */
  recipient?: string;
  /** A withdrawal's change note left in the wallet, smallest units (absent: the whole note was paid). */
  change_units?: string;
  state: 'usable' | 'landed' | 'failed';
}

export type OrderType = 'limit' | 'ioc' | 'fok';
export type Side = 'buy' | 'sell';

/** POST /api/v1/orders and POST /api/v1/orders/preview. */
export interface OrderRequest {
  market: string;
  side: Side;
  type: OrderType;
  /** Base asset, human units. */
  amount: string;
  /** Quote per base, human units. */
  price: string;
  /** Minimum fill, base asset, human units (default: none). */
  min_fill?: string;
  /** Lifetime in seconds (limit orders; default the venue's maximum). */
  expires_in_s?: number;
  /** The caller's id for progress events (echoed on `progress` frames). */
  client_ref?: string;
}

/** POST /api/v1/orders/preview: the exact conversion, without proving or sending anything. */
export interface OrderPreview {
  ok: boolean;
  /** Problems found before any proof, each naming its fix. */
  errors: ApiError['error'][];
  amount_units: string;
  price_units: string;
  /** What the order locks: the base (sell) or quote (buy) asset, human and smallest units. */
  collateral: { asset: string; amount: string; amount_units: string };
  /** The nearest valid prices when the price is off the tick. */
  nearest_prices?: string[];
}

/** An order as the wallet tracks it (SDK vocabulary: `isTerminal` in @nightjar/sdk). */
export interface OrderView {
  order_id: string;
  market: string;
  side: Side;
  type: OrderType;
  amount: string;
  price: string;
  filled: string;
  state: 'open' | 'pending_settlement' | 'fully_filled' | 'cancelled' | 'expired' | 'settlement_failed';
  terminal: boolean;
  created_at: number;
  expires_at?: number;
}

/** PATCH /api/v1/orders/{order_id} */
export interface ModifyRequest {
  price?: string;
  amount?: string;
}

/** A fill of one of the wallet's orders, with its settlement. */
export interface FillView {
  fill_id: string;
  order_id: string;
  market: string;
  side: Side;
  price: string;
  size: string;
  fee: string;
  fee_asset: string;
  time: number;
  settlement: {
    batch_id?: string;
    stage: string;
    outcome: 'pending' | 'settled' | 'failed';
    ledger_signature?: string;
  };
}

/** POST /api/v1/operator/login: admin credentials (or `{ dev: true }` on a dev venue). */
export interface OperatorLoginRequest {
  api_key?: string;
  api_secret?: string;
  passphrase?: string;
  dev?: boolean;
}

/** The answer to POST /api/v1/operator/login (the credentials stay in the app). */
export interface OperatorLoginView {
  logged_in: true;
  api_key: string;
  account_id: string;
}

/** A drain of the venue (GET/POST/DELETE /api/v1/operator/drain). */
export interface DrainView {
  state: 'idle' | 'draining' | 'drained';
  started_at_ms?: number;
  open_orders: number;
  pending_settlements: number;
  /** Matches whose settlement is not yet done or failed. */
  in_flight_settlements?: number;
  safe_to_stop?: boolean;
}

/** GET /api/v1/operator/status: the venue's /system/status and its drain. */
export interface OperatorStatusView {
  matching: 'running' | 'stopped';
  settlement: 'wired' | 'not_wired' | 'degraded';
  ledger: 'connected' | 'unavailable';
  trading: 'open' | 'paused';
  draining: boolean;
  /** Decimal string (u64). */
  slot: string;
  drain: DrainView;
  /** The operator's account. */
  account_id: string;
}

/** GET /api/v1/operator/transparency: the venue's solvency per mint, in human units. */
export interface TransparencyView {
  slot: string;
  mints: {
    asset: string;
    mint: string;
    /** What the vault holds on the ledger. */
    vault_balance: string;
    /** What the outstanding hidden notes are worth. */
    outstanding_note_value: string;
    vault_balance_units: string;
    outstanding_note_value_units: string;
    /** vault_balance >= outstanding_note_value. */
    solvent: boolean;
  }[];
  /** `{resting, pending_settlement}` as the venue reports them. */
  orders: Record<string, number>;
  /** `{batches, confirmed_matches, rejected_matches}`. */
  settlement: Record<string, number>;
  /** The engine's identity (boot session, TEE keys, signer set, compose hash). */
  engine: Record<string, unknown>;
}

/** GET /api/v1/operator/metrics: settlement latency per stage (from /admin/metrics/settlement). */
export interface MetricsView {
  stages: { stage: string; count: number; p50_ms: number; p90_ms: number; p99_ms: number }[];
  queue_depth: Record<string, number>;
  counters: Record<string, number>;
  /** The venue's whole answer. */
  raw: Record<string, unknown>;
}

/** An account, as the venue's admin routes return it (GET lists those this app created or changed). */
export interface AccountView {
  account_id: string;
  api_key: string;
  is_admin: boolean;
  enabled: boolean;
  label?: string;
}

/** POST /api/v1/operator/accounts: the new account's credentials, shown this once. */
export interface CreatedAccountView {
  account_id: string;
  api_key: string;
  api_secret: string;
  passphrase: string;
  is_admin: boolean;
}

/** Frames on the WebSocket `/api/v1/events` (after the session is checked on upgrade). */
export type AppEvent =
  | { type: 'venue'; venue: VenueView }
  | { type: 'order'; order: OrderView }
  | { type: 'fill'; fill: FillView }
  | { type: 'balances'; balances: BalanceView[] }
  | { type: 'progress'; client_ref?: string; action: string; stage: string; detail?: string }
  | { type: 'connection'; state: 'connected' | 'disconnected' | 'reconnected' };
