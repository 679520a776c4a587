/** `nightjar order place|cancel|modify|status|list`. */
import { existsSync } from 'node:fs';
import {
  cancelOrder,
  formatPrice,
  formatUnits,
  getOpenOrders,
  getOrder,
  modifyOrder,
  ORDER_STATE_LABELS,
  parseSide,
  placeOrder,
  SIDE_LABELS,
  syncWallet,
  type BuildOrderParameters,
  type Client,
  type Expiry,
  type GetOrderReturnType,
} from '@nightjar/sdk';
import { aliasedOption, positiveIntOption, UsageError } from '../args.js';
import { walletFile } from '../config.js';
import { openWallet, withClient } from '../connect.js';
import { str, type Command, type Options, type Values } from '../command.js';

const ORDER_FLAGS = {
  side: { type: 'string' },
  amount: { type: 'string' },
  price: { type: 'string' },
  type: { type: 'string' },
  'min-fill': { type: 'string' },
  'expiry-seconds': { type: 'string' },
  'expires-in': { type: 'string' },
  'fresh-note-hold': { type: 'string' },
} as const satisfies Options;

const ORDER_FLAGS_USAGE = `  --side bid|ask        required (buy and sell are accepted: bid is a buy, ask a sell)
  --amount X            size in base units (e.g. 1.5)
  --price P             limit price, quote per base (an ask may omit it)
  --type T              limit (default), ioc or fok
  --min-fill X          smallest acceptable fill
  --expiry-seconds N    lifetime (default 1,000 slots, about 400 s); alias --expires-in
  --fresh-note-hold S   a new deposit backs no order until a random 0..S s after it is final
                        (waits it out): its finality then does not time this order (default off)`;

/** The client options and note wait of `--fresh-note-hold S` (seconds), or none. */
function holdOptions(values: Values): { hold?: { maxMs: number }; noteWaitMs?: number } {
  const s = str(values, 'fresh-note-hold');
  if (s === undefined) return {};
  const maxMs = positiveIntOption('fresh-note-hold', s, 1) * 1000;
  // One process draws the hold and waits it out (its draw is not kept for the next one).
  return { hold: { maxMs }, noteWaitMs: FINAL_NOTE_WAIT_MS + maxMs };
}

/** How long an order waits for a note to reach the venue's tree (the SDK's default). */
const FINAL_NOTE_WAIT_MS = 20_000;

/** The SDK's order parameters of the order flags (`--side buy` and `--expires-in` read as aliases). */
export function orderParams(values: Values): Omit<BuildOrderParameters, 'symbol'> {
  const side = parseSide(str(values, 'side') ?? '');
  if (!side) throw new UsageError('--side must be bid or ask (or buy or sell)');
  const amount = str(values, 'amount');
  if (!amount) throw new UsageError('--amount is required');
  const type = str(values, 'type') ?? 'limit';
  if (type !== 'limit' && type !== 'ioc' && type !== 'fok')
    throw new UsageError('--type must be limit, ioc or fok');
  const price = str(values, 'price');
  const minFill = str(values, 'min-fill');
  const seconds = aliasedOption(values, 'expiry-seconds', 'expires-in');
  const expiry: Expiry | undefined = seconds
    ? { seconds: positiveIntOption('expiry-seconds', seconds, 1) }
    : undefined;
  const { noteWaitMs } = holdOptions(values);
  return {
    side,
    type,
    amount,
    ...(noteWaitMs === undefined ? {} : { noteWaitMs }),
    ...(price ? { price } : {}),
    ...(minFill ? { minFillSize: minFill } : {}),
    ...(expiry ? { expiry } : {}),
  };
}

function requireId(values: Values): string {
  const id = str(values, 'id');
  if (!id) throw new UsageError('--id ORDER_ID is required');
  return id;
}

/**
 * An order in human units and the one vocabulary: `status` is the state the wallet knows
 * (`fully_filled` where the venue says `empty`), `venue_status` the venue's own word.
 */
export async function describeOrder(client: Pick<Client, 'instrument'>, o: GetOrderReturnType) {
  const inst = await client.instrument(o.symbol);
  return {
    order_id: o.order_id,
    symbol: o.symbol,
    side: o.side,
    side_label: SIDE_LABELS[o.side],
    type: o.order_type,
    status: o.state,
    status_label: ORDER_STATE_LABELS[o.state],
    venue_status: o.status,
    amount: formatUnits(o.amount, inst.base_decimals),
    filled: formatUnits(o.filled_quantity, inst.base_decimals),
    price: formatPrice(o.price_limit, inst),
    expiry_slot: o.expiry_slot,
    arrival_slot: o.arrival_slot,
  };
}

/** An order as one line: `… bid (Buy) 1 @ 150  fully_filled (Filled)  filled 1`. */
export const orderLine = (d: Awaited<ReturnType<typeof describeOrder>>) =>
  `${d.order_id}  ${d.symbol}  ${d.side} (${d.side_label}) ${d.amount} @ ${d.price}  ${d.status} (${d.status_label})  filled ${d.filled}`;

