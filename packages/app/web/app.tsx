/** The app shell: state from the JSON API, kept live by the events socket; trader and operator views. */
import { useEffect, useState } from 'preact/hooks';
import { api, errorOf, type ErrorBody } from './api.js';
import { ErrorBox } from './components.js';
import type { SocketState } from './events.js';
import { OperatorView } from './operator.js';
import { FillsPanel, OrdersPanel } from './orders.js';
import { OrderTicket } from './ticket.js';
import { useVenueState } from './use-venue-state.js';
import { AttestationBanner, VenuePanel } from './venue.js';
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

/** The route from the location's hash, followed as it changes. */
function useRoute(): Route {
  const [route, setRoute] = useState<Route>(routeOf(location.hash));
  useEffect(() => {
    const on = () => setRoute(routeOf(location.hash));
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}

function TopBar({
  route,
  socket,
  venueLink,
  onLogout,
}: {
  route: Route;
  socket: SocketState;
  venueLink: string | undefined;
  onLogout: () => void;
}) {
  return (
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
  );
}

/**
 * The trader's view, trading first: the one-line attestation verdict, then the ticket, balances and
 * open orders (at any width), then fills and transfers. Ticket and transfers are off while the
 * attestation fails (cancel stays on unless it failed: a trader may want out).
 */
function TraderView({ state, failed }: { state: ReturnType<typeof useVenueState>; failed: boolean }) {
  const { venue, markets, balances, orders, fills, progress, upsertOrder, loadAccountState } = state;
  const assets = balances.length
    ? balances.map((b) => b.asset)
    : [...new Set(markets.flatMap((m) => [m.base.symbol, m.quote.symbol]))];
  const off = failed || !venue;
  return (
    <>
      <VenuePanel venue={venue} />
      <div class="grid trading">
        <fieldset class="controls" disabled={off} aria-label="Trading controls">
          <OrderTicket markets={markets} progress={progress} onPlaced={upsertOrder} />
        </fieldset>
        <div>
          <BalancesPanel balances={balances} />
        </div>
        <fieldset class="controls wide" disabled={failed} aria-label="Order controls">
          <OrdersPanel orders={[...orders.values()]} />
        </fieldset>
        <div class="wide">
          <FillsPanel fills={[...fills.values()]} />
        </div>
        <fieldset class="controls wide" disabled={off} aria-label="Transfer controls">
          <TransfersPanel
            assets={assets}
            dev={venue?.dev ?? false}
            progress={progress}
            onDone={() => void loadAccountState()}
          />
        </fieldset>
      </div>
    </>
  );
}

function Venue({ onLogout }: { onLogout: () => void }) {
  const route = useRoute();
  const state = useVenueState();
  const { venue, markets, loadError } = state;
  const failed = venue?.attestation === 'failed';
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <TopBar route={route} socket={state.socket} venueLink={state.venueLink} onLogout={onLogout} />
      <main id="main" tabIndex={-1}>
        <AttestationBanner venue={venue} />
        {/* With the attestation failed, the banner already says why every call is refused. */}
        {failed ? null : <ErrorBox error={loadError} title="Could not load" />}
        {route === 'trader' ? (
          <TraderView state={state} failed={failed} />
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
