// A bundle refusal: the MemoryToolError every check throws, and how it shows what it echoes (core/shown-text.ts).

import { MemoryToolError } from '../core/errors.js';
import { describeValue, quoteText } from '../core/shown-text.js';
import { bundleReply } from './replies.js';

/** Longest echo of one path or value, once its hidden characters are written out. */
const SHOWN_CHARS = 200;

/** `where` is `bundleReply.entry(...)`, or '' for the bundle as a whole. */
export function refused(
  where: string,
  why: string,
  code: 'invalid_bundle' | 'too_large' | 'key_needed' | 'wrong_key' = 'invalid_bundle',
): MemoryToolError {
  return new MemoryToolError(code, bundleReply.refused(where, why));
}

/** A path as a refusal names it. */
export function shownPath(path: string): string {
  return quoteText(path, SHOWN_CHARS);
}

/** A value the bundle holds where it should hold something else, as a refusal names it. */
export function described(value: unknown): string {
  return describeValue(value, SHOWN_CHARS);
}
