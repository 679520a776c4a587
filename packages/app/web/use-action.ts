/** What a form or button does with a call to the app: busy while it runs, its error kept. */
import { useState } from 'preact/hooks';
import { errorOf, type ErrorBody } from './api.js';

export interface Action {
  busy: boolean;
  error: ErrorBody | undefined;
  setError: (error: ErrorBody | undefined) => void;
  /** Runs `call` (clearing the last error), then `then` when it succeeded; a failure is kept in `error`. */
  run: (call: () => Promise<unknown>, then?: () => void) => Promise<void>;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorBody>();
  const run = async (call: () => Promise<unknown>, then?: () => void) => {
    setBusy(true);
    setError(undefined);
    try {
      await call();
      then?.();
    } catch (err) {
      setError(errorOf(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}
