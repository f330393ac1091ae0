// A stand-in for the tool in the live-view tests: change events sent by hand, and every list() or read() held until
// the test answers it, so coalescing and ordering are checked by what happened, never by how fast.

import type { MemoryChange, MemoryChangeListener, MemoryEntry } from '../../src/index.js';

interface Held<T> {
  readonly path: string | undefined;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export class FakeMemory {
  readonly #listeners = new Set<MemoryChangeListener>();
  /** Every list() call, in order, until answered. */
  readonly lists: Held<MemoryEntry[]>[] = [];
  /** Every read() call, in order, until answered. */
  readonly reads: Held<string>[] = [];

  subscribe(listener: MemoryChangeListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  list(path?: string): Promise<MemoryEntry[]> {
    return new Promise((resolve, reject) => this.lists.push({ path, resolve, reject }));
  }

  read(path: string): Promise<string> {
    return new Promise((resolve, reject) => this.reads.push({ path, resolve, reject }));
  }

  /** How many listeners the tool has now (the live view's subscription to change events). */
  get subscribers(): number {
    return this.#listeners.size;
  }

  /** One committed change event, heard at once, as from another tab. */
  emit(...changes: MemoryChange[]): void {
    for (const listener of [...this.#listeners]) listener({ dbName: 'fake', changes, source: 'remote' });
  }
}

/** A file entry as `list()` gives it. */
export function fileEntry(path: string, size = 1): MemoryEntry {
  const at = new Date('2026-01-01T00:00:00.000Z');
  return { path, name: path.slice(path.lastIndexOf('/') + 1), kind: 'file', hidden: false, size, createdAt: at, updatedAt: at };
}

/** Resolves after the tasks queued before it: a live view's read, scheduled a task after its change, has begun. */
export function nextTask(): Promise<void> {
  return new Promise((done) => setTimeout(done, 0));
}

/** The stand-in with `stat` too, as the tool has it: the live tree then reads one entry per changed path. */
export class FakeEntryMemory extends FakeMemory {
  /** Every stat() call, in order, until answered. */
  readonly stats: Held<MemoryEntry>[] = [];

  stat(path: string): Promise<MemoryEntry> {
    return new Promise((resolve, reject) => this.stats.push({ path, resolve, reject }));
  }
}
