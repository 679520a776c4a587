/**
 * The venue, its markets and the account's balances, orders, fills and progress: loaded from the
 * JSON API, kept live by the events socket (reloaded when it reopens).
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { AppEvent, BalanceView, FillView, MarketView, OrderView, VenueView } from '../src/api-types.js';
import { api, errorOf, listOf, setSendGuard, type ErrorBody } from './api.js';
import { connectEvents, type SocketState } from './events.js';
import type { ProgressStep } from './ticket.js';
import { appendStep } from './progress-steps.js';
import { FAILED_HEADLINE } from './venue.js';

/** The account's balances, orders and fills, and how to load them again. */
function useAccount() {
  const [balances, setBalances] = useState<BalanceView[]>([]);
  const [orders, setOrders] = useState<Map<string, OrderView>>(new Map());
  const [fills, setFills] = useState<Map<string, FillView>>(new Map());

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

  return { balances, setBalances, orders, fills, setFills, upsertOrder, loadAccountState };
}

/** A progress event as a step of its action. */
function stepOf(e: Extract<AppEvent, { type: 'progress' }>): ProgressStep {
  return { action: e.action, stage: e.stage, at: Date.now(), ...(e.detail ? { detail: e.detail } : {}) };
}

export function useVenueState() {
  const { setBalances, setFills, ...account } = useAccount();
  const { upsertOrder, loadAccountState } = account;
  const [venue, setVenue] = useState<VenueView>();
  const [markets, setMarkets] = useState<MarketView[]>([]);
  const [progress, setProgress] = useState<Record<string, ProgressStep[]>>({});
  const [socket, setSocket] = useState<SocketState>({ state: 'connecting', attempt: 1 });
  const [venueLink, setVenueLink] = useState<string>();
  const [loadError, setLoadError] = useState<ErrorBody>();
  const venueRef = useRef<VenueView | undefined>(undefined);
  venueRef.current = venue;

  useEffect(() => {
    setSendGuard(() => (venueRef.current?.attestation === 'failed' ? `${FAILED_HEADLINE}.` : undefined));
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
            const step = stepOf(e);
            setProgress((prev) => ({ ...prev, [ref]: appendStep(prev[ref] ?? [], step) }));
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

  return { ...account, venue, markets, progress, socket, venueLink, loadError };
}
