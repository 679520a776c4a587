/** The order ticket: human units with the exact conversion (server preview), validation, proof progress. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { MarketView, OrderPreview, OrderRequest, OrderType, OrderView, Side } from '../src/api-types.js';
import { api, errorOf, type ErrorBody } from './api.js';
import { ErrorBox, ErrorList, Section } from './components.js';
import { formatDuration, isDecimal, isPositiveDecimal, newRef, parseDuration, shortId } from './format.js';

export interface ProgressStep {
  action: string;
  stage: string;
  detail?: string;
  at: number;
}

const PREVIEW_DEBOUNCE_MS = 300;

interface Fields {
  market: MarketView | undefined;
  side: Side;
  type: OrderType;
  amount: string;
  price: string;
  minFill: string;
  expiry: string;
}

/** Problems the page can see without asking the app, each with its fix. */
export function validateTicket(f: Fields, submitted: boolean): ErrorBody[] {
  const errors: ErrorBody[] = [];
  const m = f.market;
  if (!m) {
    errors.push({ code: 'NO_MARKET', message: 'No market is selected.', fix: 'Pick a market.' });
    return errors;
  }
  const base = m.base.symbol;
  const quote = m.quote.symbol;
  if (f.amount.trim() === '') {
    if (submitted)
      errors.push({
        code: 'AMOUNT_MISSING',
        message: 'The amount is missing.',
        fix: `Enter how much ${base} to ${f.side === 'buy' ? 'buy' : 'sell'}, at least ${m.min_size} ${base}.`,
      });
  } else if (!isPositiveDecimal(f.amount)) {
    errors.push({
      code: 'AMOUNT_INVALID',
      message: `The amount "${f.amount}" is not a positive number.`,
      fix: `Enter the amount in ${base}, e.g. ${m.min_size}.`,
    });
  }
  if (f.price.trim() === '') {
    if (submitted)
      errors.push({
        code: 'PRICE_MISSING',
        message: 'The price is missing.',
        fix: `Enter the price in ${quote} per ${base}, on a tick of ${m.tick_size}.`,
      });
  } else if (!isPositiveDecimal(f.price)) {
    errors.push({
      code: 'PRICE_INVALID',
      message: `The price "${f.price}" is not a positive number.`,
      fix: `Enter the price in ${quote} per ${base}, e.g. 100.`,
    });
  }
  if (f.minFill.trim() !== '') {
    if (!isDecimal(f.minFill))
      errors.push({
        code: 'MIN_FILL_INVALID',
        message: `The minimum fill "${f.minFill}" is not a number.`,
        fix: `Enter a minimum fill in ${base} no larger than the amount, or leave it empty.`,
      });
    else if (isPositiveDecimal(f.amount) && Number(f.minFill) > Number(f.amount))
      errors.push({
        code: 'MIN_FILL_TOO_LARGE',
        message: `The minimum fill ${f.minFill} ${base} is larger than the amount ${f.amount} ${base}.`,
        fix: `Lower the minimum fill to at most ${f.amount} ${base}.`,
      });
  }
  if (f.type === 'limit' && f.expiry.trim() !== '') {
    const s = parseDuration(f.expiry);
    const bounds = `between ${formatDuration(m.min_expiry_s)} and ${formatDuration(m.max_expiry_s)}`;
    if (s === undefined)
      errors.push({
        code: 'EXPIRY_INVALID',
        message: `The expiry "${f.expiry}" is not a duration.`,
        fix: `Write it like 30s, 5m or 1h, ${bounds}.`,
      });
    else if (s < m.min_expiry_s || s > m.max_expiry_s)
      errors.push({
        code: 'EXPIRY_OUT_OF_RANGE',
        message: `The expiry ${formatDuration(s)} is outside the venue's bounds.`,
        fix: `Choose an expiry ${bounds}.`,
      });
  }
  return errors;
}

function requestOf(f: Fields, clientRef?: string): OrderRequest {
  const expiry = f.type === 'limit' ? parseDuration(f.expiry) : undefined;
  return {
    market: f.market?.symbol ?? '',
    side: f.side,
    type: f.type,
    amount: f.amount.trim(),
    price: f.price.trim(),
    ...(f.minFill.trim() ? { min_fill: f.minFill.trim() } : {}),
    ...(expiry !== undefined ? { expires_in_s: expiry } : {}),
    ...(clientRef ? { client_ref: clientRef } : {}),
  };
}

