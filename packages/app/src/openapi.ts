/**
 * The local API's own OpenAPI 3.1 document (`GET /api/v1/openapi.json`): every route the app
 * serves under `/api/v1`, with the schemas of `api-types.ts`.
 */
type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const s = (description?: string): Schema => ({ type: 'string', ...(description ? { description } : {}) });
const int = (description?: string): Schema => ({ type: 'integer', ...(description ? { description } : {}) });
const num = (): Schema => ({ type: 'number' });
const bool = (description?: string): Schema => ({ type: 'boolean', ...(description ? { description } : {}) });
const arr = (items: Schema): Schema => ({ type: 'array', items });
const en = (values: string[], description?: string): Schema => ({
  type: 'string',
  enum: values,
  ...(description ? { description } : {}),
});
const map = (values: Schema): Schema => ({ type: 'object', additionalProperties: values });
/** An object: `required` lists the required keys, the others are optional. */
const obj = (
  props: Record<string, Schema>,
  required: string[] = Object.keys(props),
  description?: string,
): Schema => ({
  type: 'object',
  properties: props,
  required,
  ...(description ? { description } : {}),
});
const human = (what: string) => s(`${what}, a decimal string in human units ("1.5")`);

const SCHEMAS: Record<string, Schema> = {
  ApiError: obj({
    error: obj(
      {
        code: s(
          "Stable code: BAD_REQUEST, UNAUTHORIZED, FORBIDDEN_HOST, FORBIDDEN_ORIGIN, NOT_FOUND, ATTESTATION_FAILED, VENUE_UNAVAILABLE, OPERATOR_LOGIN_REQUIRED, DEV_ONLY, INSUFFICIENT_NOTES, NOTES_PENDING, NOTE_HELD, the SDK's note codes...",
        ),
        message: s(),
        fix: s('What to do about it.'),
        venue_code: { type: ['integer', 'string'], description: "The venue's or ledger's own code." },
      },
      ['code', 'message'],
    ),
  }),
  AttestationCheck: obj({
    id: en(['a', 'b', 'c', 'd']),
    title: s(),
    ok: bool(),
    detail: s('What was verified, or why not.'),
  }),
  VenueView: obj(
    {
      base_url: s(),
      attestation: en(['verified', 'failed', 'checking']),
      checks: arr(ref('AttestationCheck')),
      error: ref('ApiErrorBody'),
      boot_session_id: s(),
      compose_hash: s(),
      tls_spki_sha256: s(),
      checked_at: int('Unix ms of the last verification.'),
      dev: bool('A dev venue: the faucet is available.'),
      account_id: s(),
    },
    ['base_url', 'attestation', 'checks', 'dev'],
  ),
  ApiErrorBody: obj({ code: s(), message: s(), fix: s(), venue_code: { type: ['integer', 'string'] } }, [
    'code',
    'message',
  ]),
  Asset: obj({ symbol: s(), mint: s('Base58.'), decimals: int() }),
  MarketView: obj(
    {
      symbol: s(),
      base: ref('Asset'),
      quote: ref('Asset'),
      tick_size: human('Price tick'),
      min_size: human('Minimum order size'),
      min_expiry_s: int(),
      max_expiry_s: int(),
      fee_bps: int(),
      trading_enabled: bool(),
    },
    ['symbol', 'base', 'quote', 'tick_size', 'min_size', 'min_expiry_s', 'max_expiry_s'],
  ),
  BalanceView: obj({
    asset: s(),
    mint: s(),
    decimals: int(),
    available: human('Free notes'),
    locked: human('Notes backing resting orders'),
    pending_settlement: human('Notes locked while a match settles'),
    pending_deposit: human('Notes not yet final'),
    funding: human("The funding account's public ledger balance"),
  }),
  FaucetRequest: obj({ asset: s('SOL, USDC, ETH or a mint.'), amount: human('Amount') }),
  FaucetResult: obj({
    asset: s(),
    amount: s(),
    amount_units: s(),
    ledger_signature: s(),
    funding: human('Funding balance after the airdrop'),
  }),
  DepositRequest: obj(
    {
      asset: s(),
      amount: human('Amount'),
      faucet: bool('Dev venues: airdrop the amount first.'),
      client_ref: s(),
    },
    ['asset', 'amount'],
  ),
  WithdrawRequest: obj(
    {
      asset: s(),
      amount: human('Any amount one note covers (paid in one transaction; the rest is a change note)'),
      recipient: s("The ledger address paid (Base58): the user's explicit choice, no default."),
      confirm_funding_link: bool(
        "The user confirmed withdrawing to an address that funded this wallet's deposits (which links them on chain); without it that is refused, 409 LINKS_FUNDING_ADDRESS.",
      ),
      client_ref: s(),
    },
    ['asset', 'amount', 'recipient'],
  ),
  TransferView: obj(
    {
      id: s('The note commitment.'),
      kind: en(['deposit', 'withdrawal']),
      asset: s(),
      amount: s(),
      amount_units: s('Smallest units, exact.'),
      ledger_signature: s(),
      recipient: s("A withdrawal's recipient."),
      change_units: s(
        "A withdrawal's change note left in the wallet, smallest units; absent when the whole note was paid.",
      ),
      state: en(['usable', 'landed', 'failed'], 'usable: the note can back an order now.'),
    },
    ['id', 'kind', 'asset', 'amount', 'amount_units', 'state'],
  ),
  OrderRequest: obj(
    {
      market: s('e.g. SOL-USDC'),
      side: en(['buy', 'sell']),
      type: en(['limit', 'ioc', 'fok']),
      amount: human('Base amount'),
      price: human('Quote per base'),
      min_fill: human('Minimum fill (base)'),
      expires_in_s: int('Lifetime in seconds.'),
      client_ref: s('Echoed on progress frames.'),
    },
    ['market', 'side', 'type', 'amount', 'price'],
  ),
  OrderPreview: obj(
    {
      ok: bool(),
      errors: arr(ref('ApiErrorBody')),
      amount_units: s(),
      price_units: s(),
      collateral: obj({ asset: s(), amount: s(), amount_units: s() }),
      nearest_prices: arr(s()),
    },
    ['ok', 'errors', 'amount_units', 'price_units', 'collateral'],
  ),
  OrderView: obj(
    {
      order_id: s(),
      market: s(),
      side: en(['buy', 'sell']),
      type: en(['limit', 'ioc', 'fok']),
      amount: s(),
      price: s(),
      filled: s(),
      state: en(['open', 'pending_settlement', 'fully_filled', 'cancelled', 'expired', 'settlement_failed']),
      terminal: bool('The order will not change again.'),
      created_at: int(),
      expires_at: int(),
    },
    ['order_id', 'market', 'side', 'type', 'amount', 'price', 'filled', 'state', 'terminal', 'created_at'],
  ),
  ModifyRequest: obj({ price: human('New price'), amount: human('New amount') }, []),
  FillView: obj({
    fill_id: s(),
    order_id: s(),
    market: s(),
    side: en(['buy', 'sell']),
    price: s('Clearing price (from the fill memo); empty until it arrives.'),
    size: s(),
    fee: s(),
    fee_asset: s(),
    time: int(),
    settlement: obj(
      {
        batch_id: s(),
        stage: s('queued, locking_notes, proving, verifying, settling, closing, done, failed'),
        outcome: en(['pending', 'settled', 'failed']),
        ledger_signature: s('The settle transaction.'),
      },
      ['stage', 'outcome'],
    ),
  }),
  OperatorLoginRequest: obj(
    { api_key: s(), api_secret: s(), passphrase: s(), dev: bool('Dev venues: the dev admin of ready.json.') },
    [],
  ),
  OperatorLoginView: obj({ logged_in: { const: true }, api_key: s(), account_id: s() }),
  DrainView: obj(
    {
      state: en(['idle', 'draining', 'drained']),
      started_at_ms: int(),
      open_orders: int(),
      pending_settlements: int(),
      in_flight_settlements: int(),
      safe_to_stop: bool(),
    },
    ['state', 'open_orders', 'pending_settlements'],
  ),
  OperatorStatusView: obj({
    matching: en(['running', 'stopped']),
    settlement: en(['wired', 'not_wired', 'degraded']),
    ledger: en(['connected', 'unavailable']),
    trading: en(['open', 'paused']),
    draining: bool(),
    slot: s(),
    drain: ref('DrainView'),
    account_id: s(),
  }),
  TransparencyView: obj({
    slot: s(),
    mints: arr(
      obj({
        asset: s(),
        mint: s(),
        vault_balance: s(),
        outstanding_note_value: s(),
        vault_balance_units: s(),
        outstanding_note_value_units: s(),
        solvent: bool(),
      }),
    ),
    orders: map(int()),
    settlement: map(int()),
    engine: { type: 'object' },
  }),
  MetricsView: obj({
    stages: arr(obj({ stage: s(), count: int(), p50_ms: num(), p90_ms: num(), p99_ms: num() })),
    queue_depth: map(int()),
    counters: map(int()),
    raw: { type: 'object' },
  }),
  AccountView: obj({ account_id: s(), api_key: s(), is_admin: bool(), enabled: bool(), label: s() }, [
    'account_id',
    'api_key',
    'is_admin',
    'enabled',
  ]),
  CreateAccountRequest: obj({ label: s(), is_admin: bool() }, []),
  CreatedAccountView: obj({
    account_id: s(),
    api_key: s(),
    api_secret: s(),
    passphrase: s(),
    is_admin: bool(),
  }),
  AppEvent: {
    description: 'A frame of the WebSocket /api/v1/events.',
    oneOf: [
      obj({ type: { const: 'venue' }, venue: ref('VenueView') }),
      obj({ type: { const: 'order' }, order: ref('OrderView') }),
      obj({ type: { const: 'fill' }, fill: ref('FillView') }),
      obj({ type: { const: 'balances' }, balances: arr(ref('BalanceView')) }),
      obj({ type: { const: 'progress' }, client_ref: s(), action: s(), stage: s(), detail: s() }, [
        'type',
        'action',
        'stage',
      ]),
      obj({ type: { const: 'connection' }, state: en(['connected', 'disconnected', 'reconnected']) }),
    ],
  },
};

