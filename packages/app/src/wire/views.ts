/**
 * The local API's answers and WebSocket frames as codecs (`doc-codecs.ts`): the OpenAPI document's
 * schemas and the wire types of `api-types.ts` both come from here. Every amount and price is a
 * decimal string in human units; the exact smallest-unit value travels beside it where a user
 * should see the conversion.
 */
import { described, SIDES } from '@nightjar/protocol';
import { ORDER_STATE_LABELS, type OrderState } from '@nightjar/sdk';
import {
  anyObject,
  bool,
  constant,
  human,
  int,
  list,
  num,
  numbersByName,
  object,
  oneOf,
  optional,
  required,
  str,
  strings,
} from './doc-codecs.js';

export { SIDES };
/** The one vocabulary's order states (labels: `ORDER_STATE_LABELS` of @nightjar/sdk). */
export const ORDER_STATES = Object.keys(ORDER_STATE_LABELS) as OrderState[];
export const ORDER_TYPES = ['limit', 'ioc', 'fok'] as const;

/** A failed call's `error`: `code` is stable; `fix` says what to do, in the asset's units. */
export const apiErrorBody = object({
  code: required(
    str(
      "Stable code: BAD_REQUEST, UNAUTHORIZED, FORBIDDEN_HOST, FORBIDDEN_ORIGIN, NOT_FOUND, ATTESTATION_FAILED, VENUE_UNAVAILABLE, OPERATOR_LOGIN_REQUIRED, DEV_ONLY, INSUFFICIENT_NOTES, NOTES_PENDING, NOTE_HELD, the SDK's note codes...",
    ),
  ),
  message: required(str()),
  fix: optional(str('What to do about it.')),
  fix_plain: optional(
    str("`fix` without the app's hint: one plain sentence, no route or code (what the web app shows)."),
  ),
  hint: optional(
    str("The app's own how-to (a route, a file or a command) that `fix` ends with in parentheses."),
  ),
  venue_code: optional(
    described<number | string>({
      type: ['integer', 'string'],
      description: "The venue's or ledger's own code.",
    }),
  ),
});
/** A failed call: HTTP status 4xx/5xx with this body. */
export const apiError = object({ error: required(apiErrorBody) });

/** One of the transport checks (a)–(d) of DESIGN 8, as last run by the app. */
export const attestationCheck = object({
  id: required(oneOf(['a', 'b', 'c', 'd'])),
  title: required(str()),
  ok: required(bool()),
  detail: required(str('What was verified, or why not.')),
});

/** GET /venue: 'verified' once all of (a)–(d) passed on the current connection. */
export const venueView = object({
  base_url: required(str()),
  attestation: required(oneOf(['verified', 'failed', 'checking'])),
  checks: required(list(attestationCheck)),
  error: optional(apiErrorBody),
  boot_session_id: optional(str()),
  compose_hash: optional(str()),
  tls_spki_sha256: optional(str()),
  checked_at: optional(int('Unix ms of the last verification.')),
  dev: required(bool('A dev venue: the faucet is available.')),
  account_id: optional(str()),
  engines: optional(
    list(
      object({
        base_url: required(str('Another engine of the venue, serving the markets listed at it.')),
        attestation: required(oneOf(['verified', 'failed'])),
        boot_session_id: optional(str()),
        compose_hash: optional(str()),
        checked_at: required(int('Unix ms of its last verification.')),
        error: optional(str('Why it failed: its markets are refused; the others trade.')),
      }),
    ),
  ),
});

export const asset = object({
  symbol: required(str()),
  mint: required(str('Base58.')),
  decimals: required(int()),
});

/** GET /markets: what an order ticket needs, in human units. */
export const marketView = object({
  symbol: required(str()),
  base: required(asset),
  quote: required(asset),
  tick_size: required(human('Price tick')),
  min_size: required(human('Minimum order size')),
  min_expiry_s: required(int()),
  max_expiry_s: required(int()),
  fee_bps: optional(int()),
  trading_enabled: optional(bool()),
});

/** GET /balances: one row per asset the wallet or funding account holds. */
export const balanceView = object({
  ...strings('asset', 'mint'),
  decimals: required(int()),
  usable: required(human("Free notes that can back an order now (in the engine's tree, off any hold)")),
  arriving: required(
    human(
      "Notes not usable yet: not landed, not yet in the engine's tree (about 13 s after landing), or on hold",
    ),
  ),
  locked: required(human('Notes backing resting orders, or chosen for one being placed')),
  pending_settlement: required(human('Notes locked while a match settles')),
  funding: required(human("The funding account's public ledger balance")),
});

