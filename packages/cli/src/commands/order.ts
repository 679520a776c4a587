/** `nightjar order place|cancel|modify|status|list`. */
import {
  cancelOrder,
  formatPrice,
  formatUnits,
  getOpenOrders,
  getOrder,
  modifyOrder,
  placeOrder,
  syncWallet,
  type BuildOrderParameters,
  type Client,
  type Expiry,
} from '@nightjar/sdk';
import type { OrderStatusResponse } from '@nightjar/protocol';
import { positiveIntOption, UsageError } from '../args.js';
import { openWallet, withClient } from '../connect.js';
import { str, type Command, type Options, type Values } from '../command.js';

const ORDER_FLAGS = {
  side: { type: 'string' },
  amount: { type: 'string' },
  price: { type: 'string' },
  type: { type: 'string' },
  'min-fill': { type: 'string' },
  'expiry-seconds': { type: 'string' },
  'fresh-note-hold': { type: 'string' },
} as const satisfies Options;

const ORDER_FLAGS_USAGE = `  --side bid|ask        required
  --amount X            size in base units (e.g. 1.5)
  --price P             limit price, quote per base (an ask may omit it)
  --type T              limit (default), ioc or fok
  --min-fill X          smallest acceptable fill
  --expiry-seconds N    lifetime (default 1,000 slots, about 400 s)
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

function orderParams(values: Values): Omit<BuildOrderParameters, 'symbol'> {
  const side = str(values, 'side');
  if (side !== 'bid' && side !== 'ask') throw new UsageError('--side must be bid or ask');
  const amount = str(values, 'amount');
  if (!amount) throw new UsageError('--amount is required');
  const type = str(values, 'type') ?? 'limit';
  if (type !== 'limit' && type !== 'ioc' && type !== 'fok')
    throw new UsageError('--type must be limit, ioc or fok');
  const price = str(values, 'price');
  const minFill = str(values, 'min-fill');
  const seconds = str(values, 'expiry-seconds');
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

/** An order status body in human units. */
async function describe(client: Client, o: OrderStatusResponse) {
  const inst = await client.instrument(o.symbol);
  return {
    order_id: o.order_id,
    symbol: o.symbol,
    side: o.side,
    type: o.order_type,
    status: o.status,
    amount: formatUnits(o.amount, inst.base_decimals),
    filled: formatUnits(o.filled_quantity, inst.base_decimals),
    price: formatPrice(o.price_limit, inst),
    expiry_slot: o.expiry_slot,
    arrival_slot: o.arrival_slot,
  };
}

const line = (d: Awaited<ReturnType<typeof describe>>) =>
  `${d.order_id}  ${d.symbol}  ${d.side} ${d.amount} @ ${d.price}  ${d.status}  filled ${d.filled}`;

export const orderPlace: Command = {
  name: 'order place',
  summary: 'prove, sign and place an order',
  usage: `nightjar order place --symbol S --side bid|ask --amount X [--price P] [flags]

  --symbol S            market, e.g. SOL-USDC (default SOL-USDC)
${ORDER_FLAGS_USAGE}`,
  options: { symbol: { type: 'string' }, ...ORDER_FLAGS },
  async run({ out, paths, values }) {
    const params = { symbol: str(values, 'symbol') ?? 'SOL-USDC', ...orderParams(values) };
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

/** `order cancel|status --id ORDER_ID`: one call about one order, its answer printed. */
export function byIdCommand(
  verb: string,
  summary: string,
  withWallet: boolean,
  act: (client: Client, orderId: string) => Promise<{ data: unknown; text: string }>,
): Command {
  return {
    name: `order ${verb}`,
    summary,
    usage: `nightjar order ${verb} --id ORDER_ID`,
    options: { id: { type: 'string' } },
    async run({ out, paths, values }) {
      const orderId = requireId(values);
      return withClient(paths, withWallet ? { wallet: openWallet(paths) } : {}, async (client) => {
        const { data, text } = await act(client, orderId);
        out.result(data, text);
        return 0;
      });
    },
  };
}

// A cancel opens the wallet (the order is one of its orders); a status needs none.
export const orderCancelById = byIdCommand(
  'cancel',
  'cancel a resting order',
  true,
  async (client, orderId) => ({
    data: await cancelOrder(client, { orderId }),
    text: `order ${orderId} cancelled`,
  }),
);

export const orderStatus = byIdCommand(
  'status',
  "an order's status and fill",
  false,
  async (client, orderId) => {
    const d = await describe(client, await getOrder(client, { orderId }));
    return { data: d, text: line(d) };
  },
);

export const orderList: Command = {
  name: 'order list',
  summary: "the account's live orders",
  usage: `nightjar order list`,
  options: {},
  async run({ out, paths }) {
    return withClient(paths, {}, async (client) => {
      const orders = await Promise.all((await getOpenOrders(client)).map((o) => describe(client, o)));
      out.result(orders, orders.length === 0 ? 'no live orders' : orders.map(line).join('\n'));
      return 0;
    });
  },
};