export function OrderTicket({
  markets,
  progress,
  onPlaced,
}: {
  markets: MarketView[];
  progress: Record<string, ProgressStep[]>;
  onPlaced: (o: OrderView) => void;
}) {
  const [marketSym, setMarketSym] = useState('');
  const [side, setSide] = useState<Side>('buy');
  const [type, setType] = useState<OrderType>('limit');
  const [amount, setAmount] = useState('');
  const [price, setPrice] = useState('');
  const [minFill, setMinFill] = useState('');
  const [expiry, setExpiry] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [preview, setPreview] = useState<OrderPreview>();
  const [previewError, setPreviewError] = useState<ErrorBody>();
  const [placing, setPlacing] = useState(false);
  const [placeError, setPlaceError] = useState<ErrorBody>();
  const [placed, setPlaced] = useState<OrderView>();
  const [ref, setRef] = useState<string>();
  const seq = useRef(0);
  const errorsRef = useRef<HTMLDivElement>(null);

  const market = markets.find((m) => m.symbol === marketSym) ?? markets[0];
  const fields: Fields = { market, side, type, amount, price, minFill, expiry };
  const localErrors = validateTicket(fields, submitted);
  const previewable =
    !!market &&
    isPositiveDecimal(amount) &&
    isPositiveDecimal(price) &&
    validateTicket(fields, false).length === 0;
  const key = JSON.stringify(requestOf(fields));

  useEffect(() => {
    if (!previewable) {
      setPreview(undefined);
      setPreviewError(undefined);
      return;
    }
    const mine = ++seq.current;
    const t = setTimeout(() => {
      api<OrderPreview>('POST', '/orders/preview', requestOf(fields))
        .then((p) => {
          if (seq.current !== mine) return;
          setPreview(p);
          setPreviewError(undefined);
        })
        .catch((e: unknown) => {
          if (seq.current !== mine) return;
          setPreview(undefined);
          setPreviewError(errorOf(e));
        });
    }, PREVIEW_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [key, previewable]);

  const place = async (e: Event) => {
    e.preventDefault();
    setSubmitted(true);
    setPlaced(undefined);
    setPlaceError(undefined);
    const errs = validateTicket(fields, true);
    if (errs.length > 0) {
      setTimeout(() => errorsRef.current?.focus(), 0);
      return;
    }
    const clientRef = newRef();
    setRef(clientRef);
    setPlacing(true);
    try {
      const o = await api<OrderView>('POST', '/orders', requestOf(fields, clientRef));
      setPlaced(o);
      if (o && typeof o === 'object' && o.order_id) onPlaced(o);
    } catch (err) {
      setPlaceError(errorOf(err));
    } finally {
      setPlacing(false);
    }
  };

  const steps = ref ? (progress[ref] ?? []) : [];
  const base = market?.base.symbol ?? 'base';
  const quote = market?.quote.symbol ?? 'quote';
  const previewErrors = preview?.errors ?? [];

  return (
    <Section title="Order ticket" id="ticket">
      <form onSubmit={place} class="stack" noValidate aria-describedby="ticket-conv">
        <div class="row">
          <label for="t-market">
            Market
            <select
              id="t-market"
              value={market?.symbol ?? ''}
              onChange={(e) => setMarketSym(e.currentTarget.value)}
            >
              {markets.map((m) => (
                <option key={m.symbol} value={m.symbol}>
                  {m.symbol}
                </option>
              ))}
            </select>
          </label>
          <fieldset class="seg">
            <legend>Side</legend>
            {(['buy', 'sell'] as const).map((s) => (
              <label key={s} class={`seg-opt ${s}`} for={`t-side-${s}`}>
                <input
                  id={`t-side-${s}`}
                  type="radio"
                  name="side"
                  value={s}
                  checked={side === s}
                  onChange={() => setSide(s)}
                />
                {s === 'buy' ? 'Buy' : 'Sell'}
              </label>
            ))}
          </fieldset>
          <label for="t-type">
            Type
            <select id="t-type" value={type} onChange={(e) => setType(e.currentTarget.value as OrderType)}>
              <option value="limit">Limit</option>
              <option value="ioc">IOC: immediate or cancel</option>
              <option value="fok">FOK: fill or kill</option>
            </select>
          </label>
        </div>
        <div class="row">
          <label for="t-amount">
            Amount ({base})
            <input
              id="t-amount"
              inputMode="decimal"
              autocomplete="off"
              value={amount}
              placeholder={market ? `min ${market.min_size}` : ''}
              onInput={(e) => setAmount(e.currentTarget.value)}
            />
          </label>
          <label for="t-price">
            Price ({quote} per {base})
            <input
              id="t-price"
              inputMode="decimal"
              autocomplete="off"
              value={price}
              placeholder={market ? `tick ${market.tick_size}` : ''}
              onInput={(e) => setPrice(e.currentTarget.value)}
            />
          </label>
          <label for="t-minfill">
            Minimum fill ({base}, optional)
            <input
              id="t-minfill"
              inputMode="decimal"
              autocomplete="off"
              value={minFill}
              onInput={(e) => setMinFill(e.currentTarget.value)}
            />
          </label>
          <label for="t-expiry">
            Expires in (e.g. 30s, 5m, 1h)
            <input
              id="t-expiry"
              autocomplete="off"
              value={type === 'limit' ? expiry : ''}
              disabled={type !== 'limit'}
              placeholder={
                type !== 'limit'
                  ? 'IOC/FOK do not rest'
                  : market
                    ? `default ${formatDuration(market.max_expiry_s)}`
                    : ''
              }
              onInput={(e) => setExpiry(e.currentTarget.value)}
            />
          </label>
        </div>
        <div id="ticket-conv" class="conversion" aria-live="polite" data-testid="conversion">
          {preview ? (
            <dl class="kv">
              <dt>Amount</dt>
              <dd>
                {amount.trim()} {base} = <code data-testid="amount-units">{preview.amount_units}</code>{' '}
                smallest units
              </dd>
              <dt>Price</dt>
              <dd>
                {price.trim()} {quote}/{base} = <code data-testid="price-units">{preview.price_units}</code>{' '}
                price units
              </dd>
              <dt>Locks</dt>
              <dd>
                {preview.collateral.amount} {preview.collateral.asset} ={' '}
                <code>{preview.collateral.amount_units}</code> smallest units
              </dd>
              {preview.nearest_prices && preview.nearest_prices.length > 0 ? (
                <>
                  <dt>Nearest valid prices</dt>
                  <dd>
                    {preview.nearest_prices.map((p) => (
                      <button type="button" class="link" key={p} onClick={() => setPrice(p)}>
                        Use {p}
                      </button>
                    ))}
                  </dd>
                </>
              ) : null}
            </dl>
          ) : (
            <p class="muted">
              {previewable ? 'Converting…' : 'Enter an amount and a price to see the exact conversion.'}
            </p>
          )}
        </div>
        <div ref={errorsRef} tabIndex={-1} class="errors-anchor">
          <ErrorList errors={[...localErrors, ...previewErrors]} label="Problems with this order" />
          <ErrorBox error={previewError} title="Preview failed" />
        </div>
        <div class="actions">
          <button type="submit" class={`place ${side}`} disabled={placing}>
            {placing ? 'Proving and placing…' : `Place ${side === 'buy' ? 'bid' : 'ask'}`}
          </button>
        </div>
        <ErrorBox error={placeError} title="The order was not placed" />
        {steps.length > 0 || placing ? (
          <div class="progress" aria-live="polite" data-testid="progress">
            <h3>Progress</h3>
            <ol>
              {steps.map((s, i) => (
                <li key={i}>
                  <strong>{s.stage}</strong>
                  {s.detail ? ` — ${s.detail}` : ''}
                </li>
              ))}
              {placing && steps.length === 0 ? <li>Preparing the note and the proof…</li> : null}
            </ol>
          </div>
        ) : null}
        {placed ? (
          <p class="ok-note" role="status">
            Order <code>{shortId(placed.order_id)}</code> placed: {placed.state.replace(/_/g, ' ')}.
          </p>
        ) : null}
      </form>
    </Section>
  );
}
