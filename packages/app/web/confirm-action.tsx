/**
 * A destructive action behind a question: the first click only asks, "yes" runs the call, "no"
 * (or the call's success) puts the first button back. Cancel and Cancel all both use it.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ErrorBox } from './components.js';
import { useAction } from './use-action.js';

export interface ConfirmActionProps {
  /** The wrapper's class (where the action sits). */
  class: string;
  /** The first button: its text, class and accessible name. */
  ask: { text: string; class: string; label?: string };
  /** Runs when the first button asks (e.g. clears an earlier outcome). */
  onAsk?: () => void;
  /** The question and the confirming group's accessible name. */
  question: ComponentChildren;
  groupLabel: string;
  yes: { text: string; label?: string };
  no: string;
  /** The call; its error is shown under `errorTitle`. */
  call: () => Promise<unknown>;
  errorTitle: string;
  /** What to show after the buttons (an outcome). */
  children?: ComponentChildren;
}

export function ConfirmAction(p: ConfirmActionProps) {
  const [asking, setAsking] = useState(false);
  const { busy, error, run } = useAction();
  return (
    <div class={p.class}>
      {asking ? (
        <div class="confirm" role="group" aria-label={p.groupLabel}>
          {p.question}
          <button
            type="button"
            class="danger"
            onClick={() => run(p.call, () => setAsking(false))}
            disabled={busy}
            aria-label={p.yes.label}
          >
            {busy ? 'Cancelling…' : p.yes.text}
          </button>
          <button type="button" class="secondary" onClick={() => setAsking(false)} disabled={busy}>
            {p.no}
          </button>
        </div>
      ) : (
        <button
          type="button"
          class={p.ask.class}
          onClick={() => {
            p.onAsk?.();
            setAsking(true);
          }}
          aria-label={p.ask.label}
        >
          {p.ask.text}
        </button>
      )}
      {p.children}
      <ErrorBox error={error} title={p.errorTitle} />
    </div>
  );
}
