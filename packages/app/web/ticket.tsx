/** The order ticket: human units with the exact conversion (server preview), validation, proof progress. */
import { useRef, useState } from 'preact/hooks';
import type { MarketView, OrderRequest, OrderType, OrderView } from '../src/api-types.js';
import { ErrorBox, ErrorList, Section, TextField } from './components.js';
import { formatDuration, shortId } from './format.js';
import { validateTicket, type Fields, type TicketSide } from './ticket-fields.js';
import { PriceWarning, SplitOffer } from './ticket-guards.js';
import { usePlaceOrder } from './ticket-place.js';
import { Conversion, useOrderPreview } from './ticket-preview.js';

export interface ProgressStep {
  action: string;
  stage: string;
  detail?: string;
  at: number;
}

/** What the trader typed: every field as text, the market by symbol. */
interface Draft extends Omit<Fields, 'market'> {
  marketSym: string;
}

type SetField = <K extends keyof Draft>(key: K) => (value: Draft[K]) => void;

/** Market, side and order type. */
function TicketChoices({
  markets,
  market,
  draft,
  set,
}: {
  markets: MarketView[];
  market: MarketView | undefined;
  draft: Draft;
  set: SetField;
}) {
  return (
    <div class="row">
      <label for="t-market">
        Market
        <select
          id="t-market"
          value={market?.symbol ?? ''}
          onChange={(e) => set('marketSym')(e.currentTarget.value)}
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
              checked={draft.side === s}
              onChange={() => set('side')(s)}
            />
            {s === 'buy' ? 'Buy' : 'Sell'}
          </label>
        ))}
      </fieldset>
      <label for="t-type">
        Type
        <select
          id="t-type"
          value={draft.type}
          onChange={(e) => set('type')(e.currentTarget.value as OrderType)}
        >
          <option value="limit">Limit</option>
          <option value="ioc">IOC: immediate or cancel</option>
          <option value="fok">FOK: fill or kill</option>
        </select>
      </label>
    </div>
  );
}

/** Amount, price, minimum fill and expiry, in human units. */
function TicketAmounts({
  market,
  draft,
  set,
}: {
  market: MarketView | undefined;
  draft: Draft;
  set: SetField;
}) {
  const base = market?.base.symbol ?? 'base';
  const quote = market?.quote.symbol ?? 'quote';
  const limit = draft.type === 'limit';
  const decimals: {
    id: string;
    field: 'amount' | 'price' | 'minFill';
    label: string;
    placeholder?: string;
  }[] = [
    {
      id: 't-amount',
      field: 'amount',
      label: `Amount (${base})`,
      placeholder: market ? `min ${market.min_size}` : '',
    },
    {
      id: 't-price',
      field: 'price',
      label: `Price (${quote} per ${base})`,
      placeholder: market ? `tick ${market.tick_size}` : '',
    },
    { id: 't-minfill', field: 'minFill', label: `Minimum fill (${base}, optional)` },
  ];
  return (
    <div class="row">
      {decimals.map((f) => (
        <TextField
          key={f.id}
          id={f.id}
          label={f.label}
          inputMode="decimal"
          autocomplete="off"
          value={draft[f.field]}
          {...(f.placeholder !== undefined ? { placeholder: f.placeholder } : {})}
          onInput={set(f.field)}
        />
      ))}
      <TextField
        id="t-expiry"
        label="Expires in (e.g. 30s, 5m, 1h)"
        autocomplete="off"
        value={limit ? draft.expiry : ''}
        disabled={!limit}
        placeholder={
          !limit ? 'IOC/FOK do not rest' : market ? `default ${formatDuration(market.max_expiry_s)}` : ''
        }
        onInput={set('expiry')}
      />
    </div>
  );
}

/** The proof's progress while the order is placed, then what became of it. */
function TicketOutcome({
  steps,
  placing,
  placed,
}: {
  steps: ProgressStep[];
  placing: boolean;
  placed: OrderView | undefined;
}) {
  return (
    <>
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
          Order <code>{shortId(placed.order_id)}</code> placed: {placed.status_label}.
        </p>
      ) : null}
    </>
  );
}

const EMPTY_DRAFT: Draft = {
  marketSym: '',
  side: 'buy' as TicketSide,
  type: 'limit' as OrderType,
  amount: '',
  price: '',
  minFill: '',
  expiry: '',
};

export function OrderTicket({
  markets,
  progress,
  onPlaced,
}: {
  markets: MarketView[];
  progress: Record<string, ProgressStep[]>;
  onPlaced: (o: OrderView) => void;
}) {
  const [draft, setDraft] = useState<Draft>(EMPTY_DRAFT);
  const set: SetField = (key) => (value) => setDraft((d) => ({ ...d, [key]: value }));
  const [submitted, setSubmitted] = useState(false);
  const errorsRef = useRef<HTMLDivElement>(null);

  const market = markets.find((m) => m.symbol === draft.marketSym) ?? markets[0];
  const { marketSym: _sym, ...typed } = draft;
  const fields: Fields = { market, ...typed };
  const localErrors = validateTicket(fields, submitted);
  const { preview, previewError, previewable } = useOrderPreview(fields);
  const placing = usePlaceOrder(fields, onPlaced);
  const priceCheck = placing.held ?? preview?.price_check;

  const send = async (prepareNote?: OrderRequest['prepare_note']) => {
    setSubmitted(true);
    if (await placing.send(prepareNote)) return;
    // Not sent: take the eye to the reason (the far price, or the list of problems).
    setTimeout(() => {
      const warning = errorsRef.current?.parentElement?.querySelector<HTMLElement>(
        '[data-testid="price-warning"]',
      );
      (warning ?? errorsRef.current)?.focus();
    }, 0);
  };
  const place = (e: Event) => {
    e.preventDefault();
    void send();
  };

  return (
    <Section title="Order ticket" id="ticket">
      <form onSubmit={place} class="stack" noValidate aria-describedby="ticket-conv">
        <TicketChoices markets={markets} market={market} draft={draft} set={set} />
        <TicketAmounts market={market} draft={draft} set={set} />
        <Conversion preview={preview} previewable={previewable} fields={fields} onPrice={set('price')} />
        <div ref={errorsRef} tabIndex={-1} class="errors-anchor">
          <ErrorList errors={[...localErrors, ...(preview?.errors ?? [])]} label="Problems with this order" />
          <ErrorBox error={previewError} title="Preview failed" />
        </div>
        <PriceWarning
          check={priceCheck}
          price={draft.price.trim()}
          confirmed={placing.confirmed}
          onConfirm={placing.setConfirmed}
          blocked={placing.held !== undefined}
        />
        <div class="actions">
          <button type="submit" class={`place ${draft.side}`} disabled={placing.busy}>
            {placing.busy ? 'Proving and placing…' : `Place ${draft.side === 'buy' ? 'bid' : 'ask'}`}
          </button>
        </div>
        <SplitOffer preview={preview} disabled={placing.busy} onSplitAndPlace={() => void send('exact')} />
        <ErrorBox error={placing.error} title="The order was not placed" />
        <TicketOutcome
          steps={placing.ref ? (progress[placing.ref] ?? []) : []}
          placing={placing.busy}
          placed={placing.placed}
        />
      </form>
    </Section>
  );
}
