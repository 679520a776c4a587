/**
 * Start-up: the venue's one event bus (event-bus.ts), its fill-push hold from the options, and the
 * tree mirror's publications onto it.
 */
import { systemClock } from '../stream/clock.js';
import { VenueEventBus } from '../event-bus.js';
import { DEFAULT_FILL_PUSH_HOLD_MS, type EngineOptions } from '../engine-options.js';
import type { TreeMirror } from '../tree-mirror.js';

export function createEventBus(
  options: EngineOptions,
  onListenerError: (err: unknown) => void,
): VenueEventBus {
  return new VenueEventBus(onListenerError, {
    maxDelayMs: options.fillPushHold?.maxDelayMs ?? DEFAULT_FILL_PUSH_HOLD_MS,
    clock: options.fillPushHold?.clock ?? systemClock(),
    ...(options.fillPushHold?.random ? { random: options.fillPushHold.random } : {}),
  });
}

/**
 * Every finalized leaf the mirror applies goes to the `tree` channel, one push per leaf, in order;
 * a rebuilt shard (which may have skipped leaf events) to `tree-reset`. Returns the unsubscribe.
 */
export function publishTreeEvents(trees: TreeMirror, events: VenueEventBus): () => void {
  const offLeaves = trees.onLeaves((applied) => {
    applied.values.forEach((value, i) =>
      events.publish({
        channel: 'tree',
        body: {
          tree_id: applied.treeId,
          leaf_index: BigInt(applied.firstLeafIndex + i),
          value,
          merkle_root: applied.merkleRoot,
          slot: BigInt(applied.slot),
        },
      }),
    );
  });
  const offReset = trees.onReset((treeId) => events.publish({ channel: 'tree-reset', treeId }));
  return () => {
    offLeaves();
    offReset();
  };
}
