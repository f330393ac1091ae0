// useLiveStore: a live store's snapshot under useSyncExternalStore, with the store's `refresh`, for the three hooks.

import { useMemo, useSyncExternalStore } from 'react';
import type { MemorySnapshotStore } from './live-read.js';

/** A hook's answer: the store's snapshot and its `refresh()`, which reads everything again now. */
export type WithRefresh<S> = S & {
  /** Reads everything again now, e.g. after a change the store could not hear of. */
  readonly refresh: () => void;
};

/**
 * The snapshot of `store`, re-rendered on each new one, with `refresh`. The answer is one object per snapshot, so it
 * too stays the same (`===`) until something changed.
 */
export function useLiveStore<S extends object>(store: MemorySnapshotStore<S>): WithRefresh<S> {
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return useMemo(() => Object.freeze({ ...snapshot, refresh: store.refresh }), [snapshot, store]);
}
