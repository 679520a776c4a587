/**
 * Issue 31 move 2: an app data directory from before the wallet kept the orders' tickets and the
 * fills (`orders.json`, `fills.json` beside a wallet file without `fills`) is read once into the
 * wallet, and every order and fill a user saw before shows the same after the upgrade.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Instrument } from '@nightjar/protocol';
import { createWallet, readText, seal, unseal, type Wallet } from '@nightjar/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import type { FillView, OrderView } from '../src/api-types.js';
import { AppState } from '../src/state.js';
import { migrateFills, migrateOrders } from '../src/trading/migrate-memory.js';
import { fillView, orderView } from '../src/trading/views.js';

const base = mkdtempSync(join(tmpdir(), 'nightjar-app-upgraded-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const SCRYPT = { N: 2 ** 4, r: 8, p: 1 };
const PASSWORD = 'pw';
/** What the views read of SOL-USDC (the venue's other fields play no part here). */
const MARKET = {
  symbol: 'SOL-USDC',
  base_decimals: 9,
  quote_decimals: 6,
  price_scale: 10n ** 9n,
  tick_size: 1_000n,
} as Instrument;
const [SOL, USDC] = [
  'So11111111111111111111111111111111111111112',
  'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
];

const BID = 'aa'.repeat(16);
const ASK = 'bb'.repeat(16);
const GONE = 'cc'.repeat(16);

/** An order view as the old app answered it (before issue 32's one vocabulary). */
type OldOrderView = Omit<OrderView, 'symbol' | 'side' | 'side_label' | 'status' | 'status_label'> & {
  market: string;
  side: 'buy' | 'sell';
  state: 'open' | 'fully_filled';
};
type OldFillView = Omit<FillView, 'symbol' | 'side' | 'side_label'> & {
  market: string;
  side: 'buy' | 'sell';
};

const SIDE = { buy: ['bid', 'Buy'], sell: ['ask', 'Sell'] } as const;
/** An old order view in the words the upgraded app says it: the same order. */
function inNewWords({ market, side, state, ...rest }: OldOrderView): OrderView {
  const status = state === 'open' ? 'pending' : state;
  const [bidAsk, label] = SIDE[side];
  const status_label = status === 'pending' ? 'Open' : 'Filled';
  return { ...rest, symbol: market, side: bidAsk, side_label: label, status, status_label };
}
function fillInNewWords({ market, side, ...rest }: OldFillView): FillView {
  return { ...rest, symbol: market, side: SIDE[side][0], side_label: SIDE[side][1] };
}

/** The views as the old app answered them (and wrote them to its files). */
const oldOrders: OldOrderView[] = [
  {
    order_id: BID,
    market: 'SOL-USDC',
    side: 'buy',
    type: 'limit',
    amount: '1.50',
    price: '100',
    filled: '1.5',
    state: 'fully_filled',
    terminal: true,
    created_at: 1000,
    expires_at: 301_000,
  },
  {
    order_id: ASK,
    market: 'SOL-USDC',
    side: 'sell',
    type: 'ioc',
    amount: '2',
    price: '99.5',
    filled: '0',
    state: 'open',
    terminal: false,
    created_at: 2000,
  },
];
const settledFill: OldFillView = {
  fill_id: `${BID}:7`,
  order_id: BID,
  market: 'SOL-USDC',
  side: 'buy',
  price: '100',
  size: '1.5',
  fee: '0.15',
  fee_asset: 'USDC',
  time: 5000,
  settlement: { batch_id: '3', stage: 'done', outcome: 'settled', ledger_signature: 'sig-settle' },
};
/** A fill heard of from an order event only: its memo (the amounts) had not come. */
const pendingFill: OldFillView = {
  ...settledFill,
  ...{ fill_id: `${ASK}:8`, order_id: ASK, side: 'sell', fee_asset: 'SOL', time: 6000 },
  ...{ price: '', size: '', fee: '' },
  settlement: { stage: 'queued', outcome: 'pending' },
};
/** A fill of an order the wallet does not track: it cannot be shown, and stays in the renamed file. */
const strayFill: OldFillView = { ...pendingFill, fill_id: `${GONE}:9`, order_id: GONE };

