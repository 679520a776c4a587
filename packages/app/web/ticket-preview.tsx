/** The ticket's exact conversion: the app's preview of the order, asked for once typing pauses. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { OrderPreview } from '../src/api-types.js';
import { api, errorOf, type ErrorBody } from './api.js';
import { isPositiveDecimal } from './format.js';
import { requestOf, validateTicket, type Fields } from './ticket-fields.js';

const PREVIEW_DEBOUNCE_MS = 300;

export interface Preview {
  preview: OrderPreview | undefined;
  previewError: ErrorBody | undefined;
  /** The fields make an order the app can convert (no local problem). */
  previewable: boolean;
}

export function useOrderPreview(fields: Fields): Preview {
  const [preview, setPreview] = useState<OrderPreview>();
  const [previewError, setPreviewError] = useState<ErrorBody>();
  const seq = useRef(0);
  const previewable =
    !!fields.market &&
    isPositiveDecimal(fields.amount) &&
    isPositiveDecimal(fields.price) &&
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
  return { preview, previewError, previewable };
}

export function Conversion({
  preview,
  previewable,
  fields,
  onPrice,
}: {
  preview: OrderPreview | undefined;
  previewable: boolean;
  fields: Fields;
  onPrice: (price: string) => void;
}) {
  const base = fields.market?.base.symbol ?? 'base';
  const quote = fields.market?.quote.symbol ?? 'quote';
  return (
    <div id="ticket-conv" class="conversion" aria-live="polite" data-testid="conversion">
      {preview ? (
        <dl class="kv">
          <dt>Amount</dt>
          <dd>
            {fields.amount.trim()} {base} = <code data-testid="amount-units">{preview.amount_units}</code>{' '}
            smallest units
          </dd>
          <dt>Price</dt>
          <dd>
            {fields.price.trim()} {quote}/{base} ={' '}
            <code data-testid="price-units">{preview.price_units}</code> price units
          </dd>
          <dt>Locks</dt>
          <dd data-testid="collateral">
            {preview.collateral.amount} {preview.collateral.asset} ={' '}
            <code>{preview.collateral.amount_units}</code> smallest units, fee included
            {preview.note ? <p data-testid="note-lock">{preview.note.explanation}</p> : null}
          </dd>
          <dt>Fee</dt>
          <dd data-testid="fee">
            {preview.fee.amount} {preview.fee.asset} at your limit
          </dd>
          <dt>Clearing</dt>
          <dd data-testid="clearing-rule">{preview.clearing_rule}</dd>
          {preview.nearest_prices && preview.nearest_prices.length > 0 ? (
            <>
              <dt>Nearest valid prices</dt>
              <dd>
                {preview.nearest_prices.map((p) => (
                  <button type="button" class="link" key={p} onClick={() => onPrice(p)}>
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
  );
}
