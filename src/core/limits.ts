// Size and count limits: their defaults, their validation, and the check every write makes before it writes.

import { MemoryToolError } from './errors.js';
import { MAX_REPLY_CHARS, reply } from './replies.js';

/** Caps checked before anything is written. Every field is optional; omitted ones take the defaults. */
export interface MemoryLimits {
  /** Largest file, in UTF-8 bytes. Default 1 MiB. */
  maxFileBytes?: number | undefined;
  /** All files together, in UTF-8 bytes. Default 256 MiB. */
  maxTotalBytes?: number | undefined;
  /** Number of files (folders are not counted). Default 50,000. */
  maxFiles?: number | undefined;
  /** Longest reply Claude reads, in UTF-16 units; longer ones are cut with a note. Default 16,000, at least 10,000. */
  maxReplyChars?: number | undefined;
}

/** Every limit set: `Required` alone would keep the `| undefined` an explicit option may hold. */
export type ResolvedLimits = { [K in keyof MemoryLimits]-?: number };

/**
 * The limits used where {@link MemoryLimits} leaves a field out: 1 MiB a file, 256 MiB in all, 50,000 files, replies
 * of 16,000 characters.
 */
export const DEFAULT_LIMITS: Readonly<ResolvedLimits> = {
  maxFileBytes: 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
  maxFiles: 50_000,
  maxReplyChars: MAX_REPLY_CHARS,
};

/** The smallest `maxReplyChars`: a rename's reply echoes two paths as sent (paths.ts RAW_PATH_BYTES each). */
export const MIN_REPLY_CHARS = 10_000;

/** The defaults overlaid with `limits`; a limit that is not a positive integer is a programming error. */
export function resolveLimits(limits?: MemoryLimits): ResolvedLimits {
  const resolved = positiveIntegers(DEFAULT_LIMITS, limits, 'limits');
  if (resolved.maxReplyChars < MIN_REPLY_CHARS) {
    throw new TypeError(`limits.maxReplyChars must be at least ${MIN_REPLY_CHARS}, got ${resolved.maxReplyChars}`);
  }
  return resolved;
}

/** `defaults` overlaid with the set fields of `given`, each a positive integer (a TypeError naming `what.field`). */
export function positiveIntegers<T extends Record<string, number>>(
  defaults: Readonly<T>,
  given: { [K in keyof T]?: T[K] | undefined } | undefined,
  what: string,
): T {
  const resolved: T = { ...defaults };
  for (const name of Object.keys(defaults) as (keyof T & string)[]) {
    const value = given?.[name];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new TypeError(`${what}.${name} must be a positive integer, got ${String(value)}`);
    }
    resolved[name] = value;
  }
  return resolved;
}

/** The running totals of the files (the part of schema.ts Totals that limits need). */
export interface FileTotals {
  bytes: number;
  files: number;
}

/** Refuses a write that would break a limit: `oldBytes` is the file's old size (0 if new), `path` as Claude sent it. */
export function checkWrite(
  limits: Pick<ResolvedLimits, 'maxFileBytes' | 'maxTotalBytes' | 'maxFiles'>,
  usage: FileTotals,
  path: string,
  newBytes: number,
  oldBytes: number,
  isNew: boolean,
): FileTotals {
  if (newBytes > limits.maxFileBytes) {
    throw new MemoryToolError('too_large', reply.fileTooLarge(path, newBytes, limits.maxFileBytes));
  }
  const after = { bytes: usage.bytes - oldBytes + newBytes, files: usage.files + (isNew ? 1 : 0) };
  if (isNew && after.files > limits.maxFiles) {
    throw new MemoryToolError('too_large', reply.tooManyFiles(limits.maxFiles));
  }
  if (after.bytes > limits.maxTotalBytes && newBytes > oldBytes) {
    throw new MemoryToolError('too_large', reply.memoryFull(after.bytes, limits.maxTotalBytes));
  }
  return after;
}