const ERRORS = ['400', '401', '403', '404', '409', '503'];

function responses(ok: string, schema: Schema | undefined, errors = ERRORS): Record<string, unknown> {
  const out: Record<string, unknown> = {
    [ok]: {
      description: 'OK',
      ...(schema ? { content: { 'application/json': { schema } } } : {}),
    },
  };
  for (const e of errors)
    out[e] = {
      description: 'An error naming its fix',
      content: { 'application/json': { schema: ref('ApiError') } },
    };
  return out;
}

interface Op {
  summary: string;
  tag: string;
  body?: string;
  ok?: string;
  schema?: Schema;
  params?: string[];
}

function op(id: string, o: Op): Schema {
  return {
    operationId: id,
    summary: o.summary,
    tags: [o.tag],
    ...(o.params
      ? {
          parameters: o.params.map((name) => ({
            name,
            in: 'path',
            required: true,
            schema: { type: 'string' },
          })),
        }
      : {}),
    ...(o.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: ref(o.body) } } } }
      : {}),
    responses: responses(o.ok ?? '200', o.schema),
  };
}

const OPS: Record<string, Record<string, [string, Op]>> = {
  '/api/v1/openapi.json': {
    get: ['openapi', { summary: 'This document', tag: 'system', schema: { type: 'object' } }],
  },
  '/api/v1/session/links': {
    post: [
      'newLoginLink',
      {
        summary: 'A new one-time login URL for a browser (what `nightjar app --link` prints)',
        tag: 'system',
        schema: obj({ url: s('http://127.0.0.1:P/?token=T') }),
      },
    ],
  },
  '/api/v1/session/logout': {
    post: [
      'logout',
      {
        summary:
          'End this browser session: its cookie is cleared, its operator login and events sockets end (browser sessions also end after 30 idle minutes or 12 hours)',
        tag: 'system',
        schema: obj({ logged_in: { const: false } }),
      },
    ],
  },
  '/api/v1/venue': {
    get: [
      'getVenue',
      {
        summary: "The venue's identity and attestation checks (a)–(d)",
        tag: 'venue',
        schema: ref('VenueView'),
      },
    ],
  },
  '/api/v1/venue/verify': {
    post: [
      'verifyVenue',
      { summary: 'Check the venue again on a new connection', tag: 'venue', schema: ref('VenueView') },
    ],
  },
  '/api/v1/markets': {
    get: [
      'getMarkets',
      { summary: 'Markets in human units', tag: 'trading', schema: arr(ref('MarketView')) },
    ],
  },
  '/api/v1/balances': {
    get: [
      'getBalances',
      { summary: 'Balances per asset, from the wallet', tag: 'trading', schema: arr(ref('BalanceView')) },
    ],
  },
  '/api/v1/faucet': {
    post: [
      'faucet',
      {
        summary: 'Dev venues: airdrop to the funding account',
        tag: 'trading',
        body: 'FaucetRequest',
        schema: ref('FaucetResult'),
      },
    ],
  },
  '/api/v1/deposits': {
    post: [
      'deposit',
      {
        summary: 'Deposit into a note; resolves once it can back an order',
        tag: 'trading',
        body: 'DepositRequest',
        schema: ref('TransferView'),
      },
    ],
  },
  '/api/v1/withdrawals': {
    post: [
      'withdraw',
      {
        summary: 'Withdraw any amount to the address given, in one transaction signed by a one-time key',
        tag: 'trading',
        body: 'WithdrawRequest',
        schema: ref('TransferView'),
      },
    ],
  },
  '/api/v1/orders': {
    get: [
      'listOrders',
      { summary: "The wallet's orders, newest first", tag: 'trading', schema: arr(ref('OrderView')) },
    ],
    post: [
      'placeOrder',
      {
        summary: 'Prove, sign and place (progress frames on the WebSocket)',
        tag: 'trading',
        body: 'OrderRequest',
        ok: '201',
        schema: ref('OrderView'),
      },
    ],
  },
  '/api/v1/orders/preview': {
    post: [
      'previewOrder',
      {
        summary: 'The exact conversion and the order checks, without a proof',
        tag: 'trading',
        body: 'OrderRequest',
        schema: ref('OrderPreview'),
      },
    ],
  },
  '/api/v1/orders/{order_id}': {
    get: [
      'getOrder',
      { summary: 'One order', tag: 'trading', params: ['order_id'], schema: ref('OrderView') },
    ],
    delete: [
      'cancelOrder',
      { summary: 'Cancel', tag: 'trading', params: ['order_id'], schema: ref('OrderView') },
    ],
    patch: [
      'modifyOrder',
      {
        summary: 'Replace atomically (new price or amount)',
        tag: 'trading',
        params: ['order_id'],
        body: 'ModifyRequest',
        schema: ref('OrderView'),
      },
    ],
  },
  '/api/v1/fills': {
    get: [
      'listFills',
      {
        summary: 'Fills with their settlement (batch, stage, outcome, signature)',
        tag: 'trading',
        schema: arr(ref('FillView')),
      },
    ],
  },
  '/api/v1/operator/login': {
    post: [
      'operatorLogin',
      {
        summary: 'Admin login, held by the app for this session',
        tag: 'operator',
        body: 'OperatorLoginRequest',
        schema: ref('OperatorLoginView'),
      },
    ],
  },
  '/api/v1/operator/logout': {
    post: [
      'operatorLogout',
      { summary: 'End the admin login', tag: 'operator', schema: obj({ logged_in: { const: false } }) },
    ],
  },
  '/api/v1/operator/status': {
    get: [
      'operatorStatus',
      { summary: 'System status and drain', tag: 'operator', schema: ref('OperatorStatusView') },
    ],
  },
  '/api/v1/operator/transparency': {
    get: [
      'operatorTransparency',
      {
        summary: 'Vault balance against outstanding notes, per mint',
        tag: 'operator',
        schema: ref('TransparencyView'),
      },
    ],
  },
  '/api/v1/operator/metrics': {
    get: [
      'operatorMetrics',
      { summary: 'Settlement latency quantiles per stage', tag: 'operator', schema: ref('MetricsView') },
    ],
  },
  '/api/v1/operator/drain': {
    get: ['drainStatus', { summary: 'Drain status', tag: 'operator', schema: ref('DrainView') }],
    post: [
      'beginDrain',
      { summary: 'Begin a drain (new trading paused)', tag: 'operator', schema: ref('DrainView') },
    ],
    delete: ['cancelDrain', { summary: 'Cancel the drain', tag: 'operator', schema: ref('DrainView') }],
  },
  '/api/v1/operator/accounts': {
    get: [
      'listAccounts',
      { summary: 'Accounts this app created or changed', tag: 'operator', schema: arr(ref('AccountView')) },
    ],
    post: [
      'createAccount',
      {
        summary: 'Create an account; its credentials are shown once',
        tag: 'operator',
        body: 'CreateAccountRequest',
        ok: '201',
        schema: ref('CreatedAccountView'),
      },
    ],
  },
  '/api/v1/operator/accounts/{api_key}/disable': {
    post: [
      'disableAccount',
      { summary: 'Suspend an account', tag: 'operator', params: ['api_key'], schema: ref('AccountView') },
    ],
  },
  '/api/v1/operator/accounts/{api_key}/enable': {
    post: [
      'enableAccount',
      { summary: 'Reinstate an account', tag: 'operator', params: ['api_key'], schema: ref('AccountView') },
    ],
  },
  '/api/v1/operator/accounts/{api_key}/revoke-tokens': {
    post: [
      'revokeAccountTokens',
      {
        summary: "Revoke an account's tokens",
        tag: 'operator',
        params: ['api_key'],
        schema: ref('AccountView'),
      },
    ],
  },
  '/api/v1/events': {
    get: [
      'events',
      {
        summary: 'WebSocket upgrade: AppEvent frames (venue, order, fill, balances, progress, connection)',
        tag: 'events',
        ok: '101',
        schema: ref('AppEvent'),
      },
    ],
  },
};

export function openApiDocument(): Schema {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const [path, methods] of Object.entries(OPS)) {
    paths[path] = {};
    for (const [method, [id, o]] of Object.entries(methods)) paths[path][method] = op(id, o);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Nightjar app: local API',
      version: '1.0.0',
      description:
        "The trading app's local JSON + WebSocket API on 127.0.0.1 (docs/app.md). Amounts and prices are decimal strings in human units. " +
        'Every call needs the browser session (cookie from the printed one-time URL) or the bot token (`Authorization: Bearer`, from <data-dir>/app/api-token). ' +
        "Requests whose Host or Origin is not the app's own loopback address are refused.",
    },
    servers: [{ url: '/' }],
    security: [{ session: [] }, { botToken: [] }],
    tags: ['system', 'venue', 'trading', 'operator', 'events'].map((name) => ({ name })),
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'nightjar_session' },
        botToken: { type: 'http', scheme: 'bearer', description: 'The token in <data-dir>/app/api-token.' },
      },
    },
  };
}
