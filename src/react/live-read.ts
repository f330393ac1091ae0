// The framework-free core of the live views: a snapshot kept current by re-reading on change events, one read at a
// time, every change heard during a read coalesced into one read after it (./README.md).

import type { MemoryChangeEvent } from '../core/change-events.js';
import type { MemoryChangeSource } from './subscribers.js';
import { subscribers } from './subscribers.js';

export type { MemoryChangeSource } from './subscribers.js';

/**
 * A snapshot kept current, in the shape `useSyncExternalStore` takes (and Svelte's `readable`, Vue's `shallowRef`
 * can follow). `subscribe`, `getSnapshot` and `refresh` are bound: pass them around as they are.
 */
export interface MemorySnapshotStore<S> {
  /**
   * Calls `listener` with each new snapshot; returns the function that stops it. The first listener starts the
   * reads and the change events, the last one's stop ends both.
   */
  readonly subscribe: (listener: (snapshot: S) => void) => () => void;
  /** The current snapshot: the same object until something changed, so it can be compared with `===`. */
  readonly getSnapshot: () => S;
  /**
   * Reads everything again, whatever changed (after an error, say, or a change made behind the tool's back). Without
   * a listener it does nothing: the first listener reads afresh anyway.
   */
  readonly refresh: () => void;
}

/** How a live view reads, answers a failure, and picks the changes that concern it. */
export interface LiveReadSpec<S> {
  source: MemoryChangeSource;
  /** The snapshot before the first read has answered. */
  initial: S;
  /** One read, given the snapshot shown now, as the snapshot to show; a rejection goes to `failed`. */
  read(current: S): Promise<S>;
  failed(error: Error, current: S): S;
  /**
   * Whether a change event may alter what `read` gives. A view that reads only what changed notes here what the
   * event changed, for its next read.
   */
  affects(event: MemoryChangeEvent): boolean;
  /** The next read must read everything: on `refresh()`, and on a first listener (changes went unheard meanwhile). */
  forget?(): void;
  /** Whether `next` shows the same as `current`, which then stays (no render for a read that found nothing new). */
  same?(current: S, next: S): boolean;
}

/** A store that never reads: the view of a tool not there yet (apps open it asynchronously). */
export function constantStore<S>(snapshot: S): MemorySnapshotStore<S> {
  return { subscribe: () => () => undefined, getSnapshot: () => snapshot, refresh: () => undefined };
}

/**
 * A store over `spec`. It reads only while someone listens: on the first subscribe, then after change events. At
 * most one read runs at a time, so results arrive in the order the reads began and none can hide a newer one; the
 * changes heard during a read (a hundred writes from Claude, say) make one more read once it ends. A read is started
 * a task after the change that asked for it, so the changes of one task make one read too.
 */
export function liveRead<S>(spec: LiveReadSpec<S>): MemorySnapshotStore<S> {
  let snapshot = spec.initial;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let reading = false;
  let readAgain = false;

  const schedule = (): void => {
    if (!listeners.listening()) return;
    if (reading) readAgain = true;
    else timer ??= setTimeout(() => void read(), 0);
  };

  const listeners = subscribers<S>(spec.source, {
    heard: (event) => {
      if (spec.affects(event)) schedule();
    },
    // The first read, or a fresh one: changes made while nobody listened were not heard.
    started: () => {
      spec.forget?.();
      schedule();
    },
    // A read not begun is dropped; one under way still sets the snapshot, which is as new as any.
    stopped: () => {
      clearTimeout(timer);
      timer = undefined;
    },
  });

  const read = async (): Promise<void> => {
    timer = undefined;
    reading = true;
    let next: S;
    try {
      next = await spec.read(snapshot);
    } catch (error) {
      next = spec.failed(error instanceof Error ? error : new Error(String(error)), snapshot);
    }
    reading = false;
    if (next !== snapshot && !(spec.same?.(snapshot, next) ?? false)) {
      snapshot = next;
      listeners.notify(next);
    }
    if (readAgain) {
      readAgain = false;
      schedule();
    }
  };

  const refresh = (): void => {
    if (!listeners.listening()) return;
    spec.forget?.();
    schedule();
  };

  return { subscribe: listeners.subscribe, getSnapshot: () => snapshot, refresh };
}
