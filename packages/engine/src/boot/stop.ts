/**
 * The engine's stop, in the order that loses nothing: held fill pushes go out to the sessions
 * still open; then the sessions (their cancel-on-disconnect still finds the books running); then
 * matching, the ledger views, the server, settlement and the provers; the stores last.
 */
import type { EngineOptions } from '../engine-options.js';
import type { BootCore } from './core.js';
import type { Trading } from './trading.js';

export async function stopEngine(options: EngineOptions, core: BootCore, t: Trading): Promise<void> {
  const { views, verifiers } = core;
  t.events.releaseHeld();
  await t.stream.close();
  t.offTree();
  t.gate.stopMatching();
  t.offSlot();
  views.trees.stop();
  views.notes.stop();
  views.chain.stop();
  await core.app.close();
  await t.pipeline?.close();
  // After the pipeline: a proof it no longer awaits may fail without rejecting its match.
  await t.matchProver?.close();
  await options.matchVerifier?.close?.();
  await verifiers.batcher?.close();
  if (verifiers.matchBatcher !== verifiers.batcher) await verifiers.matchBatcher?.close();
  t.journal?.close();
  await core.store.close();
  await core.directory.close();
}
