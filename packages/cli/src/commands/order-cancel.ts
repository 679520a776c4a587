/** `nightjar order cancel --id ORDER_ID | --all [--symbol S]`. */
import { cancelAll, type CancelAllReturnType, type Client } from '@nightjar/sdk';
import { aliasedOption, UsageError } from '../args.js';
import { str, type Command } from '../command.js';
import { openWallet, withClient } from '../connect.js';
import { EXIT } from '../exit-codes.js';
import type { Output } from '../output.js';
import { orderCancelById } from './order.js';

/** What `order cancel --all --json` prints: the app's `POST /api/orders/cancel-all` answer. */
export interface CancelAllOutput {
  cancelled: string[];
  failed: { order_id: string; code: string; message: string }[];
  /** Engines (markets on several) whose orders could not be listed; present when any. */
  unreachable?: { engine: string; code: string; message: string }[];
}

/** The result as printed (JSON and text), and the exit code: 1 when any cancel was refused. */
export function cancelAllOutput(r: CancelAllReturnType): {
  data: CancelAllOutput;
  text: string;
  exitCode: number;
} {
  const unreachable = r.unreachable.map((u) => ({
    engine: u.baseUrl,
    code: u.error.codeName,
    message: u.message,
  }));
  const data: CancelAllOutput = {
    cancelled: r.cancelled,
    failed: r.failed.map((f) => ({ order_id: f.orderId, code: f.error.codeName, message: f.message })),
    ...(unreachable.length > 0 ? { unreachable } : {}),
  };
  const nothing = r.cancelled.length === 0 && r.failed.length === 0 && unreachable.length === 0;
  const lines = [
    ...(nothing ? ['no live orders to cancel'] : []),
    ...r.cancelled.map((id) => `order ${id} cancelled`),
    ...data.failed.map((f) => `order ${f.order_id} NOT cancelled: ${f.code}: ${f.message}`),
    ...unreachable.map((u) => `engine ${u.engine} NOT reached (its orders are still live): ${u.code}`),
  ];
  const clean = r.failed.length === 0 && unreachable.length === 0;
  return { data, text: lines.join('\n'), exitCode: clean ? EXIT.ok : EXIT.refused };
}

/** Cancels the account's live orders (one market's with `symbol`) and prints what happened. */
export async function runCancelAll(client: Client, out: Output, symbol: string | undefined): Promise<number> {
  const label = symbol ? `cancelling every live ${symbol} order` : 'cancelling every live order';
  const result = await out.progress(label, cancelAll(client, symbol ? { symbol } : {}));
  const { data, text, exitCode } = cancelAllOutput(result);
  out.result(data, text);
  return exitCode;
}

export const orderCancel: Command = {
  name: 'order cancel',
  summary: 'cancel a resting order, or all of them',
  usage: `nightjar order cancel --id ORDER_ID
nightjar order cancel --all [--symbol S]

  --id ORDER_ID         the resting order
  --all                 every live order of the account (the venue's list, not only this wallet's)
  --symbol S            with --all: only this market's orders (alias --market)`,
  options: {
    id: { type: 'string' },
    all: { type: 'boolean' },
    symbol: { type: 'string' },
    market: { type: 'string' },
  },
  async run(ctx) {
    const { values, paths, out } = ctx;
    const symbol = aliasedOption(values, 'symbol', 'market');
    if (!values.all) {
      if (symbol !== undefined) throw new UsageError('--symbol goes with --all');
      return orderCancelById.run(ctx);
    }
    if (str(values, 'id') !== undefined) throw new UsageError('give --id ORDER_ID or --all, not both');
    return withClient(paths, { wallet: openWallet(paths) }, (client) => runCancelAll(client, out, symbol));
  },
};
