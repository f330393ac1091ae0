// The Memory Stores API's path rules, as the SDK's doc comments state them: what a valid path is, when two paths
// overlap, and what a `path_prefix` matches. Written apart from the adapter's own check, so each tests the other.

import { Buffer } from 'node:buffer';

/** A path holds 1 to 20 segments. */
export const MAX_SEGMENTS = 20;
/** A path is at most 1,024 bytes of UTF-8. */
export const MAX_PATH_BYTES = 1024;

// Control (Cc) and format (Cf) characters, the line and paragraph separators; lone surrogates (Cs) are no UTF-8.
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/u;

/** Why the API refuses `path` (the message of its 400), or undefined when the path is valid. */
export function pathProblem(path: string): string | undefined {
  if (!path.startsWith('/')) return 'path must start with "/"';
  if (Buffer.byteLength(path, 'utf8') > MAX_PATH_BYTES) return `path must be at most ${MAX_PATH_BYTES} bytes`;
  if (FORBIDDEN.test(path)) return 'path must not contain control or format characters, U+2028 or U+2029';
  if (path.normalize('NFC') !== path) return 'path must be in Unicode Normalization Form C';
  const segments = path.slice(1).split('/');
  if (segments.length > MAX_SEGMENTS) return `path must have 1 to ${MAX_SEGMENTS} segments`;
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    return 'a path segment must not be empty, "." or ".."';
  }
  return undefined;
}

/** Why the API refuses `prefix` as a `path_prefix`, or undefined. It ends with `/`; `/` alone is the whole store. */
export function prefixProblem(prefix: string): string | undefined {
  if (!prefix.startsWith('/') || !prefix.endsWith('/')) return 'path_prefix must start and end with "/"';
  if (prefix === '/') return undefined;
  const problem = pathProblem(prefix.slice(0, -1));
  return problem === undefined ? undefined : `path_prefix: ${problem}`;
}

/** True when one path is the other or an ancestor of it (`/notes` and `/notes/todo.md`): both cannot exist. */
export function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

/** Paths in the order the API lists them: by Unicode code point, which is the order of their UTF-8 bytes. */
export function comparePaths(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * What a listing shows for `path` below `prefix` at `depth`: the path itself, or the `memory_prefix` folder that
 * stands for it (`depth` segments deep, ending in `/`); undefined when `path` is not below `prefix`.
 */
export function listedAs(
  path: string,
  prefix: string,
  depth: number,
): { memory: string } | { folder: string } | undefined {
  if (!path.startsWith(prefix)) return undefined;
  const below = path.slice(prefix.length).split('/');
  if (depth === 0 || below.length <= depth) return { memory: path };
  return { folder: `${prefix}${below.slice(0, depth).join('/')}/` };
}
