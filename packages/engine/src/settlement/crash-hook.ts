/**
 * The SIGKILL test hook (`PipelineOptions.crashAt`): kills the process right after journaling the
 * named point, or the n-th time it is reached when `crashAt` is `point#n` (a partial fill's second
 * match passes the first match's points again). Without `crashAt` it does nothing.
 */
export type CrashHook = (point: string) => void;

export function crashHook(crashAt: string | undefined): CrashHook {
  if (!crashAt) return () => undefined;
  const [at, nth] = crashAt.split('#');
  /** How often the point was reached (for `point#n`: the n-th time). */
  let seen = 0;
  return (point) => {
    if (at !== point) return;
    seen += 1;
    if (seen === Number(nth ?? 1)) process.kill(process.pid, 'SIGKILL');
  };
}
