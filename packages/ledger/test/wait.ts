/** Resolves once `predicate` holds, polling the event loop (no fixed sleeps); fails after 5 s. */
export async function waitFor(predicate: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((r) => setImmediate(r));
  }
}
