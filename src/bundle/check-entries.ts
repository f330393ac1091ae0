// The checks every entry of a bundle passes, from JSON or from a zip, before anything is read from the memory: its
// path through Claude's validator, the root, two entries of one key, a file below a file, a file over the limit.

import { isMemoryToolError } from '../core/errors.js';
import type { MemoryToolError } from '../core/errors.js';
import type { ResolvedLimits } from '../core/limits.js';
import { MEMORY_ROOT, ancestorsOf, normalizeMemoryPath } from '../core/paths.js';
import { refused } from './refusal.js';
import { bundleReply } from './replies.js';

/** A bundle file that passed every check that needs neither its hash nor the memory. */
export interface CheckedFile {
  /** How refusals name it: `files[3] "/memories/a.md"`. */
  where: string;
  key: string;
  content: string;
  /** UTF-8 bytes of `content`. */
  size: number;
  /** Milliseconds, or undefined when the bundle gives none (the import then decides). */
  createdAt: number | undefined;
  updatedAt: number | undefined;
  /** The digest the bundle states, if any. */
  sha256: string | undefined;
}

export interface CheckedFolder {
  where: string;
  key: string;
}

/** What step 1 of an import yields, from JSON or a zip. */
export interface ParsedBundle {
  /** Number of files, valid or not (the progress total). */
  fileCount: number;
  /** The files before the first structural error, in bundle order. */
  files: CheckedFile[];
  folders: CheckedFolder[];
  /** The first structural error, thrown once the files before it are hashed. */
  error?: MemoryToolError;
}

/** What a name holds that looks like a secret (its kind), or undefined. */
export type PathSecret = (key: string) => string | undefined;

/** Checks entries one at a time, every file before any folder, remembering what the earlier ones claimed. */
export class EntryChecker {
  readonly #limits: Readonly<ResolvedLimits>;
  readonly #fileAt = new Map<string, string>(); // key -> where, of every file
  readonly #needed = new Map<string, string>(); // folder key -> where of the first file below it
  readonly #folderAt = new Map<string, string>();
  readonly #pathSecret: PathSecret | undefined;

  /** `pathSecret`: the tool's secret check of names (`blockSecrets`), which an imported path must pass as a created one. */
  constructor(limits: Readonly<ResolvedLimits>, pathSecret?: PathSecret) {
    this.#limits = limits;
    this.#pathSecret = pathSecret;
  }

  #noSecret(where: string, key: string): void {
    const secret = this.#pathSecret?.(key);
    if (secret !== undefined) throw refused(where, bundleReply.secretInPath(secret));
  }

  /** The key of a file entry of `size` UTF-8 bytes, or the refusal that names it. */
  file(where: string, path: string, size: number): string {
    const key = checkedPath(path, where);
    if (key === MEMORY_ROOT) throw refused(where, bundleReply.rootAsFile());
    this.#noSecret(where, key);
    const twin = this.#fileAt.get(key);
    if (twin !== undefined) throw refused(where, bundleReply.duplicate(twin));
    const below = this.#needed.get(key);
    if (below !== undefined) throw refused(where, bundleReply.fileAboveFile(below));
    const ancestors = ancestorsOf(key);
    for (const ancestor of ancestors) {
      const above = this.#fileAt.get(ancestor);
      if (above !== undefined) throw refused(where, bundleReply.belowFile(above));
    }
    if (size > this.#limits.maxFileBytes) {
      throw refused(where, bundleReply.fileTooLarge(size, this.#limits.maxFileBytes), 'too_large');
    }
    this.#fileAt.set(key, where);
    for (const ancestor of ancestors) if (!this.#needed.has(ancestor)) this.#needed.set(ancestor, where);
    return key;
  }

  /** The key of a folder entry, checked after every file; the root is refused, or skipped (undefined) if so told. */
  folder(where: string, path: string): string;
  folder(where: string, path: string, root: 'skip'): string | undefined;
  folder(where: string, path: string, root?: 'skip'): string | undefined {
    const key = checkedPath(path, where);
    if (key === MEMORY_ROOT) {
      if (root === 'skip') return undefined;
      throw refused(where, bundleReply.rootAsFolder());
    }
    this.#noSecret(where, key);
    const twin = this.#folderAt.get(key);
    if (twin !== undefined) throw refused(where, bundleReply.duplicate(twin));
    const file = this.#fileAt.get(key);
    if (file !== undefined) throw refused(where, bundleReply.folderIsFile(file));
    for (const ancestor of ancestorsOf(key)) {
      const above = this.#fileAt.get(ancestor);
      if (above !== undefined) throw refused(where, bundleReply.belowFile(above));
    }
    this.#folderAt.set(key, where);
    return key;
  }
}

/** The normalized key, or the validator's refusal re-framed as a bundle refusal naming the entry. */
function checkedPath(path: string, where: string): string {
  try {
    return normalizeMemoryPath(path);
  } catch (error) {
    if (!isMemoryToolError(error)) throw error;
    throw refused(where, error.message.replace(/\.$/u, ''));
  }
}
