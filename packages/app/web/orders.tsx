/** The wallet's orders (live from `order` frames) with cancel and modify, fills, and the fills chart. */
import { useState } from 'preact/hooks';
import type { FillView, ModifyRequest, OrderView } from '../src/api-types.js';
import { api } from './api.js';
import { CancelAllButton } from './cancel-all.js';
import { ConfirmAction } from './confirm-action.js';
import { CheckField, DataTable, ErrorBox, Section, TextField } from './components.js';
import { FillFigures } from './fill-figures.js';
import { formatTime, isPositiveDecimal, shortId } from './format.js';
import { useAction } from './use-action.js';

/** A side as people read it, `bid (Buy)`, styled by its label (the classes `buy`, `sell`). */
function SideCell({ row }: { row: { side: OrderView['side']; side_label: OrderView['side_label'] } }) {
  return (
    <span class={`side ${row.side_label.toLowerCase()}`}>
      {row.side} ({row.side_label})
    </span>
  );
}

function ModifyForm({ order, onClose }: { order: OrderView; onClose: () => void }) {
  const [price, setPrice] = useState(order.price);
  const [amount, setAmount] = useState(order.amount);
  const { busy, error, setError, run } = useAction();
  const id = `mod-${order.order_id}`;
  const submit = async (e: Event) => {
    e.preventDefault();
    const body: ModifyRequest = {};
    if (price.trim() !== order.price) body.price = price.trim();
    if (amount.trim() !== order.amount) body.amount = amount.trim();
    if (
      (body.price !== undefined && !isPositiveDecimal(body.price)) ||
      (body.amount !== undefined && !isPositiveDecimal(body.amount))
    ) {
      setError({
        code: 'MODIFY_INVALID',
        message: 'The new price and amount must be positive numbers.',
        fix: 'Enter them in human units, e.g. 101.5 and 0.5.',
      });
      return;
    }
    if (body.price === undefined && body.amount === undefined) {
      setError({
        code: 'MODIFY_NOTHING',
        message: 'Nothing changed.',
        fix: 'Change the price or the amount, or close.',
      });
      return;
    }
    await run(() => api<OrderView>('PATCH', `/orders/${encodeURIComponent(order.order_id)}`, body), onClose);
  };
  return (
    <form
      class="modify"
      id={id}
      onSubmit={submit}
      aria-label={`Modify order ${shortId(order.order_id)}`}
      noValidate
    >
      <TextField id={`${id}-price`} label="New price" inputMode="decimal" value={price} onInput={setPrice} />
      <TextField
        id={`${id}-amount`}
        label="New amount"
        inputMode="decimal"
        value={amount}
        onInput={setAmount}
      />
      <button type="submit" disabled={busy}>
        {busy ? 'Saving…' : 'Save'}
      </button>
      <button type="button" class="secondary" onClick={onClose}>
        Close
      </button>
      <ErrorBox error={error} title="Modify failed" />
    </form>
  );
}

/** Cancel, once confirmed: the first click only asks (a mis-tap next to Modify cancels nothing). */
function CancelButton({ order }: { order: OrderView }) {
  const label = shortId(order.order_id);
  return (
    <ConfirmAction
      class="cancel-action"
      ask={{ text: 'Cancel…', class: 'secondary danger-outline', label: `Cancel order ${label}` }}
      question={<span>Cancel order {label}?</span>}
      groupLabel={`Confirm cancelling order ${label}`}
      yes={{ text: 'Yes, cancel it', label: `Yes, cancel order ${label}` }}
      no="Keep it"
      call={() => api('DELETE', `/orders/${encodeURIComponent(order.order_id)}`)}
      errorTitle="Cancel failed"
    />
  );
}