export const faucetResult = object({
  ...strings('asset', 'amount', 'amount_units', 'ledger_signature'),
  funding: required(human('Funding balance after the airdrop')),
});

/** The result of a deposit or withdrawal. */
export const transferView = object({
  id: required(str('The note commitment.')),
  kind: required(oneOf(['deposit', 'withdrawal'])),
  ...strings('asset', 'amount'),
  amount_units: required(str('Smallest units, exact.')),
  ledger_signature: optional(str()),
  recipient: optional(str("A withdrawal's recipient.")),
  change_units: optional(
    str(
      "A withdrawal's change note left in the wallet, smallest units; absent when the whole note was paid.",
    ),
  ),
  state: required(oneOf(['usable', 'landed', 'failed'], 'usable: the note can back an order now.')),
});

/** POST /orders/preview: the exact conversion and the order checks, without a proof. */
export const orderPreview = object({
  ok: required(bool()),
  errors: required(list(apiErrorBody)),
  ...strings('amount_units', 'price_units'),
  collateral: required(assetAmount('What the order locks: nominal plus fee, in the collateral asset.')),
  fee: required(assetAmount("The venue's fee at the limit price, part of the collateral.")),
  note: optional(
    object({
      ...strings('amount', 'amount_units'),
      whole_note_locked: required(
        bool('The note is larger than the collateral: all of it is out of use until the order ends.'),
      ),
      split_remainder: required(
        str('What a split to the order\'s size first (`prepare_note: "exact"`) leaves free.'),
      ),
      explanation: required(str('One plain sentence for a screen.')),
    }),
  ),
  clearing_rule: required(str('Uniform price per batch: you may fill better than your limit, never worse.')),
  price_check: required(
    object({
      far: required(bool('The price is more than `threshold_percent` away from a reference price.')),
      threshold_percent: required(int()),
      reference_prices: required(
        list(
          object({
            source: required(
              oneOf(
                ['recent_fill', 'open_order'],
                "The wallet's own fills, or its open orders on the other side.",
              ),
            ),
            price: required(str()),
          }),
        ),
      ),
      warning: optional(str('Present when `far`: say it, and have the user confirm.')),
    }),
  ),
  nearest_prices: optional(list(str())),
});

const sideLabel = () =>
  required(oneOf(['Buy', 'Sell'], 'The side as people read it: bid is Buy, ask is Sell.'));

/** An amount of one asset, human and exact (the description goes on its amount). */
function assetAmount(description: string) {
  return object({
    asset: required(str()),
    amount: required(str(description)),
    amount_units: required(str()),
  });
}

/** An order as the wallet tracks it (SDK vocabulary: `isTerminal` in @nightjar/sdk). */
export const orderView = object({
  ...strings('order_id', 'symbol'),
  side: required(oneOf(SIDES)),
  side_label: sideLabel(),
  type: required(oneOf(ORDER_TYPES)),
  ...strings('amount', 'price', 'filled'),
  status: required(
    oneOf(ORDER_STATES, "The spec's order state; `partially_filled`: resting with part of it filled."),
  ),
  status_label: required(str('The state as people read it: Open, Settling, Partly filled, Filled...')),
  terminal: required(bool('The order will not change again.')),
  created_at: required(int()),
  expires_at: optional(int()),
});

/** A fill of one of the wallet's orders, with its settlement. */
export const fillView = object({
  ...strings('fill_id', 'order_id', 'symbol'),
  side: required(oneOf(SIDES)),
  side_label: sideLabel(),
  price: required(str('Clearing price (from the fill memo); empty until it arrives.')),
  ...strings('size', 'fee', 'fee_asset'),
  time: required(int()),
  settlement: required(
    object({
      batch_id: optional(str()),
      stage: required(str('queued, locking_notes, proving, verifying, settling, closing, done, failed')),
      outcome: required(oneOf(['pending', 'settled', 'failed'])),
      ledger_signature: optional(str('The settle transaction.')),
    }),
  ),
});

