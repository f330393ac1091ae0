// When Claude last read each file, for expiry: this tool's views and the access times it stores (./README.md).

import { ACCESS_GRANULARITY_MS } from '../storage/schema.js';
import type { EntryRecord } from '../storage/schema.js';
import type { MemoryStore } from '../storage/store.js';
import type { FileIdentity } from '../storage/file-use.js';
import { fileIdentity, lastUsed, touchFiles } from '../storage/file-use.js';

/** How many files a tool remembers viewing, for expiry. */
const RECENT_VIEWS = 1024;

export class AccessTimes {
  readonly #store: MemoryStore;
  /** When this tool last showed each file, by its body id; noted once a view has read it. */
  readonly #viewed = new Map<FileIdentity, number>();
  /** Files whose stored access time is stale, written together in the next round. */
  readonly #touched = new Set<FileIdentity>();
  readonly #touching = new Set<Promise<void>>();

  constructor(store: MemoryStore) {
    this.#store = store;
  }

  /** The views this tool made, for expiry to count beside the stored access times. */
  get viewed(): ReadonlyMap<FileIdentity, number> {
    return this.#viewed;
  }

  /** A view has shown the file `entry`: remembered, and its access time written soon if the stored one is stale. */
  saw(entry: EntryRecord): void {
    const now = Date.now();
    const which = fileIdentity(entry);
    this.#viewed.delete(which);
    this.#viewed.set(which, now);
    if (this.#viewed.size > RECENT_VIEWS) this.#viewed.delete(this.#viewed.keys().next().value as FileIdentity);
    if (lastUsed(entry) < now - ACCESS_GRANULARITY_MS) this.#note(which);
  }

  /** Writes pending access times now. */
  async flush(): Promise<void> {
    while (this.#touching.size > 0) await Promise.all(this.#touching);
  }

  /** One transaction for the views of a microtask, started at once, so a `close()` right after a view keeps it. */
  #note(which: FileIdentity): void {
    const due = this.#touched.size > 0;
    this.#touched.add(which);
    if (due) return;
    const round = Promise.resolve().then(async () => {
      const read = [...this.#touched];
      this.#touched.clear();
      try {
        await this.#store.run('readwrite', (tx) => touchFiles(tx, read, Date.now()), ['entries']);
      } catch {
        // Access times only steer expiry; a failed update must not fail the view that caused it.
      } finally {
        this.#touching.delete(round);
      }
    });
    this.#touching.add(round);
  }
}
