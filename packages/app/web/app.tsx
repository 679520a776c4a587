/** The app shell: state from the JSON API, kept live by the events socket; trader and operator views. */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { AppEvent, BalanceView, FillView, MarketView, OrderView, VenueView } from '../src/api-types.js';
import { api, errorOf, listOf, setSendGuard, type ErrorBody } from './api.js';
import { ErrorBox } from './components.js';
import { connectEvents, type SocketState } from './events.js';
import { OperatorView } from './operator.js';
import { FillsPanel, OrdersPanel } from './orders.js';
import { OrderTicket, type ProgressStep } from './ticket.js';
import { AttestationBanner, FAILED_HEADLINE, VenuePanel } from './venue.js';
import { BalancesPanel, TransfersPanel } from './wallet.js';

type Route = 'trader' | 'operator';
const routeOf = (hash: string): Route => (hash.startsWith('#/operator') ? 'operator' : 'trader');

function ConnectionStatus({ socket, venueLink }: { socket: SocketState; venueLink: string | undefined }) {
  const [, tick] = useState(0);
  useEffect(() => {
    if (socket.state !== 'waiting') return;
    const t = setInterval(() => tick((n) => n + 1), 500);
    return () => clearInterval(t);
  }, [socket]);
  let label: string;
  let cls: string;
  if (socket.state === 'open') {
    label = 'Live';
    cls = 'ok';
  } else if (socket.state === 'connecting') {
    label = socket.attempt > 1 ? `Reconnecting (attempt ${socket.attempt})…` : 'Connecting…';
    cls = 'warn';
  } else {
    label = `Disconnected: retrying in ${Math.max(0, Math.ceil((socket.retryAt - Date.now()) / 1000))} s`;
    cls = 'bad';
  }
  return (
    <p class="conn" role="status" aria-live="polite">
      <span class={`dot ${cls}`} aria-hidden="true" />
      <span data-testid="connection">App: {label}</span>
      {venueLink ? <span class="muted"> · Venue stream: {venueLink}</span> : null}
    </p>
  );
}

/** Ends the browser session (cookie, operator login, events socket); the page then says how to return. */
function LogoutButton({ onDone }: { onDone: () => void }) {
  const [error, setError] = useState<ErrorBody>();
  return (
    <span class="logout">
      <button
        type="button"
        onClick={() => void api('POST', '/session/logout').then(onDone, (e: unknown) => setError(errorOf(e)))}
      >
        Log out
      </button>
      <ErrorBox error={error} title="Could not log out" />
    </span>
  );
}

export function App() {
  const [loggedOut, setLoggedOut] = useState(false);
  if (loggedOut)
    return (
      <main id="main" class="logged-out">
        <h1>Logged out</h1>
        <p>
          This browser session has ended. Run <code>nightjar app --link</code> (or open the URL{' '}
          <code>npm start</code> printed) for a new one.
        </p>
      </main>
    );
  return <Venue onLogout={() => setLoggedOut(true)} />;
}

