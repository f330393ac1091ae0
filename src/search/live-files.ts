// The live files as the index's query needs them: body id → the files naming it, cached in memory and checked by a
// stamp every write changes (./README.md, "Live files").

import type { MemoryTx } from '../storage/store.js';
import { fileStats, isListed } from './scan-search.js';
import type { FileStats } from './scan-search.js';

/** A file as ranking sees it before counting: its path and UTF-8 size. */
export interface LiveFile {
  path: string;
  size: number;
  bodyId: number | undefined;
  /** Whether `view` lists it (no dot-name below /memories): worked out once here, not per file per query. */
  listed: boolean;
  /** Its index in {@link LiveFiles}`.files` (a query's counts are kept by it, ./count-table.ts). */
  index: number;
}

/** Every file of the memory, and which of them name each body. */
export interface LiveFiles {
  files: LiveFile[];
  byBody: Map<number, LiveFile[]>;
  /** Their count and mean size, for ranking (kept here so a query does not walk every file). */
  stats: FileStats;
}

/**
 * Caches the live files of one database. The stamp is the journal's last key: every write that changes an entry's path,
 * size or body adds a journal record after every other (with the history off, a hidden one that replaces the last),
 * ../storage/README.md, "The optimistic check of the totals". Access times change entries too, not these.
 * A new connection reads them again too.
 */
export class LiveFileCache {
  #stamp = '';
  #files: LiveFiles | undefined;
  // The connection they were read on: a new one (a reconnect, a database deleted and made again) reads them again.
  #db: unknown;

  /** The stamp of the live files last read ('' before any): it moves with every write. */
  get stamp(): string {
    return this.#stamp;
  }

  /** The live files as `tx` sees them, read again only when the stamp moved. */
  async read(tx: MemoryTx<'readonly'>): Promise<LiveFiles> {
    // The key alone: a journal record can be big (an import's lists every file), and Chromium keeps a value over
    // 64 KiB as a blob, a file read per query; every write of the totals adds a record under a new key.
    const last = await tx.objectStore('journal').openKeyCursor(null, 'prev');
    const stamp = last ? String(last.key) : 'empty';
    if (this.#files && stamp === this.#stamp && tx.db === this.#db) return this.#files;
    const entries = await tx.objectStore('entries').getAll();
    const files: LiveFile[] = [];
    const byBody = new Map<number, LiveFile[]>();
    for (const entry of entries) {
      if (entry.kind !== 'file') continue;
      const file = { path: entry.path, size: entry.size, bodyId: entry.bodyId, listed: isListed(entry.path), index: files.length };
      files.push(file);
      if (entry.bodyId === undefined) continue;
      const same = byBody.get(entry.bodyId);
      if (same) same.push(file);
      else byBody.set(entry.bodyId, [file]);
    }
    this.#files = { files, byBody, stats: fileStats(files) };
    this.#stamp = stamp;
    this.#db = tx.db;
    return this.#files;
  }
}
