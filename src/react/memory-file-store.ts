// The live file: `tool.read(path)` read again when a change reaches the file, framework-free (./README.md).

import { isMemoryToolError } from '../core/errors.js';
import { changesReaching } from './change-scope.js';
import type { MemoryChangeSource, MemorySnapshotStore } from './live-read.js';
import { constantStore, liveRead } from './live-read.js';

/** What the live file needs of the tool: `IndexedDBMemoryTool` has it, and so may a wrapper or a fake. */
export interface MemoryFileSource extends MemoryChangeSource {
  /** The file's raw text; rejects for a missing file (`not_found`) or a folder (`not_a_file`). */
  read(path: string): Promise<string>;
}

/**
 * The file as last read. `status`: `idle` (no tool or no path), `loading` (the first read under way), `ready`,
 * `missing` (no file at the path, or no longer: deleted, renamed away) or `error` (the latest read failed, e.g.
 * `not_a_file` for a folder; `text` stays that of the last read that worked).
 */
export type MemoryFileSnapshot =
  | {
      /** Nothing to show: no tool or no path, the first read under way, or no file at the path. */
      readonly status: 'idle' | 'loading' | 'missing';
      /** No text. */
      readonly text: undefined;
      /** No error. */
      readonly error: undefined;
    }
  | {
      /** The file was read. */
      readonly status: 'ready';
      /** The file's raw text, as `tool.read()` gives it. */
      readonly text: string;
      /** No error. */
      readonly error: undefined;
    }
  | {
      /** The latest read failed. */
      readonly status: 'error';
      /** The text of the last read that worked, if any. */
      readonly text: string | undefined;
      /** Why it failed: usually a `MemoryToolError`. */
      readonly error: Error;
    };

/** A live file: its snapshot, kept current while subscribed; see {@link createMemoryFileStore}. */
export type MemoryFileStore = MemorySnapshotStore<MemoryFileSnapshot>;

const IDLE: MemoryFileSnapshot = Object.freeze({ status: 'idle', text: undefined, error: undefined });
const LOADING: MemoryFileSnapshot = Object.freeze({ status: 'loading', text: undefined, error: undefined });
const MISSING: MemoryFileSnapshot = Object.freeze({ status: 'missing', text: undefined, error: undefined });

/**
 * A live view of the raw text of the file at `path`, read again only on changes that reach it (the file, or a
 * folder above it). Creating it does nothing; it reads while subscribed. With no tool or no path it stays `idle`.
 */
export function createMemoryFileStore(
  tool: MemoryFileSource | null | undefined,
  path: string | null | undefined,
): MemoryFileStore {
  if (!tool || path === null || path === undefined) return constantStore(IDLE);
  return liveRead<MemoryFileSnapshot>({
    source: tool,
    initial: LOADING,
    async read() {
      try {
        return Object.freeze({ status: 'ready', text: await tool.read(path), error: undefined });
      } catch (error) {
        if (isMemoryToolError(error) && error.code === 'not_found') return MISSING;
        throw error;
      }
    },
    failed: (error, current) => Object.freeze({ status: 'error', text: current.text, error }),
    affects: changesReaching(path),
    // A change to a folder above the file may leave its text as it was: nothing new to render.
    same: (current, next) =>
      current.status === next.status && current.text === next.text && current.error === next.error,
  });
}
