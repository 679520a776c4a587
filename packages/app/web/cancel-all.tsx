/**
 * "Cancel all" above the open-orders table: asks first (it also cancels this account's orders
 * placed elsewhere, e.g. by a bot), then says what was cancelled and what was refused.
 */
import { useState } from 'preact/hooks';
import type { CancelAllResult } from '../src/api-types.js';
import { api } from './api.js';
import { ConfirmAction } from './confirm-action.js';
import { shortId } from './format.js';

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
  const [result, setResult] = useState<CancelAllResult>();
  return (
    <ConfirmAction
      class="cancel-all"
      ask={{ text: 'Cancel all', class: 'secondary' }}
      onAsk={() => setResult(undefined)}
      question={
        <p>
          Cancel every live order of this account ({liveCount} shown here, and any placed elsewhere, e.g. by a
          bot)?
        </p>
      }
      groupLabel="Confirm cancel all"
      yes={{ text: 'Yes, cancel all' }}
      no="Keep them"
      call={async () => setResult(await api<CancelAllResult>('POST', '/orders/cancel-all', {}))}
      errorTitle="Cancel all failed"
    >
      {result ? <Outcome result={result} /> : null}
    </ConfirmAction>
  );
}