/** Modify (its form opens in its own row beneath the order) and, set apart, Cancel. */
function OrderActions({
  order,
  modifying,
  onModify,
}: {
  order: OrderView;
  modifying: boolean;
  onModify: (open: boolean) => void;
}) {
  if (order.terminal) return <span class="muted">—</span>;
  return (
    <div class="row-actions">
      <button
        type="button"
        class="secondary"
        aria-expanded={modifying}
        aria-controls={`mod-${order.order_id}`}
        onClick={() => onModify(!modifying)}
        aria-label={`Modify order ${shortId(order.order_id)}`}
      >
        Modify
      </button>
      <CancelButton order={order} />
    </div>
  );
}

export function OrdersPanel({ orders }: { orders: OrderView[] }) {
  const [showDone, setShowDone] = useState(true);
  const [modifying, setModifying] = useState<string>();
  const sorted = [...orders]
    .filter((o) => showDone || !o.terminal)
    .sort((a, b) => Number(a.terminal) - Number(b.terminal) || b.created_at - a.created_at)
    .slice(0, 100);
  const toggle = (o: OrderView) => (open: boolean) => setModifying(open ? o.order_id : undefined);
  return (
    <Section title="Your orders" id="orders">
      <CheckField id="orders-done" label="Show finished orders" checked={showDone} onChange={setShowDone} />
      <CancelAllButton liveCount={orders.filter((o) => !o.terminal).length} />
      <div aria-live="polite">
        <DataTable
          caption="Your orders"
          rows={sorted}
          rowKey={(o) => o.order_id}
          empty="No orders."
          detail={(o) =>
            modifying === o.order_id && !o.terminal ? (
              <ModifyForm order={o} onClose={() => setModifying(undefined)} />
            ) : null
          }
          columns={[
            { label: 'Order', cell: (o) => <code title={o.order_id}>{shortId(o.order_id)}</code> },
            { label: 'Market', cell: (o) => o.symbol },
            { label: 'Side', cell: (o) => <SideCell row={o} /> },
            { label: 'Type', cell: (o) => o.type },
            { label: 'Price', cell: (o) => o.price, numeric: true },
            { label: 'Amount', cell: (o) => o.amount, numeric: true },
            { label: 'Filled', cell: (o) => o.filled, numeric: true },
            {
              label: 'State',
              cell: (o) => (
                <span class={`state st-${o.status}`} data-testid={`state-${o.order_id}`} title={o.status}>
                  {o.status_label}
                </span>
              ),
            },
            { label: 'Expires', cell: (o) => (o.expires_at && !o.terminal ? formatTime(o.expires_at) : '—') },
            {
              label: 'Actions',
              cell: (o) => (
                <OrderActions order={o} modifying={modifying === o.order_id} onModify={toggle(o)} />
              ),
            },
          ]}
        />
      </div>
    </Section>
  );
}

export function FillsPanel({ fills }: { fills: FillView[] }) {
  const sorted = [...fills].sort((a, b) => b.time - a.time).slice(0, 200);
  return (
    <Section title="Fills" id="fills">
      <FillFigures fills={fills} />
      <FillsChart fills={fills} />
      <DataTable
        caption="Your fills"
        rows={sorted}
        rowKey={(f) => f.fill_id}
        empty="No fills yet."
        columns={[
          { label: 'Time', cell: (f) => formatTime(f.time) },
          { label: 'Market', cell: (f) => f.symbol },
          { label: 'Side', cell: (f) => <SideCell row={f} /> },
          { label: 'Price', cell: (f) => f.price, numeric: true },
          { label: 'Size', cell: (f) => f.size, numeric: true },
          { label: 'Fee', cell: (f) => `${f.fee} ${f.fee_asset}`, numeric: true },
          {
            label: 'Settlement',
            cell: (f) => (
              <span class={`state out-${f.settlement.outcome}`}>
                {f.settlement.outcome} ({f.settlement.stage})
              </span>
            ),
          },
          { label: 'Batch', cell: (f) => f.settlement.batch_id ?? '—' },
          {
            label: 'Ledger signature',
            cell: (f) =>
              f.settlement.ledger_signature ? (
                <code title={f.settlement.ledger_signature}>{shortId(f.settlement.ledger_signature)}</code>
              ) : (
                '—'
              ),
          },
        ]}
      />
    </Section>
  );
}

