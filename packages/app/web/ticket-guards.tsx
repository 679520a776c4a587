/**
 * The ticket's guards before an order is sent: a warning that must be confirmed when the price is
 * far from the trader's own recent fills or open orders on the other side, and the offer to split
 * a larger note to the order's size first (an order locks its whole note until it ends).
 */
import type { OrderPreview } from '../src/api-types.js';

export type PriceCheck = OrderPreview['price_check'];

/** The far-price warning and its confirmation; nothing when the price is near every reference. */
export function PriceWarning({
  check,
  price,
  confirmed,
  onConfirm,
  blocked,
}: {
  check: PriceCheck | undefined;
  price: string;
  confirmed: boolean;
  onConfirm: (yes: boolean) => void;
  /** Place was clicked without the confirmation: say so. */
  blocked: boolean;
}) {
  if (!check?.far || !check.warning) return null;
  return (
    <div class="warning" role="alert" data-testid="price-warning" tabIndex={-1}>
      <p>
        <strong>Far price:</strong> {check.warning}
      </p>
      <label for="t-confirm-price" class="check">
        <input
          id="t-confirm-price"
          type="checkbox"
          checked={confirmed}
          onChange={(e) => onConfirm(e.currentTarget.checked)}
        />
        I mean the price {price}.
      </label>
      {blocked && !confirmed ? (
        <p class="fix" data-testid="price-confirm-needed">
          Not sent: confirm the price above, or correct it.
        </p>
      ) : null}
    </div>
  );
}

/** The offer to split the backing note to the order's size, then place, in one click. */
export function SplitOffer({
  preview,
  disabled,
  onSplitAndPlace,
}: {
  preview: OrderPreview | undefined;
  disabled: boolean;
  onSplitAndPlace: () => void;
}) {
  const note = preview?.note;
  if (!preview || !note?.whole_note_locked) return null;
  const { amount, asset } = preview.collateral;
  return (
    <div class="split-offer" data-testid="split-offer">
      <button type="button" class="secondary" disabled={disabled} onClick={onSplitAndPlace}>
        Split the note to {amount} {asset}, then place
      </button>
      <span class="muted">
        {' '}
        Keeps {note.split_remainder} {asset} free; the split takes a few seconds more.
      </span>
    </div>
  );
}