/**
 * POST /orders/cancel-all: the orders cancelled, the ones refused with the stable error code, and
 * the engines (markets on several) whose orders could not be listed: those are still live.
 */
export const cancelAllResult = object({
  cancelled: required(list(str('An order id.'))),
  failed: required(list(object({ ...strings('order_id', 'code', 'message') }))),
  unreachable: optional(list(object({ ...strings('engine', 'code', 'message') }))),
});

/**
 * GET /fills/summary: per market, figures from the wallet's own fills (computed in the app, from
 * the fill memos; method: average cost, fees valued at the fill price; see trading/fill-summary.ts).
 */
export const fillSummaryView = object({
  ...strings('symbol', 'base', 'quote'),
  fills: required(int('Fills counted: memo arrived, settlement not failed.')),
  awaiting_memo: required(int('Fills heard of whose memo (price, size, fee) has not arrived.')),
  bought: required(human('Base bought')),
  sold: required(human('Base sold')),
  avg_buy_price: required(str('Size-weighted average buy price (quote per base); empty without a buy.')),
  avg_sell_price: required(str('Size-weighted average sell price; empty without a sell.')),
  fees_quote: required(human('Fees paid on buys, in the quote asset')),
  fees_base: required(human('Fees paid on sells, in the base asset')),
  position: required(human('Net base position from these fills (negative: short)')),
  avg_cost: required(str('Average cost of that position (quote per base); empty when flat.')),
  realised_pnl: required(
    human('Realised P&L in the quote asset, average cost, net of fees, truncated to its smallest unit'),
  ),
});

export const loggedOut = object({ logged_in: required(constant(false)) });
export const loginLink = object({ url: required(str('http://127.0.0.1:P/?token=T')) });

/** The answer to POST /operator/login (the credentials stay in the app). */
export const operatorLoginView = object({
  logged_in: required(constant(true)),
  ...strings('api_key', 'account_id'),
});

/** Whether this session holds an operator login (GET /operator/session): asked before any admin read. */
export const operatorSessionView = object({
  logged_in: required(bool('Whether this browser session holds an admin login.')),
  api_key: optional(str('The admin login, when logged in.')),
  account_id: optional(str()),
});

/** A drain of the venue (GET/POST/DELETE /operator/drain). */
export const drainView = object({
  state: required(oneOf(['idle', 'draining', 'drained'])),
  started_at_ms: optional(int()),
  open_orders: required(int()),
  pending_settlements: required(int()),
  in_flight_settlements: optional(int()),
  safe_to_stop: optional(bool()),
});

/** GET /operator/status: the venue's /system/status and its drain. */
export const operatorStatusView = object({
  matching: required(oneOf(['running', 'stopped'])),
  settlement: required(oneOf(['wired', 'not_wired', 'degraded'])),
  ledger: required(oneOf(['connected', 'unavailable'])),
  trading: required(oneOf(['open', 'paused'])),
  draining: required(bool()),
  slot: required(str()),
  drain: required(drainView),
  account_id: required(str()),
});

/** GET /operator/transparency: the venue's solvency per mint, in human units. */
export const transparencyView = object({
  slot: required(str()),
  mints: required(
    list(
      object({
        ...strings(
          'asset',
          'mint',
          'vault_balance',
          'outstanding_note_value',
          'vault_balance_units',
          'outstanding_note_value_units',
        ),
        solvent: required(bool()),
      }),
    ),
  ),
  orders: required(numbersByName()),
  settlement: required(numbersByName()),
  engine: required(anyObject()),
});

/** GET /operator/metrics: settlement latency per stage (from /admin/metrics/settlement). */
export const metricsView = object({
  stages: required(
    list(
      object({
        stage: required(str()),
        count: required(int()),
        p50_ms: required(num()),
        p90_ms: required(num()),
        p99_ms: required(num()),
      }),
    ),
  ),
  queue_depth: required(numbersByName()),
  counters: required(numbersByName()),
  raw: required(anyObject()),
});

/** An account, as the venue's admin routes return it. */
export const accountView = object({
  ...strings('account_id', 'api_key'),
  is_admin: required(bool()),
  enabled: required(bool()),
  label: optional(str()),
});

/** POST /operator/accounts: the new account's credentials, shown this once. */
export const createdAccountView = object({
  ...strings('account_id', 'api_key', 'api_secret', 'passphrase'),
  is_admin: required(bool()),
});