const W = 640;
const H = 220;
const PAD = { l: 56, r: 12, t: 12, b: 28 };

/**
 * The trader's own fills: price over time for one market, bids ▲ and asks ▼. A fill whose memo
 * has not arrived has no price: it is not drawn (and alone draws no chart).
 */
export function FillsChart({ fills: all }: { fills: FillView[] }) {
  const fills = all.filter((f) => f.price !== '');
  const markets = [...new Set(fills.map((f) => f.symbol))];
  const [chosen, setChosen] = useState('');
  const market = markets.includes(chosen) ? chosen : markets[0];
  if (!market) return null;
  const pts = fills.filter((f) => f.symbol === market).sort((a, b) => a.time - b.time);
  const prices = pts.map((f) => Number(f.price));
  const times = pts.map((f) => f.time);
  let pMin = Math.min(...prices);
  let pMax = Math.max(...prices);
  if (pMin === pMax) {
    pMin -= 1;
    pMax += 1;
  }
  let tMin = Math.min(...times);
  let tMax = Math.max(...times);
  if (tMin === tMax) {
    tMin -= 30_000;
    tMax += 30_000;
  }
  const x = (t: number) => PAD.l + ((t - tMin) / (tMax - tMin)) * (W - PAD.l - PAD.r);
  const y = (p: number) => PAD.t + (1 - (p - pMin) / (pMax - pMin)) * (H - PAD.t - PAD.b);
  const line = pts
    .map((f, i) => `${i === 0 ? 'M' : 'L'}${x(f.time).toFixed(1)},${y(Number(f.price)).toFixed(1)}`)
    .join(' ');
  const desc = `${pts.length} fill${pts.length === 1 ? '' : 's'} in ${market} from ${formatTime(times[0] ?? 0)} to ${formatTime(
    times[times.length - 1] ?? 0,
  )}, prices ${Math.min(...prices)} to ${Math.max(...prices)}.`;
  return (
    <figure class="chart">
      {markets.length > 1 ? (
        <label for="chart-market">
          Chart market
          <select id="chart-market" value={market} onChange={(e) => setChosen(e.currentTarget.value)}>
            {markets.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </label>
      ) : null}
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="chart-title chart-desc">
        <title id="chart-title">Your fills in {market}</title>
        <desc id="chart-desc">{desc}</desc>
        <line x1={PAD.l} y1={H - PAD.b} x2={W - PAD.r} y2={H - PAD.b} stroke="#57606a" />
        <line x1={PAD.l} y1={PAD.t} x2={PAD.l} y2={H - PAD.b} stroke="#57606a" />
        <text x={PAD.l - 6} y={PAD.t + 10} text-anchor="end" class="axis">
          {pMax}
        </text>
        <text x={PAD.l - 6} y={H - PAD.b} text-anchor="end" class="axis">
          {pMin}
        </text>
        <text x={PAD.l} y={H - 8} class="axis">
          {formatTime(tMin)}
        </text>
        <text x={W - PAD.r} y={H - 8} text-anchor="end" class="axis">
          {formatTime(tMax)}
        </text>
        <path d={line} fill="none" stroke="#8c959f" stroke-width="1.5" />
        {pts.map((f) => {
          const cx = x(f.time);
          const cy = y(Number(f.price));
          const up = f.side === 'bid';
          const d = up
            ? `M${cx},${cy - 6} L${cx + 6},${cy + 5} L${cx - 6},${cy + 5} Z`
            : `M${cx},${cy + 6} L${cx + 6},${cy - 5} L${cx - 6},${cy - 5} Z`;
          return <path key={f.fill_id} d={d} fill={up ? '#1a7f37' : '#cf222e'} />;
        })}
      </svg>
      <figcaption class="muted">
        <span class="side buy">▲ bid (Buy)</span> <span class="side sell">▼ ask (Sell)</span> — price (
        {market}) over time
      </figcaption>
    </figure>
  );
}