/** A state directory as the old app left it: a wallet file without `fills`, and its two JSON files. */
function plantOldState(name: string): AppState {
  const state = new AppState(join(base, name));
  const wallet = createWallet({ path: state.walletFile, password: PASSWORD, scrypt: SCRYPT });
  for (const o of oldOrders)
    wallet.trackOrder({
      orderId: o.order_id,
      symbol: o.market,
      side: o.side === 'buy' ? 'bid' : 'ask',
      noteCommitment: '00'.repeat(32),
      status: o.state === 'open' ? 'pending' : o.state,
      baseMint: SOL,
      quoteMint: USDC,
      filledQuantity: o.order_id === BID ? 1_500_000_000n : 0n,
    });
  wallet.save();
  const saved = JSON.parse(unseal(readText(state.walletFile), PASSWORD)) as Record<string, unknown>;
  delete saved.fills;
  // The old wallet said `open` where it says the spec's `pending` now.
  for (const o of saved.orders as { status: string }[]) if (o.status === 'pending') o.status = 'open';
  writeFileSync(state.walletFile, seal(JSON.stringify(saved), PASSWORD, SCRYPT));
  writeFileSync(
    join(state.dir, 'orders.json'),
    JSON.stringify(
      // What the old app remembered of each order (the rest came from the wallet).
      oldOrders.map((o) => ({
        order_id: o.order_id,
        market: o.market,
        side: o.side,
        type: o.type,
        amount: o.amount,
        price: o.price,
        created_at: o.created_at,
        ...(o.expires_at === undefined ? {} : { expires_at: o.expires_at }),
      })),
    ),
  );
  writeFileSync(join(state.dir, 'fills.json'), JSON.stringify([settledFill, pendingFill, strayFill]));
  return state;
}

const reopen = (state: AppState): Wallet => createWallet({ path: state.walletFile, password: PASSWORD });

function views(wallet: Wallet): { orders: OrderView[]; fills: FillView[] } {
  return {
    orders: [...wallet.orders.values()].map((o) => orderView(o, MARKET)),
    fills: [...wallet.fills.values()].map((f) => fillView(f, wallet.orders.get(f.orderId)!, MARKET)),
  };
}

describe('an app state directory from before the wallet kept orders and fills', () => {
  it('is migrated into the wallet once: the same orders and fills show after the upgrade', () => {
    const state = plantOldState('upgrade');
    const wallet = reopen(state);
    migrateOrders(state, wallet);
    migrateFills(state, wallet, [MARKET]);
    // Saved in the wallet file: a restart shows them without the old files.
    const after = views(reopen(state));
    expect(after.orders).toEqual(oldOrders.map(inNewWords));
    expect(after.fills).toEqual([settledFill, pendingFill].map(fillInNewWords));
    expect(existsSync(join(state.dir, 'orders.json'))).toBe(false);
    expect(existsSync(join(state.dir, 'fills.json'))).toBe(false);
    // Kept aside, with what could not be moved (a fill of an order the wallet does not track).
    const rest = JSON.parse(readFileSync(join(state.dir, 'fills.json.migrated'), 'utf8')) as OldFillView[];
    expect(rest).toContainEqual(strayFill);
    // Read once: a second start finds nothing to migrate and changes nothing.
    const again = reopen(state);
    migrateOrders(state, again);
    migrateFills(state, again, [MARKET]);
    expect(views(again)).toEqual(after);
  });

  it('keeps what the wallet heard of since the upgrade over the old file', () => {
    const state = plantOldState('newer');
    const wallet = reopen(state);
    const heard = wallet.trackFill(ASK, '8', 6500);
    heard.size = 2_000_000_000n;
    migrateOrders(state, wallet);
    migrateFills(state, wallet, [MARKET]);
    const fills = views(wallet).fills;
    expect(fills).toContainEqual(fillInNewWords(settledFill));
    expect(fills.find((f) => f.order_id === ASK)).toMatchObject({ size: '2', time: 6500 });
  });
});
