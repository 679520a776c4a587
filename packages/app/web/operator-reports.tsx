/** The operator view's read-only panels: transparency per mint and settlement metrics. */
import type { MarketView } from '../src/api-types.js';
import { listOf, type ErrorBody } from './api.js';
import { DataTable, ErrorBox, Section } from './components.js';
import { fromUnits, shortId, text } from './format.js';
import { KeyValues, obj, type Obj } from './key-values.js';

function assetOfMint(markets: MarketView[]): Map<string, { symbol: string; decimals: number }> {
  const m = new Map<string, { symbol: string; decimals: number }>();
  for (const mk of markets) {
    m.set(mk.base.mint, { symbol: mk.base.symbol, decimals: mk.base.decimals });
    m.set(mk.quote.mint, { symbol: mk.quote.symbol, decimals: mk.quote.decimals });
  }
  return m;
}

export function TransparencyPanel({
  data,
  error,
  markets,
}: {
  data?: Obj;
  error?: ErrorBody;
  markets: MarketView[];
}) {
  const mints = listOf<Obj>(data?.mints, 'mints');
  const assets = assetOfMint(markets);
  // The app sends human units beside the asset (TransparencyView); the venue's raw body has units.
  const fmt = (m: Obj, field: 'vault_balance' | 'outstanding_note_value') => {
    if (typeof m.asset === 'string') return `${text(m[field])} ${m.asset}`;
    const a = assets.get(String(m.mint));
    return a ? `${fromUnits(m[field], a.decimals)} ${a.symbol}` : text(m[field]);
  };
  const symbolOf = (m: Obj) => (typeof m.asset === 'string' ? m.asset : assets.get(String(m.mint))?.symbol);
  return (
    <Section title="Transparency" id="op-transparency">
      <ErrorBox error={error} title="Transparency unavailable" />
      {data ? (
        <>
          <DataTable
            caption="Vault balance against outstanding notes per mint"
            rows={mints}
            rowKey={(m) => String(m.mint)}
            empty="No mint on the ledger yet."
            columns={[
              {
                label: 'Asset',
                cell: (m) => symbolOf(m) ?? <code>{shortId(String(m.mint))}</code>,
              },
              { label: 'Vault balance', cell: (m) => fmt(m, 'vault_balance'), numeric: true },
              {
                label: 'Outstanding notes',
                cell: (m) => fmt(m, 'outstanding_note_value'),
                numeric: true,
              },
              {
                label: 'Solvent',
                cell: (m) => {
                  try {
                    const ok =
                      typeof m.solvent === 'boolean'
                        ? m.solvent
                        : BigInt(String(m.vault_balance)) >= BigInt(String(m.outstanding_note_value));
                    return (
                      <span class={ok ? 'state out-settled' : 'state out-failed'}>{ok ? 'yes' : 'NO'}</span>
                    );
                  } catch {
                    return '—';
                  }
                },
              },
            ]}
          />
          <KeyValues data={{ slot: data.slot, ...obj(data.orders), ...obj(data.settlement) }} />
          {data.engine ? (
            <details>
              <summary>Engine identity</summary>
              <KeyValues data={obj(data.engine)} />
            </details>
          ) : null}
        </>
      ) : null}
    </Section>
  );
}

/** The venue's settlement stages in pipeline order (SETTLEMENT_STAGES), then the end-to-end timings. */
const STAGE_ORDER = [
  'queued',
  'locking_notes',
  'proving',
  'verifying',
  'settling',
  'closing',
  'done',
  'failed',
  'input_path_wait',
  'prove',
  'verify',
  'match_to_confirmed',
  'match_to_done',
];

export function MetricsPanel({ data, error }: { data?: Obj; error?: ErrorBody }) {
  // The app's MetricsView (`stages`, `queue_depth`, `counters`, `raw`) or the venue's own body.
  const raw = data && data.raw && typeof data.raw === 'object' ? obj(data.raw) : (data ?? {});
  const queue = obj(data?.queue_depth ?? raw.queue_depth);
  const latency: Obj = Array.isArray(data?.stages)
    ? Object.fromEntries((data.stages as Obj[]).map((st) => [String(st.stage), st]))
    : obj(raw.stage_latency);
  const names = [...new Set([...Object.keys(queue), ...Object.keys(latency)])].sort(
    (a, b) => (STAGE_ORDER.indexOf(a) + 1 || 99) - (STAGE_ORDER.indexOf(b) + 1 || 99),
  );
  const rows = names.map((name) => ({ name, q: queue[name], l: obj(latency[name]) }));
  const counters = obj(data?.counters ?? raw.counters);
  const reasons = obj(raw.rejections_by_reason);
  return (
    <Section title="Settlement metrics" id="op-metrics">
      <ErrorBox error={error} title="Metrics unavailable" />
      {data ? (
        <>
          <KeyValues data={raw} />
          <DataTable
            caption="Per stage: queue depth and latency quantiles"
            rows={rows}
            rowKey={(r) => r.name}
            empty="No stage has run yet."
            columns={[
              { label: 'Stage', cell: (r) => r.name.replace(/_/g, ' ') },
              { label: 'Queued', cell: (r) => text(r.q ?? '—'), numeric: true },
              { label: 'Samples', cell: (r) => text(r.l.count ?? '—'), numeric: true },
              { label: 'p50 ms', cell: (r) => text(r.l.p50_ms ?? '—'), numeric: true },
              { label: 'p90 ms', cell: (r) => text(r.l.p90_ms ?? '—'), numeric: true },
              { label: 'p99 ms', cell: (r) => text(r.l.p99_ms ?? '—'), numeric: true },
            ]}
          />
          {Object.keys(counters).length > 0 ? (
            <details>
              <summary>Counters</summary>
              <KeyValues data={counters} />
            </details>
          ) : null}
          {Object.keys(reasons).length > 0 ? (
            <details>
              <summary>Rejections by reason</summary>
              <KeyValues data={reasons} />
            </details>
          ) : null}
        </>
      ) : null}
    </Section>
  );
}
