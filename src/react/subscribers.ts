// The listener bookkeeping every live store shares: its listeners, and its one subscription to the tool's change
// events, held only while anyone listens (./README.md, "Reads").

import type { MemoryChangeEvent, MemoryChangeListener } from '../core/change-events.js';
import { callEach } from '../core/listeners.js';

/** What a live view needs of the tool to hear of changes: `IndexedDBMemoryTool.subscribe`. */
export interface MemoryChangeSource {
  /** Calls `listener` after every committed change, here or in another tab; returns the function that stops it. */
  subscribe(listener: MemoryChangeListener): () => void;
}

/** What a store does as its listeners come and go. */
export interface SubscriberHooks {
  /** A change event, heard only while anyone listens. */
  heard(event: MemoryChangeEvent): void;
  /** The first listener came (again): changes made while nobody listened went unheard. */
  started(): void;
  /** The last listener left: the change events are stopped already. */
  stopped(): void;
}

export interface Subscribers<S> {
  readonly subscribe: (listener: (snapshot: S) => void) => () => void;
  /** Calls every listener with `snapshot`; one that throws is skipped. */
  notify(snapshot: S): void;
  /** Whether anyone listens. */
  readonly listening: () => boolean;
}

/** The listeners of a store over `source` (none: no change events, as for a store with no tool). */
export function subscribers<S>(source: MemoryChangeSource | undefined, hooks: SubscriberHooks): Subscribers<S> {
  const listeners = new Set<(snapshot: S) => void>();
  let stopEvents: (() => void) | undefined;

  const subscribe = (listener: (snapshot: S) => void): (() => void) => {
    // A wrapper per call, so one function subscribed twice (React StrictMode's second effect) is two subscriptions.
    const entry = (value: S): void => listener(value);
    listeners.add(entry);
    if (listeners.size === 1) {
      stopEvents = source?.subscribe((event) => hooks.heard(event));
      hooks.started();
    }
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      listeners.delete(entry);
      if (listeners.size > 0) return;
      stopEvents?.();
      stopEvents = undefined;
      hooks.stopped();
    };
  };

  return { subscribe, notify: (snapshot) => callEach(listeners, snapshot), listening: () => listeners.size > 0 };
}
