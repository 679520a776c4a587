/** The operator view's drain: its state, and starting or cancelling it. */
import { api, type ErrorBody } from './api.js';
import { ErrorBox, Section } from './components.js';
import { text } from './format.js';
import { KeyValues, type Obj } from './key-values.js';
import { useAction } from './use-action.js';

export function DrainPanel({
  data,
  error,
  onChange,
}: {
  data?: Obj;
  error?: ErrorBody;
  onChange: () => void;
}) {
  const { busy, error: actionError, run } = useAction();
  const act = (method: 'POST' | 'DELETE') => run(() => api(method, '/operator/drain'), onChange);
  const state = data ? text(data.state) : '—';
  return (
    <Section title="Drain" id="op-drain">
      <ErrorBox error={error} title="Drain status unavailable" />
      {data ? (
        <>
          <p>
            State: <strong data-testid="drain-state">{state}</strong>{' '}
            {data.safe_to_stop === true ? <span class="badge ok">safe to stop</span> : null}
            {data.safe_to_stop === false ? <span class="badge warn">settlements in flight</span> : null}
          </p>
          <KeyValues data={data} skip={['state', 'safe_to_stop']} />
        </>
      ) : null}
      <div class="actions">
        <button
          type="button"
          disabled={busy || state === 'draining' || state === 'drained'}
          onClick={() => void act('POST')}
        >
          Start drain
        </button>
        <button
          type="button"
          class="secondary"
          disabled={busy || state === 'idle'}
          onClick={() => void act('DELETE')}
        >
          Cancel drain
        </button>
      </div>
      <ErrorBox error={actionError} title="Drain action failed" />
    </Section>
  );
}
