// What this memory refuses of a file a pass brings here: its path, its size (checked before any scan reads the text),
// its text (the secret filter, the app's `beforeWrite`), and the room left. Pure but for the tool's own checks.

import { isMemoryToolError } from '../core/errors.js';
import { normalizeMemoryPath } from '../core/paths.js';
import { utf8Length } from '../core/utf8.js';
import type { EntryRecord } from '../storage/schema.js';
import type { ToolInternals } from '../tool/internals.js';

export interface WriteCheck {
  /** Why it is refused; undefined when it may be written. */
  why: string | undefined;
  /** A refusal of the path or the text lasts until the remote's version changes; room changes with the memory. */
  lasting: boolean;
  /** The text as the app's filter leaves it, and its UTF-8 size. */
  content: string;
  size: number;
}

/** Whether `text` may be written at `key` over `replaced`, with the memory holding `held` files and bytes. */
export function checkWrite(
  tool: ToolInternals,
  key: string,
  text: string,
  replaced: EntryRecord | undefined,
  held: { files: number; bytes: number },
): WriteCheck {
  const { limits } = tool;
  const tooBig = (size: number): string | undefined => sizeRefusal(size, limits.maxFileBytes);
  // The size first: an oversize text a remote sends is refused before any scan reads it.
  let why = pathRefusal(key, tool) ?? tooBig(utf8Length(text)) ?? textRefusal(key, text, tool);
  let content = text;
  if (!why) {
    try {
      content = tool.context.filter({ path: key, key, content: text, command: 'create' });
    } catch (error) {
      why = isMemoryToolError(error) ? error.message : String(error);
    }
  }
  const size = utf8Length(content);
  why ??= tooBig(size);
  if (why) return { why, lasting: true, content, size };
  const before = replaced?.size ?? 0;
  if (!replaced && held.files + 1 > limits.maxFiles) why = `this memory holds its limit of ${limits.maxFiles} files`;
  else if (size > before && held.bytes - before + size > limits.maxTotalBytes) {
    why = `this memory would be over its limit of ${limits.maxTotalBytes} bytes`;
  }
  return { why, lasting: false, content, size };
}

/** Why this memory refuses a file of `size` UTF-8 bytes, or undefined. */
export function sizeRefusal(size: number, maxFileBytes: number): string | undefined {
  return size > maxFileBytes ? `it is ${size} bytes, over this memory's limit of ${maxFileBytes} a file` : undefined;
}

/** Why this memory refuses `key` as a path (its path rules, the secret filter on paths), or undefined. */
export function pathRefusal(key: string, tool: ToolInternals): string | undefined {
  try {
    if (normalizeMemoryPath(key) !== key) return 'its path is not written as this memory writes paths';
  } catch (error) {
    return isMemoryToolError(error) ? error.message : String(error);
  }
  return tool.context.screenPath('create', key)?.message;
}

function textRefusal(key: string, text: string, tool: ToolInternals): string | undefined {
  return tool.context.screen({ path: key, key, content: text, command: 'create' })?.message;
}
