// The parts of the tool an app loads on first use, so an app that only runs Claude's commands does not ship them.

import { MemoryToolError } from '../core/errors.js';
import { reply } from '../core/replies.js';

/** A part loaded on first use, or `unavailable`: the browser keeps a failed chunk fetch until the page reloads. */
async function load<T>(loading: Promise<T>): Promise<T> {
  try {
    return await loading;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new MemoryToolError('unavailable', reply.unavailable(why), { cause: error });
  }
}

// Each import() names its module literally, so a bundler splits it into a chunk of its own.
export const parts = {
  undo: () => load(import('../history/undo.js')),
  history: () => load(import('../history/read-history.js')),
  treeReads: () => load(import('../storage/tree-reads.js')),
  expire: () => load(import('../history/expire.js')),
  bundle: () => load(import('../bundle/bundle.js')),
};

/** Fetches every part now. */
export async function preloadParts(): Promise<void> {
  await Promise.all(Object.values(parts).map((part) => part()));
}
