// The entries a multi-step write (an undo) reads, read once before any write, and what its steps make of them;
// the writes are held back and sent together at the end, so no request is awaited between two of them: a page
// closed part-way commits all or none of it, in Firefox too (./README.md, "Transactions").

import { isWithin, parentOf } from '../core/paths.js';
import type { EntryRecord } from './schema.js';
import { subtreeRange } from './entries.js';
import type { MemoryTx } from './store.js';
import { getRecord, writer } from './store.js';

type Write = { put: EntryRecord } | { delete: string };

export class EntryView {
  /** Every path read or written: its entry now, or null for none. */
  readonly #known = new Map<string, EntryRecord | null>();
  /** Folders whose whole subtree was read. */
  readonly #trees = new Set<string>();
  readonly #writes: Write[] = [];

  /** Reads `paths` and the subtrees below `folders`, all at once. */
  async load(tx: MemoryTx<'readwrite'>, paths: Iterable<string>, folders: Iterable<string>): Promise<void> {
    const keys = [...new Set(paths)];
    const trees = [...new Set(folders)];
    const entries = tx.objectStore('entries');
    const [found, below] = await Promise.all([
      Promise.all(keys.map((key) => getRecord(tx, 'entries', key))),
      Promise.all(trees.map((folder) => entries.getAll(subtreeRange(folder)))),
    ]);
    keys.forEach((key, i) => this.#known.set(key, found[i] ?? null));
    trees.forEach((folder, i) => {
      this.#trees.add(folder);
      for (const entry of below[i] ?? []) if (!this.#known.has(entry.path)) this.#known.set(entry.path, entry);
    });
  }

  /** The entry at `path` as the steps so far leave it; `path` must have been loaded. */
  get(path: string): EntryRecord | undefined {
    if (!this.#known.has(path)) throw new Error(`EntryView: ${path} was not read first`);
    return this.#known.get(path) ?? undefined;
  }

  /** Every entry below `folder` (not itself) as the steps so far leave them, by path; its subtree must have been loaded. */
  below(folder: string): EntryRecord[] {
    if (![...this.#trees].some((tree) => isWithin(folder, tree))) {
      throw new Error(`EntryView: the subtree of ${folder} was not read first`);
    }
    const found: EntryRecord[] = [];
    for (const [path, entry] of this.#known) if (entry && path !== folder && isWithin(path, folder)) found.push(entry);
    return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  put(entry: EntryRecord): void {
    this.#known.set(entry.path, entry);
    this.#writes.push({ put: entry });
  }

  delete(path: string): void {
    this.#known.set(path, null);
    this.#writes.push({ delete: path });
  }

  /** `moved` (a source, then what is below it) taken from its place to `to`. */
  move(moved: readonly EntryRecord[], to: string): void {
    const from = moved[0]?.path;
    if (from === undefined) return;
    for (const entry of moved) this.delete(entry.path);
    for (const entry of moved) {
      const path = to + entry.path.slice(from.length);
      this.put({ ...entry, path, parent: parentOf(path) });
    }
  }

  /** Sends every write, in order, awaiting nothing. */
  send(tx: MemoryTx<'readwrite'>): void {
    const entries = writer(tx, 'entries');
    for (const write of this.#writes) {
      if ('put' in write) entries.put(write.put);
      else entries.delete(write.delete);
    }
  }
}
