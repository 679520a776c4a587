/**
 * A stand-in SDK client for the actions' unit tests (`packages/sdk/src/actions/<verb>.test.ts`):
 * no venue is started. The venue is a table of routes answering with wire JSON, which the action's
 * own codec parses as the real session does; the wallet lives in memory; the prover is the stand-in
 * (`standInProver`); a verb that needs a ledger gets the in-process dev ledger with a manual clock.
 * Tests only.
 */
import {
  COMMITMENT_LAG,
  DEMO_MARKETS,
  DEMO_MINTS,
  ensureDevGenesis,
  Ledger,
  loadOrCreateDevKeys,
  marketAddress,
  mintAddress,
  type LedgerClient,
  type LedgerProofVerifier,
} from '@nightjar/ledger';
import { instrumentCodec, parseJsonExact, stringifyJson } from '@nightjar/protocol';
import {
  createWallet,
  deposit,
  memoryNonceStore,
  venueError,
  type Client,
  type ClientRequestOptions,
  type Prover,
  type Wallet,
  type WalletNote,
} from '@nightjar/sdk';
import { afterAll, beforeAll } from 'vitest';
import { standInProver } from './sdk-fast-venue.js';

export const FAKE_SOL = mintAddress('SOL');
export const FAKE_USDC = mintAddress('USDC');

/** The dev ledger's first market (SOL-USDC, from its genesis table) as `GET /instruments` sends it. */
function demoInstrument(market: (typeof DEMO_MARKETS)[number]) {
  const decimals = (label: string) => DEMO_MINTS.find((m) => m.label === label)!.decimals;
  return {
    symbol: market.symbol,
    market_id: marketAddress(market.symbol),
    base_mint: mintAddress(market.base),
    quote_mint: mintAddress(market.quote),
    base_decimals: decimals(market.base),
    quote_decimals: decimals(market.quote),
    price_scale: BigInt(market.price_scale),
    tick_size: BigInt(market.tick_size),
    min_order_size: BigInt(market.min_order_size),
    fee_bps: BigInt(market.fee_bps),
    trading_enabled: true,
  };
}

export const FAKE_MARKET = demoInstrument(DEMO_MARKETS[0]);

/** A field element of zeros, as the venue writes one (64 hex digits). */
export const ZERO_FIELD = '00'.repeat(32);

/** One request the fake venue received. */
export interface FakeRequest {
  method: string;
  path: string;
  /** The path's `:name` segments and its query parameters. */
  params: Record<string, string>;
  body: unknown;
  auth: boolean;
}

/** Answers a request with its JSON body (u64 as numbers or bigints), or throws (a `venueError(...)` for a venue refusal). */
export type FakeRoute = (req: FakeRequest) => unknown;

/** Routes keyed `'METHOD /path/:param'`; the query string is matched by nobody, read from `params`. */
export type FakeRoutes = Record<string, FakeRoute>;

/** What every fake venue answers unless a test replaces it: enough for orders and waits. */
export function defaultRoutes(): FakeRoutes {
  return {
    'GET /instruments': () => [FAKE_MARKET],
    'GET /instruments/:symbol': ({ params }) => {
      if (params.symbol !== FAKE_MARKET.symbol) throw venueError(1301, 404, 'unknown instrument');
      return FAKE_MARKET;
    },
    'GET /time': () => ({ slot: 1000, unix_ms: Date.now() }),
    // Every note the wallet holds is in the venue's tree.
    'GET /tree/root': ({ params }) => ({
      tree_id: Number(params.tree_id ?? 0),
      merkle_root: ZERO_FIELD,
      leaf_count: 1_000_000,
      on_chain_slot: 1000,
    }),
    // The stand-in prover reads no path: any well-formed one will do.
    'GET /tree/inclusion': ({ params }) => ({
      note_commitment: params.note_commitment,
      leaf_index: 0,
      merkle_root: ZERO_FIELD,
      siblings: Array.from({ length: 20 }, () => ZERO_FIELD),
    }),
    'POST /orders': ({ body }) => ({
      order_id: (body as { order_id: string }).order_id,
      status: 'accepted',
      arrival_slot: 1001,
    }),
  };
}

/** The route answering `method path`, and the path's parameters. */
function matchRoute(
  routes: FakeRoutes,
  method: string,
  path: string,
): { route: FakeRoute; params: FakeRequest['params'] } | undefined {
  const [pathname, query] = path.split('?') as [string, string | undefined];
  const parts = pathname.split('/');
  for (const key of Object.keys(routes)) {
    const [m, pattern] = key.split(' ') as [string, string];
    const want = pattern.split('/');
    if (m !== method || want.length !== parts.length) continue;
    const params: Record<string, string> = {};
    if (
      want.every((w, i) => {
        if (w.startsWith(':')) return ((params[w.slice(1)] = decodeURIComponent(parts[i]!)), true);
        return w === parts[i];
      })
    ) {
      for (const [k, v] of new URLSearchParams(query ?? '')) params[k] = v;
      return { route: routes[key]!, params };
    }
  }
  return undefined;
}

/** A route the venue refuses with its typed error (`venueError`). */
export function refusing(...error: Parameters<typeof venueError>): FakeRoute {
  return () => {
    throw venueError(...error);
  };
}

/** An order's status body (`GET /orders/{id}`, `GET /account/orders`): a 1 SOL bid at 150, resting. */
export function orderStatusBody(overrides: Record<string, unknown> = {}) {
  return {
    order_id: 'aa'.repeat(16),
    symbol: 'SOL-USDC',
    side: 'bid',
    order_type: 'limit',
    status: 'pending',
    amount: 1_000_000_000,
    filled_quantity: 0,
    price_limit: 150_000_000,
    expiry_slot: 9000,
    arrival_slot: 1000,
    ...overrides,
  };
}

