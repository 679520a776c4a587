/** Per market, from the wallet's own fills (computed in the app, never asked of the venue): average prices, fees, realised P&L. */
import { useEffect, useState } from 'preact/hooks';
import type { FillSummaryView, FillView } from '../src/api-types.js';
import { api, errorOf, type ErrorBody } from './api.js';
import { DataTable, ErrorBox } from './components.js';

/** What changes the figures: a fill heard of, its memo, its settlement's outcome. */
const fillsKey = (fills: FillView[]) =>
  fills
    .map((f) => `${f.fill_id}:${f.price}:${f.settlement.outcome}`)
    .sort()
    .join(',');

const orDash = (v: string) => (v === '' ? '—' : v);

function useFillSummary(fills: FillView[]) {
  const [rows, setRows] = useState<FillSummaryView[]>([]);
  const [error, setError] = useState<ErrorBody>();
  const key = fillsKey(fills);
  useEffect(() => {
    if (fills.length === 0) return;
    let live = true;
    api<FillSummaryView[]>('GET', '/fills/summary').then(
      (r) => live && (setRows(r), setError(undefined)),
      (e: unknown) => live && setError(errorOf(e)),
    );
    return () => {
      live = false;
    };
    // Only a change in the fills' content asks again, not a new array of the same fills.
  }, [key]);
  return { rows: fills.length === 0 ? [] : rows, error };
}

export function FillFigures({ fills }: { fills: FillView[] }) {
  const { rows, error } = useFillSummary(fills);
  if (rows.length === 0 && !error) return null;
  return (
    <div class="fill-figures" data-testid="fill-figures">
      <h3>Your figures per market</h3>
      <DataTable
        caption="Average fill price, fees paid and realised P&L per market"
        rows={rows}
        rowKey={(r) => r.symbol}
        empty="No fill with its memo yet."
        columns={[
          { label: 'Market', cell: (r) => <strong>{r.symbol}</strong> },
          { label: 'Avg buy', cell: (r) => orDash(r.avg_buy_price), numeric: true },
          { label: 'Avg sell', cell: (r) => orDash(r.avg_sell_price), numeric: true },
          { label: 'Bought / sold', cell: (r) => `${r.bought} / ${r.sold} ${r.base}`, numeric: true },
          {
            label: 'Fees paid',
            cell: (r) => `${r.fees_quote} ${r.quote} + ${r.fees_base} ${r.base}`,
            numeric: true,
          },
          { label: 'Position', cell: (r) => `${r.position} ${r.base}`, numeric: true },
          {
            label: 'Realised P&L',
            cell: (r) => (
              <span data-testid={`pnl-${r.symbol}`}>
                {r.realised_pnl} {r.quote}
              </span>
            ),
            numeric: true,
          },
          { label: 'Awaiting memo', cell: (r) => String(r.awaiting_memo), numeric: true },
        ]}
      />
      <p class="muted small">
        Method: average cost. A sale realises (price − average cost of your position) × size; every fee is
        subtracted (a sell's fee, paid in {rows[0]?.base ?? 'the base asset'}, valued at that fill's price).
        Computed in this app from your own fill memos; the venue is not asked. A fill whose memo has not
        arrived counts only under "Awaiting memo".
      </p>
      <ErrorBox error={error} title="Could not compute the figures" />
    </div>
  );
}
