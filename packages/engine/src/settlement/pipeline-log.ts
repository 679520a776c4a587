/** The logger settlement writes to (the engine's Fastify logger), and how it names an error. */
export interface PipelineLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** An error's message only: ledger and RPC text never goes further than the log. */
export const errText = (err: unknown) => (err instanceof Error ? err.message : 'unknown');