/** Options of `fakeClient`. */
export interface FakeClientOptions {
  /** Routes added to (or replacing) `defaultRoutes()`. */
  routes?: FakeRoutes;
  /** The client's ledger (default: one that throws on every call: the verb needs none). */
  ledger?: LedgerClient;
  /** The wallet (default a fresh one in memory). */
  wallet?: Wallet;
  /** The prover (default `standInProver`). */
  prover?: Prover;
}

/** The client, the venue's requests in order, and the wallet. */
export interface FakeClient {
  client: Client;
  requests: FakeRequest[];
  wallet: Wallet;
}

const noLedger = new Proxy({} as LedgerClient, {
  get: (_t, name) => () => Promise.reject(new Error(`this fake client has no ledger (${String(name)})`)),
});

/** An SDK client whose venue is `routes`, whose wallet is in memory and whose prover is the stand-in. */
export function fakeClient(options: FakeClientOptions = {}): FakeClient {
  const routes = { ...defaultRoutes(), ...options.routes };
  const wallet = options.wallet ?? createWallet();
  const requests: FakeRequest[] = [];
  async function request<T>(path: string, o: ClientRequestOptions<T> = {}): Promise<T> {
    const method = o.method ?? 'GET';
    const match = matchRoute(routes, method, path);
    if (!match) throw new Error(`the fake venue has no route for ${method} ${path}`);
    const { route, params } = match;
    // Both ways through exact JSON, as on the wire (u64 fields as bigints).
    const body = o.body === undefined ? undefined : parseJsonExact(stringifyJson(o.body));
    const req: FakeRequest = { method, path, params, body, auth: o.auth ?? true };
    requests.push(req);
    const wire = parseJsonExact(stringifyJson((await route(req)) ?? null));
    return o.codec ? o.codec.parse(wire) : (wire as T);
  }
  const client: Client = {
    baseUrl: 'https://venue.test',
    transport: undefined as never,
    ledger: options.ledger ?? noLedger,
    nonces: memoryNonceStore(),
    slotMs: 5,
    accountId: 'account-1',
    accessToken: async () => 'token',
    refreshToken: async () => 'token',
    tokenExpiry: () => undefined,
    refreshLeadMs: 0,
    bootSessionId: async () => 'ab'.repeat(32),
    request,
    instrument: (symbol) =>
      request(`/instruments/${encodeURIComponent(symbol)}`, { auth: false, codec: instrumentCodec }),
    wallet,
    hasWallet: true,
    prover: () => options.prover ?? standInProver,
    onProof: () => () => undefined,
    // One engine serves every market.
    engineFor: async () => client,
    engines: async () => [{ baseUrl: client.baseUrl, session: client }],
    close: async () => undefined,
  };
  return { client, requests, wallet };
}

/** The ledger's stand-in proof check: accepts every proof but one starting 0xdd. */
const acceptAllProofs: LedgerProofVerifier = { verify: async (_c, proof) => proof[0] !== 0xdd };

/**
 * The in-process dev ledger (in memory, manual clock, stand-in proof checks) with its genesis, for
 * verbs that send transactions. Close it after the test.
 */
export async function fakeLedger(): Promise<Ledger> {
  const ledger = Ledger.open({
    clock: { mode: 'manual' },
    verifier: acceptAllProofs,
    freshSignerWorkBits: 4,
  });
  await ensureDevGenesis(ledger, loadOrCreateDevKeys(undefined));
  await ledger.advanceSlots({ slots: 40 });
  return ledger;
}

/** The dev ledger of a test file (`fakeLedger`): opened before its tests, closed after them. */
export function useFakeLedger(): () => Ledger {
  let ledger: Ledger | undefined;
  beforeAll(async () => {
    ledger = await fakeLedger();
  });
  afterAll(async () => {
    await ledger?.close();
  });
  return () => ledger!;
}

/** Lets the ledger finalize what landed (the clock is the test's). */
export async function finalizeLedger(ledger: Ledger): Promise<void> {
  await ledger.advanceSlots({ slots: COMMITMENT_LAG.finalized + 1 });
}

/**
 * Puts a free note of `amount` `mint` in the wallet at leaf `leafIndex` without a ledger (a deposit
 * note of the next deposit index): enough for verbs that only read the wallet and the venue.
 */
export function giveNote(wallet: Wallet, mint: string, amount: bigint, leafIndex = 0) {
  const index = wallet.depositCount++;
  const { note } = wallet.depositNote(index, mint, amount);
  const stored = { ...note, leafIndex, state: 'free' as const };
  wallet.addNote(stored);
  wallet.leaves.set(note.commitment, { treeId: note.treeId, leafIndex });
  return stored;
}

/**
 * Deposits one note of each of `amounts` (atomic units of `mint`) through the ledger, from a faucet
 * airdrop to the funding account; resolves once they landed (the fake venue's tree has them).
 */
export async function depositNotes(
  fake: FakeClient,
  ledger: Ledger,
  mint: string,
  amounts: readonly bigint[],
): Promise<WalletNote[]> {
  const total = amounts.reduce((s, a) => s + a, 0n);
  await ledger.requestAirdrop({ owner: fake.wallet.keys.funding.address, mint, amount: total.toString() });
  const notes: WalletNote[] = [];
  for (const amount of amounts)
    notes.push((await deposit(fake.client, { mint, amount, wait: 'landed' })).note);
  return notes;
}
