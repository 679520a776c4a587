/**
 * "Cancel all" above the open-orders table: asks first (it also cancels this account's orders
 * placed elsewhere, e.g. by a bot), then says what was cancelled and what was refused.
 */
import { useState } from 'preact/hooks';
import type { CancelAllResult } from '../src/api-types.js';
import { api } from './api.js';
import { ErrorBox } from './components.js';
import { shortId } from './format.js';
import { useAction } from './use-action.js';

function Outcome({ result }: { result: CancelAllResult }) {
  const n = result.cancelled.length;
  return (
    <div role="status" data-testid="cancel-all-result">
      <p>
        {n === 0 && result.failed.length === 0
          ? 'No live orders to cancel.'
          : `Cancelled ${n} order${n === 1 ? '' : 's'}.`}
      </p>
      {result.failed.length > 0 ? (
        <ul class="error">
          {result.failed.map((f) => (
            <li key={f.order_id}>
              Order <code title={f.order_id}>{shortId(f.order_id)}</code> not cancelled: {f.message} ({f.code}
              )
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** `liveCount`: the live orders the table shows (the venue may hold more of this account's). */
export function CancelAllButton({ liveCount }: { liveCount: number }) {
  const [asking, setAsking] = useState(false);
  const [result, setResult] = useState<CancelAllResult>();
  const { busy, error, run } = useAction();
  const confirm = () =>
    run(
      async () => setResult(await api<CancelAllResult>('POST', '/orders/cancel-all', {})),
      () => setAsking(false),
    );
  return (
    <div class="cancel-all">
      {asking ? (
        <div role="group" aria-label="Confirm cancel all">
          <p>
            Cancel every live order of this account ({liveCount} shown here, and any placed elsewhere, e.g. by
            a bot)?
          </p>
          <button type="button" class="danger" onClick={confirm} disabled={busy}>
            {busy ? 'Cancelling…' : 'Yes, cancel all'}
          </button>
          <button type="button" class="secondary" onClick={() => setAsking(false)} disabled={busy}>
            Keep them
          </button>
        </div>
      ) : (
        <button
          type="button"
          class="secondary"
          onClick={() => {
            setResult(undefined);
            setAsking(true);
          }}
        >
          Cancel all
        </button>
      )}
      {result ? <Outcome result={result} /> : null}
      <ErrorBox error={error} title="Cancel all failed" />
    </div>
  );
}
