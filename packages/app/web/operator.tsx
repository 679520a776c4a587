/**
 * The operator view: admin login, then system status, transparency per mint, settlement metrics,
 * the drain, and accounts. Bodies are the venue's own, forwarded by the app; they are read
 * defensively (unknown fields are shown as key/value pairs, numbers may arrive as strings).
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { MarketView, OperatorSessionView, VenueView } from '../src/api-types.js';
import { api, ApiFailure, errorOf, listOf, type ErrorBody } from './api.js';
import { ErrorBox, Section } from './components.js';
import { KeyValues, obj, type Obj } from './key-values.js';
import { AccountsPanel } from './operator-accounts.js';
import { DrainPanel } from './operator-drain.js';
import { LoginForm } from './operator-login.js';
import { MetricsPanel, TransparencyPanel } from './operator-reports.js';

const REFRESH_MS = 5_000;

interface OperatorData {
  status?: Obj;
  transparency?: Obj;
  metrics?: Obj;
  drain?: Obj;
  accounts?: Obj[];
  errors: Partial<Record<'status' | 'transparency' | 'metrics' | 'drain' | 'accounts', ErrorBody>>;
}

/** Asked first: no admin read is sent before a login (so no 401s in the browser console). */
async function operatorLoggedIn(): Promise<boolean> {
  try {
    return (await api<OperatorSessionView>('GET', '/operator/session')).logged_in;
  } catch {
    return false; // the login form is shown; its own errors say what went wrong
  }
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
    void operatorLoggedIn().then((loggedIn) => (loggedIn ? load() : setAuth('out')));
  }, [load]);

  const logout = useCallback(async () => {
    try {
      await api('POST', '/operator/logout');
    } finally {
      setData({ errors: {} });
      setAuth('out');
    }
  }, []);
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
          <button type="button" class="secondary" data-testid="op-logout" onClick={() => void logout()}>
            Log out admin
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
