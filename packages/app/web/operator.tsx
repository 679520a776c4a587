/**
 * The operator view: admin login, then system status, transparency per mint, settlement metrics,
 * the drain, and accounts. Bodies are the venue's own, forwarded by the app; they are read
 * defensively (unknown fields are shown as key/value pairs, numbers may arrive as strings).
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { MarketView, OperatorLoginRequest, VenueView } from '../src/api-types.js';
import { api, ApiFailure, errorOf, listOf, type ErrorBody } from './api.js';
import { DataTable, ErrorBox, Section } from './components.js';
import { fromUnits, shortId, text } from './format.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

const REFRESH_MS = 5_000;

function KeyValues({ data, skip = [] }: { data: Obj; skip?: string[] }) {
  const entries = Object.entries(data).filter(
    ([k, v]) => !skip.includes(k) && (typeof v !== 'object' || v === null),
  );
  if (entries.length === 0) return null;
  return (
    <dl class="kv">
      {entries.map(([k, v]) => (
        <div key={k} class="kv-pair">
          <dt>{k.replace(/_/g, ' ')}</dt>
          <dd>{text(v)}</dd>
        </div>
      ))}
    </dl>
  );
}

function LoginForm({ dev, onLoggedIn }: { dev: boolean; onLoggedIn: () => void }) {
  const [apiKey, setApiKey] = useState('');
  const [secret, setSecret] = useState('');
  const [pass, setPass] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorBody>();
  const login = async (body: OperatorLoginRequest) => {
    setBusy(true);
    setError(undefined);
    try {
      await api('POST', '/operator/login', body);
      onLoggedIn();
    } catch (err) {
      setError(errorOf(err));
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: Event) => {
    e.preventDefault();
    if (!apiKey.trim() || !secret || !pass) {
      setError({
        code: 'CREDENTIALS_MISSING',
        message: 'The API key, secret and passphrase are all needed.',
        fix: dev
          ? 'Fill in all three, or use the dev admin.'
          : 'Fill in all three (from `nightjar account create --admin`).',
      });
      return;
    }
    void login({ api_key: apiKey.trim(), api_secret: secret, passphrase: pass });
  };
  return (
    <Section title="Operator login" id="op-login">
      <form class="stack narrow" onSubmit={submit} noValidate>
        <label for="op-key">
          API key
          <input
            id="op-key"
            autocomplete="username"
            value={apiKey}
            onInput={(e) => setApiKey(e.currentTarget.value)}
          />
        </label>
        <label for="op-secret">
          API secret
          <input
            id="op-secret"
            type="password"
            autocomplete="current-password"
            value={secret}
            onInput={(e) => setSecret(e.currentTarget.value)}
          />
        </label>
        <label for="op-pass">
          Passphrase
          <input
            id="op-pass"
            type="password"
            autocomplete="off"
            value={pass}
            onInput={(e) => setPass(e.currentTarget.value)}
          />
        </label>
        <div class="actions">
          <button type="submit" disabled={busy}>
            Log in
          </button>
          {dev ? (
            <button type="button" class="secondary" disabled={busy} onClick={() => void login({ dev: true })}>
              Use the dev admin
            </button>
          ) : null}
        </div>
        <ErrorBox error={error} title="Login failed" />
      </form>
    </Section>
  );
}

interface OperatorData {
  status?: Obj;
  transparency?: Obj;
  metrics?: Obj;
  drain?: Obj;
  accounts?: Obj[];
  errors: Partial<Record<'status' | 'transparency' | 'metrics' | 'drain' | 'accounts', ErrorBody>>;
}

function assetOfMint(markets: MarketView[]): Map<string, { symbol: string; decimals: number }> {
  const m = new Map<string, { symbol: string; decimals: number }>();
  for (const mk of markets) {
    m.set(mk.base.mint, { symbol: mk.base.symbol, decimals: mk.base.decimals });
    m.set(mk.quote.mint, { symbol: mk.quote.symbol, decimals: mk.quote.decimals });
  }
  return m;
}

function TransparencyPanel({
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

function MetricsPanel({ data, error }: { data?: Obj; error?: ErrorBody }) {
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

function DrainPanel({ data, error, onChange }: { data?: Obj; error?: ErrorBody; onChange: () => void }) {
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<ErrorBody>();
  const act = async (method: 'POST' | 'DELETE') => {
    setBusy(true);
    setActionError(undefined);
    try {
      await api(method, '/operator/drain');
      onChange();
    } catch (err) {
      setActionError(errorOf(err));
    } finally {
      setBusy(false);
    }
  };
  const state = data ? text(data.state) : '—';
  return (
    <Section title="Drain" id="op-drain">
      <ErrorBox error={error} title="Drain status unavailable" />
      {data ? (
        <>
          <p>
            State: <strong data-testid="drain-state">{state}</strong>{' '}
            {data.safe_to_stop === true ? <span class="badge ok">safe to stop</span> : null}
            {data.safe_to_stop === false ? <span class="badge warn">settlements in flight</span> : null}
          </p>
          <KeyValues data={data} skip={['state', 'safe_to_stop']} />
        </>
      ) : null}
      <div class="actions">
        <button
          type="button"
          disabled={busy || state === 'draining' || state === 'drained'}
          onClick={() => void act('POST')}
        >
          Start drain
        </button>
        <button
          type="button"
          class="secondary"
          disabled={busy || state === 'idle'}
          onClick={() => void act('DELETE')}
        >
          Cancel drain
        </button>
      </div>
      <ErrorBox error={actionError} title="Drain action failed" />
    </Section>
  );
}

function AccountsPanel({ rows, error, onChange }: { rows?: Obj[]; error?: ErrorBody; onChange: () => void }) {
  const [isAdmin, setIsAdmin] = useState(false);
  const [label, setLabel] = useState('');
  const [created, setCreated] = useState<Obj>();
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<ErrorBody>();
  const run = async (f: () => Promise<unknown>) => {
    setBusy(true);
    setActionError(undefined);
    try {
      await f();
      onChange();
    } catch (err) {
      setActionError(errorOf(err));
    } finally {
      setBusy(false);
    }
  };
  const create = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const body = await api<Obj>('POST', '/operator/accounts', {
        ...(isAdmin ? { is_admin: true } : {}),
        ...(label.trim() ? { label: label.trim() } : {}),
      });
      setCreated(obj(body));
    });
  };
  const action = (key: string, what: 'disable' | 'enable' | 'revoke-tokens') =>
    void run(() => api('POST', `/operator/accounts/${encodeURIComponent(key)}/${what}`));
  return (
    <Section title="Accounts" id="op-accounts">
      <ErrorBox error={error} title="Accounts unavailable" />
      <form class="row" onSubmit={create} noValidate>
        <label for="acct-label">
          Label (optional)
          <input id="acct-label" value={label} onInput={(e) => setLabel(e.currentTarget.value)} />
        </label>
        <label class="check" for="acct-admin">
          <input
            id="acct-admin"
            type="checkbox"
            checked={isAdmin}
            onChange={(e) => setIsAdmin(e.currentTarget.checked)}
          />
          Admin
        </label>
        <button type="submit" disabled={busy}>
          Create account
        </button>
      </form>
      {created ? (
        <div class="ok-note" role="status">
          <p>
            <strong>Account created.</strong> The secret and passphrase are shown once: copy them now.
          </p>
          <KeyValues data={created} />
        </div>
      ) : null}
      <ErrorBox error={actionError} title="Account action failed" />
      {rows ? (
        <DataTable
          caption="Accounts"
          rows={rows}
          rowKey={(a) => String(a.api_key ?? a.account_id)}
          empty="No accounts."
          columns={[
            { label: 'Account', cell: (a) => <code>{text(a.account_id)}</code> },
            {
              label: 'API key',
              cell: (a) => <code title={String(a.api_key)}>{shortId(String(a.api_key ?? ''))}</code>,
            },
            { label: 'Admin', cell: (a) => text(a.is_admin) },
            { label: 'Enabled', cell: (a) => text(a.enabled ?? true) },
            {
              label: 'Actions',
              cell: (a) => {
                const key = String(a.api_key ?? '');
                const id = shortId(String(a.account_id ?? key));
                return (
                  <div class="row-actions">
                    {a.enabled === false ? (
                      <button
                        type="button"
                        class="secondary"
                        disabled={busy}
                        onClick={() => action(key, 'enable')}
                        aria-label={`Enable account ${id}`}
                      >
                        Enable
                      </button>
                    ) : (
                      <button
                        type="button"
                        class="secondary"
                        disabled={busy}
                        onClick={() => action(key, 'disable')}
                        aria-label={`Disable account ${id}`}
                      >
                        Disable
                      </button>
                    )}
                    <button
                      type="button"
                      class="secondary"
                      disabled={busy}
                      onClick={() => action(key, 'revoke-tokens')}
                      aria-label={`Revoke tokens of account ${id}`}
                    >
                      Revoke tokens
                    </button>
                  </div>
                );
              },
            },
          ]}
        />
      ) : null}
    </Section>
  );
}

export function OperatorView({ venue, markets }: { venue: VenueView | undefined; markets: MarketView[] }) {
  const [auth, setAuth] = useState<'unknown' | 'out' | 'in'>('unknown');
  const [data, setData] = useState<OperatorData>({ errors: {} });

  const load = useCallback(async () => {
    const parts = ['status', 'transparency', 'metrics', 'drain', 'accounts'] as const;
    const results = await Promise.allSettled(parts.map((p) => api<unknown>('GET', `/operator/${p}`)));
    const next: OperatorData = { errors: {} };
    let unauthorised = false;
    results.forEach((r, i) => {
      const p = parts[i]!;
      if (r.status === 'fulfilled') {
        if (p === 'accounts') next.accounts = listOf<Obj>(r.value, 'accounts');
        else next[p] = obj(r.value);
      } else {
        if (r.reason instanceof ApiFailure && (r.reason.status === 401 || r.reason.status === 403))
          unauthorised = true;
        next.errors[p] = errorOf(r.reason);
      }
    });
    if (unauthorised && !next.status) {
      setAuth('out');
      return;
    }
    setAuth('in');
    setData(next);
  }, []);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    if (auth !== 'in') return;
    const t = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(t);
  }, [auth, load]);

  if (auth === 'unknown') return <p class="muted">Loading the operator view…</p>;
  if (auth === 'out') return <LoginForm dev={venue?.dev ?? false} onLoggedIn={() => void load()} />;
  return (
    <div class="grid op">
      <Section title="System status" id="op-status">
        <div class="actions">
          <button type="button" class="secondary" onClick={() => void load()}>
            Refresh
          </button>
        </div>
        <ErrorBox error={data.errors.status} title="Status unavailable" />
        {data.status ? <KeyValues data={data.status} /> : null}
      </Section>
      <DrainPanel data={data.drain} error={data.errors.drain} onChange={() => void load()} />
      <TransparencyPanel data={data.transparency} error={data.errors.transparency} markets={markets} />
      <MetricsPanel data={data.metrics} error={data.errors.metrics} />
      <AccountsPanel rows={data.accounts} error={data.errors.accounts} onChange={() => void load()} />
    </div>
  );
}
