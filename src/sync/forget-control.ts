// The record of forgets on the remote: one small file at the remote's root, never pulled as a memory, that tells every
// device which paths were forgotten, as salted hashes (never the paths, never the texts) (./README.md, "Forgetting").

import { sha256All } from '../bundle/sha256.js';

/** Where the record lives, below the remote's root. Left out of every listing the merge sees. */
export const CONTROL_PATH = '/.idb-memory-forgets.json';
const FORMAT = 'idb-memory-tool/forgets@1';
/** How long a forget is kept: a device that does not sync for longer misses it (./README.md, "Forgetting"). */
export const KEEP_MS = 90 * 24 * 60 * 60 * 1000;
/** The most forgets kept, newest first: about 60 KB, under every remote's file limit. */
export const MAX_FORGETS = 500;

export interface ControlEntry {
  id: string;
  /** When it was forgotten (ms since the epoch). */
  at: number;
  /** SHA-256 of `key`, a newline and the forgotten path (the remote's; '' for the whole root), hex. */
  hash: string;
}

export interface ControlFile {
  /** Random, made with the file: salts every hash, so a list of common names cannot be checked once for all stores. */
  key: string;
  forgets: ControlEntry[];
}

/** The record in `text`, or undefined when it is not one (then it is written anew). */
export function parseControl(text: string): ControlFile | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  const file = data as { format?: unknown; key?: unknown; forgets?: unknown } | null;
  if (typeof file !== 'object' || file === null || file.format !== FORMAT || typeof file.key !== 'string') return undefined;
  if (!Array.isArray(file.forgets)) return undefined;
  const forgets = (file.forgets as unknown[]).flatMap((entry): ControlEntry[] => {
    const { id, at, hash } = (entry ?? {}) as Partial<Record<keyof ControlEntry, unknown>>;
    return typeof id === 'string' && typeof at === 'number' && typeof hash === 'string' ? [{ id, at, hash }] : [];
  });
  return { key: file.key, forgets };
}

/** The record as written: its forgets from the last `KEEP_MS`, at most `MAX_FORGETS`, newest first. */
export function formatControl(file: ControlFile, now: number): string {
  const forgets = file.forgets
    .filter((entry) => entry.at >= now - KEEP_MS)
    .sort((a, b) => b.at - a.at)
    .slice(0, MAX_FORGETS);
  return `${JSON.stringify({ format: FORMAT, key: file.key, forgets }, null, 1)}\n`;
}

/** The hashes of `paths` under the record's key, in order. */
export async function hashNames(key: string, paths: readonly string[]): Promise<string[]> {
  const hashes = await sha256All(paths.map((path) => `${key}\n${path}`), () => undefined);
  return hashes.map((hash) => hash ?? '');
}
