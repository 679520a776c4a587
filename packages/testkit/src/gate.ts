/**
 * A one-shot gate between tests that run side by side (`describe.concurrent`): a test that needs
 * another's result awaits `opened`; the other calls `open()` in a `finally`, so a failure there
 * releases the waiter (which then fails on its own) instead of hanging it until the timeout.
 */
export interface Gate {
  /** Resolves once `open` has been called. */
  readonly opened: Promise<void>;
  open(): void;
}

export function gate(): Gate {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