function Venue({ onLogout }: { onLogout: () => void }) {
  const [route, setRoute] = useState<Route>(routeOf(location.hash));
  const [venue, setVenue] = useState<VenueView>();
  const [markets, setMarkets] = useState<MarketView[]>([]);
  const [balances, setBalances] = useState<BalanceView[]>([]);
  const [orders, setOrders] = useState<Map<string, OrderView>>(new Map());
  const [fills, setFills] = useState<Map<string, FillView>>(new Map());
  const [progress, setProgress] = useState<Record<string, ProgressStep[]>>({});
  const [socket, setSocket] = useState<SocketState>({ state: 'connecting', attempt: 1 });
  const [venueLink, setVenueLink] = useState<string>();
  const [loadError, setLoadError] = useState<ErrorBody>();
  const venueRef = useRef<VenueView | undefined>(undefined);
  venueRef.current = venue;

  useEffect(() => {
    setSendGuard(() => (venueRef.current?.attestation === 'failed' ? `${FAILED_HEADLINE}.` : undefined));
  }, []);

  useEffect(() => {
    const on = () => setRoute(routeOf(location.hash));
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);

  const upsertOrder = useCallback((o: OrderView) => {
    setOrders((prev) => {
      const next = new Map(prev);
      next.set(o.order_id, { ...prev.get(o.order_id), ...o });
      return next;
    });
  }, []);

  const loadAccountState = useCallback(async () => {
    const [b, o, f] = await Promise.allSettled([
      api<unknown>('GET', '/balances'),
      api<unknown>('GET', '/orders'),
      api<unknown>('GET', '/fills'),
    ]);
    if (b.status === 'fulfilled') setBalances(listOf<BalanceView>(b.value, 'balances'));
    if (o.status === 'fulfilled')
      setOrders(new Map(listOf<OrderView>(o.value, 'orders').map((x) => [x.order_id, x])));
    if (f.status === 'fulfilled')
      setFills(new Map(listOf<FillView>(f.value, 'fills').map((x) => [x.fill_id, x])));
    const failed = [b, o, f].find((r) => r.status === 'rejected');
    return failed ? errorOf(failed.reason) : undefined;
  }, []);

  const loadAll = useCallback(async () => {
    const [v, m] = await Promise.allSettled([
      api<VenueView>('GET', '/venue'),
      api<unknown>('GET', '/markets'),
    ]);
    if (v.status === 'fulfilled') setVenue(v.value);
    if (m.status === 'fulfilled') setMarkets(listOf<MarketView>(m.value, 'markets'));
    const rest = await loadAccountState();
    const first = [v, m].find((r) => r.status === 'rejected');
    setLoadError(first ? errorOf(first.reason) : rest);
  }, [loadAccountState]);

  useEffect(() => {
    void loadAll();
    return connectEvents({
      onState: setSocket,
      onReopen: () => void loadAll(),
      onEvent: (e: AppEvent) => {
        switch (e.type) {
          case 'venue':
            setVenue(e.venue);
            break;
          case 'order':
            upsertOrder(e.order);
            break;
          case 'fill':
            setFills((prev) => new Map(prev).set(e.fill.fill_id, e.fill));
            break;
          case 'balances':
            setBalances(e.balances);
            break;
          case 'progress': {
            const ref = e.client_ref ?? '';
            const step: ProgressStep = {
              action: e.action,
              stage: e.stage,
              at: Date.now(),
              ...(e.detail ? { detail: e.detail } : {}),
            };
            setProgress((prev) => ({ ...prev, [ref]: [...(prev[ref] ?? []), step].slice(-20) }));
            break;
          }
          case 'connection':
            setVenueLink(e.state);
            if (e.state === 'reconnected') void loadAll();
            break;
        }
      },
    });
  }, [loadAll, upsertOrder]);

  const failed = venue?.attestation === 'failed';
  const assets = balances.length
    ? balances.map((b) => b.asset)
    : [...new Set(markets.flatMap((m) => [m.base.symbol, m.quote.symbol]))];

  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <div class="brand">
          <span class="logo" aria-hidden="true">
            ◐
          </span>{' '}
          Nightjar
        </div>
        <nav aria-label="Views">
          <a href="#/" aria-current={route === 'trader' ? 'page' : undefined}>
            Trader
          </a>
          <a href="#/operator" aria-current={route === 'operator' ? 'page' : undefined}>
            Operator
          </a>
        </nav>
        <ConnectionStatus socket={socket} venueLink={venueLink} />
        <LogoutButton onDone={onLogout} />
      </header>
      <main id="main" tabIndex={-1}>
        <AttestationBanner venue={venue} />
        {/* With the attestation failed, the banner already says why every call is refused. */}
        {failed ? null : <ErrorBox error={loadError} title="Could not load" />}
        {route === 'trader' ? (
          <div class="grid">
            <VenuePanel venue={venue} />
            <fieldset class="controls" disabled={failed || !venue} aria-label="Trading controls">
              <div class="grid inner">
                <OrderTicket markets={markets} progress={progress} onPlaced={upsertOrder} />
                <TransfersPanel
                  assets={assets}
                  dev={venue?.dev ?? false}
                  progress={progress}
                  onDone={() => void loadAccountState()}
                />
              </div>
            </fieldset>
            <div class="wide">
              <BalancesPanel balances={balances} />
            </div>
            <fieldset class="controls wide" disabled={failed} aria-label="Order controls">
              <OrdersPanel orders={[...orders.values()]} />
            </fieldset>
            <div class="wide">
              <FillsPanel fills={[...fills.values()]} />
            </div>
          </div>
        ) : (
          <fieldset class="controls" disabled={failed} aria-label="Operator controls">
            <OperatorView venue={venue} markets={markets} />
          </fieldset>
        )}
      </main>
      <footer class="muted foot">
        Keys, proofs and the venue's attestation stay in the app process on this machine; this page talks to
        it only.
      </footer>
    </>
  );
}
