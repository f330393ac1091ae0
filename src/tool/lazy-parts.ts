// The parts of the tool an app loads on first use, so an app that only runs Claude's commands does not ship them.
// A context that cannot `import()` (a service worker, an extension's background worker) gets them all at once from
// the `idb-memory-tool/worker` entry, which hands them over here (`provideParts`).

import { MemoryToolError } from '../core/errors.js';
import { reply } from '../core/replies.js';

type Undo = typeof import('./undo-action.js');
type History = typeof import('../history/read-history.js');
type TreeReads = typeof import('../storage/tree-reads.js');
type Expire = typeof import('./expire-action.js');
type Forget = typeof import('./forget-action.js');
type Bundle = typeof import('../bundle/bundle.js');
type Compact = typeof import('./compact-action.js');
type Search = typeof import('../search/search.js');
type Blame = typeof import('./blame-action.js');
type Approval = typeof import('./approval.js');
export type WritePart = typeof import('./write-part.js');
/** The age-encryption package's module, typed `object` so that no declaration of this package names it. */
type Age = object;

/** Every part, as modules: what the worker entry imports statically. */
export interface LoadedParts {
  undo: Undo;
  history: History;
  treeReads: TreeReads;
  expire: Expire;
  forget: Forget;
  bundle: Bundle;
  compact: Compact;
  search: Search;
  blame: Blame;
  approval: Approval;
  writing: WritePart;
  /** The age-encryption package, for encrypted bundles (../bundle/age-part.ts). */
  age: Age;
}

let provided: LoadedParts | undefined;

/** Makes every part come from `modules` instead of a chunk loaded on first use. */
export function provideParts(modules: LoadedParts): void {
  provided = modules;
}

/** A part loaded on first use, or `unavailable` saying why it could not be. */
async function load<T>(loading: () => Promise<T>): Promise<T> {
  try {
    return await loading();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    const detail = forbidsImport() ? reply.unavailableHere(why) : reply.unavailable(why);
    throw new MemoryToolError('unavailable', detail, { cause: error });
  }
}

/** A service worker (an MV3 extension's background worker is one) may not `import()` at all, by the HTML standard. */
function forbidsImport(): boolean {
  const scope = (globalThis as { ServiceWorkerGlobalScope?: abstract new () => unknown }).ServiceWorkerGlobalScope;
  return typeof scope === 'function' && globalThis instanceof scope;
}

// Each import() names its module literally, so a bundler splits it into a chunk of its own.
export const parts = {
  undo: () => (provided ? Promise.resolve(provided.undo) : load(() => import('./undo-action.js'))),
  history: () => (provided ? Promise.resolve(provided.history) : load(() => import('../history/read-history.js'))),
  treeReads: () => (provided ? Promise.resolve(provided.treeReads) : load(() => import('../storage/tree-reads.js'))),
  expire: () => (provided ? Promise.resolve(provided.expire) : load(() => import('./expire-action.js'))),
  forget: () => (provided ? Promise.resolve(provided.forget) : load(() => import('./forget-action.js'))),
  // The bundle part gets the age package's loader with it, loaded or provided: it must not import this file.
  bundle: () =>
    (provided ? Promise.resolve(provided.bundle) : load(() => import('../bundle/bundle.js'))).then((part) => {
      part.useAgeLoader(parts.age);
      return part;
    }),
  compact: () => (provided ? Promise.resolve(provided.compact) : load(() => import('./compact-action.js'))),
  search: () => (provided ? Promise.resolve(provided.search) : load(() => import('../search/search.js'))),
  blame: () => (provided ? Promise.resolve(provided.blame) : load(() => import('./blame-action.js'))),
  approval: () => (provided ? Promise.resolve(provided.approval) : load(() => import('./approval.js'))),
  writing: () => (provided ? Promise.resolve(provided.writing) : load(() => import('./write-part.js'))),
  age: (): Promise<Age> => (provided ? Promise.resolve(provided.age) : load(() => import('age-encryption'))),
};

/** Fetches every part now. */
export async function preloadParts(): Promise<void> {
  await Promise.all(Object.values(parts).map((part) => part()));
}