export const orderPlace: Command = {
  name: 'order place',
  summary: 'prove, sign and place an order',
  usage: `nightjar order place --symbol S --side bid|ask --amount X [--price P] [flags]

  --symbol S            market, e.g. SOL-USDC (default SOL-USDC); alias --market
${ORDER_FLAGS_USAGE}`,
  options: { symbol: { type: 'string' }, market: { type: 'string' }, ...ORDER_FLAGS },
  async run({ out, paths, values }) {
    const symbol = aliasedOption(values, 'symbol', 'market') ?? 'SOL-USDC';
    const params = { symbol, ...orderParams(values) };
    const wallet = openWallet(paths);
    const { hold } = holdOptions(values);
    return withClient(paths, { wallet, ...(hold ? { freshNoteHold: hold } : {}) }, async (client) => {
      await out.progress('syncing the wallet', syncWallet(client, { refreshOrders: true }));
      const placed = await out.progress('proving and placing', placeOrder(client, params));
      out.result(
        {
          order_id: placed.orderId,
          status: placed.status,
          arrival_slot: placed.arrivalSlot,
          note: placed.noteCommitment,
        },
        `order ${placed.orderId} accepted at slot ${placed.arrivalSlot} (accepted is not filled: \`nightjar order status --id ${placed.orderId}\`)`,
      );
      return 0;
    });
  },
};

export const orderModify: Command = {
  name: 'order modify',
  summary: 'atomically replace a resting order',
  usage: `nightjar order modify --id ORDER_ID --side bid|ask --amount X [--price P] [--in-place] [flags]

  --id ORDER_ID         the resting order
  --in-place            keep the same order id
${ORDER_FLAGS_USAGE}`,
  options: { id: { type: 'string' }, 'in-place': { type: 'boolean' }, ...ORDER_FLAGS },
  async run({ out, paths, values }) {
    const orderId = requireId(values);
    const params = orderParams(values);
    const wallet = openWallet(paths);
    const { hold } = holdOptions(values);
    return withClient(paths, { wallet, ...(hold ? { freshNoteHold: hold } : {}) }, async (client) => {
      const placed = await out.progress(
        'proving and replacing',
        modifyOrder(client, { orderId, ...params, ...(values['in-place'] ? { newOrderId: orderId } : {}) }),
      );
      out.result(
        {
          order_id: placed.orderId,
          replaced_order_id: orderId,
          status: placed.status,
          arrival_slot: placed.arrivalSlot,
        },
        `order ${orderId} replaced by ${placed.orderId}`,
      );
      return 0;
    });
  },
};

/** The wallet, when `wallet` asks for it: `required`, or `optional` (the wallet file if there is one). */
function walletFor(paths: Parameters<typeof openWallet>[0], wallet: 'required' | 'optional') {
  if (wallet === 'optional' && !existsSync(walletFile(paths))) return {};
  return { wallet: openWallet(paths) };
}

/** `order cancel|status --id ORDER_ID`: one call about one order, its answer printed. */
export function byIdCommand(
  verb: string,
  summary: string,
  wallet: 'required' | 'optional',
  act: (client: Client, orderId: string) => Promise<{ data: unknown; text: string }>,
): Command {
  return {
    name: `order ${verb}`,
    summary,
    usage: `nightjar order ${verb} --id ORDER_ID`,
    options: { id: { type: 'string' } },
    async run({ out, paths, values }) {
      const orderId = requireId(values);
      return withClient(paths, walletFor(paths, wallet), async (client) => {
        const { data, text } = await act(client, orderId);
        out.result(data, text);
        return 0;
      });
    },
  };
}

// A cancel needs the wallet (the order is one of its orders); a status reads the wallet when
// there is one, so it says what the wallet knows (`fully_filled`, not the venue's `empty`).
export const orderCancelById = byIdCommand(
  'cancel',
  'cancel a resting order',
  'required',
  async (client, orderId) => ({
    data: await cancelOrder(client, { orderId }),
    text: `order ${orderId} cancelled`,
  }),
);

export const orderStatus = byIdCommand(
  'status',
  "an order's state and fill",
  'optional',
  async (client, orderId) => {
    const d = await describeOrder(client, await getOrder(client, { orderId }));
    return { data: d, text: orderLine(d) };
  },
);

export const orderList: Command = {
  name: 'order list',
  summary: "the account's live orders",
  usage: `nightjar order list`,
  options: {},
  async run({ out, paths }) {
    return withClient(paths, walletFor(paths, 'optional'), async (client) => {
      const orders = await Promise.all((await getOpenOrders(client)).map((o) => describeOrder(client, o)));
      out.result(orders, orders.length === 0 ? 'no live orders' : orders.map(orderLine).join('\n'));
      return 0;
    });
  },
};
