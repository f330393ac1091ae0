// Reading a JSON bundle and checking it without the memory: the input as UTF-8 text, the JSON's top level, and each
// entry's fields (the checks every entry passes, JSON or zip, are check-entries.ts).

import { MemoryToolError, isMemoryToolError } from '../core/errors.js';
import type { ResolvedLimits } from '../core/limits.js';
import { showText } from '../core/shown-text.js';
import { utf8Length } from '../core/utf8.js';
import { EntryChecker } from './check-entries.js';
import type { CheckedFile, CheckedFolder, ParsedBundle, PathSecret } from './check-entries.js';
import { BUNDLE_FORMAT, BUNDLE_VERSION } from './format.js';
import { parseIsoTime } from './iso-time.js';
import { described, refused, shownPath } from './refusal.js';
import { bundleReply } from './replies.js';

/** The text of a Blob, a File or a string; a leading BOM is dropped. */
export async function readText(input: unknown): Promise<string> {
  if (typeof input === 'string') return input.startsWith('\ufeff') ? input.slice(1) : input;
  // Duck-typed, so a Blob from another realm (an iframe, a worker) works too.
  const blob = input as { arrayBuffer?: unknown } | null;
  if (typeof blob !== 'object' || blob === null || typeof blob.arrayBuffer !== 'function') {
    throw refused('', bundleReply.notText(described(input)));
  }
  const bytes = await (input as Blob).arrayBuffer();
  try {
    // `fatal`: broken UTF-8 is refused, not silently turned into U+FFFD; a leading BOM is dropped.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw refused('', bundleReply.notUtf8());
  }
}

/**
 * The bundle's entries, checked; a bad top level throws, a bad entry is kept as `error`, thrown once the files before
 * it are hashed. Every field is read with {@link own}, so `__proto__` and `constructor` never count.
 */
export function parseBundle(text: string, limits: Readonly<ResolvedLimits>, pathSecret?: PathSecret): ParsedBundle {
  let top: unknown;
  try {
    top = JSON.parse(text);
  } catch (error) {
    // The engine's message quotes the text near the error, which may hold anything.
    throw refused('', bundleReply.notJson(error instanceof Error ? showText(error.message, 120) : 'unreadable'));
  }
  if (!isRecord(top)) throw refused('', bundleReply.notObject(described(top)));
  const format = own(top, 'format');
  if (format !== BUNDLE_FORMAT) throw refused('', bundleReply.unknownFormat(described(format)));
  const version = own(top, 'version');
  if (!Number.isSafeInteger(version) || (version as number) < 1) {
    throw refused('', bundleReply.badField('version', 'a positive integer', described(version)));
  }
  if ((version as number) > BUNDLE_VERSION) {
    throw refused('', bundleReply.futureVersion(version as number, BUNDLE_VERSION));
  }
  // Only format, version and files are required; what else the bundle says is checked.
  const exportedAt = given(top, 'exportedAt');
  if (exportedAt !== undefined && parseIsoTime(exportedAt) === undefined) {
    throw refused('', bundleReply.badField('exportedAt', bundleReply.isoTime(), described(exportedAt)));
  }
  const rawFiles = own(top, 'files');
  if (!Array.isArray(rawFiles)) throw refused('', bundleReply.badField('files', 'an array', described(rawFiles)));
  const rawFolders = given(top, 'folders') ?? [];
  if (!Array.isArray(rawFolders)) throw refused('', bundleReply.badField('folders', 'an array', described(rawFolders)));

  const parsed: ParsedBundle = { fileCount: rawFiles.length, files: [], folders: [] };
  const checker = new EntryChecker(limits, pathSecret);
  try {
    rawFiles.forEach((raw: unknown, index) => {
      parsed.files.push(checkFile(raw, index, checker));
    });
    rawFolders.forEach((raw: unknown, index) => {
      parsed.folders.push(checkFolder(raw, index, checker));
    });
  } catch (error) {
    if (!isMemoryToolError(error)) throw error;
    parsed.error = error;
  }
  return parsed;
}

function checkFile(raw: unknown, index: number, checker: EntryChecker): CheckedFile {
  if (!isRecord(raw)) throw refused(bundleReply.entry('files', index), bundleReply.entryNotObject(described(raw)));
  const path = own(raw, 'path');
  const where = bundleReply.entry('files', index, typeof path === 'string' ? shownPath(path) : undefined);
  const field = (name: string, expected: string, value: unknown): MemoryToolError =>
    refused(where, bundleReply.badField(name, expected, described(value)));
  if (typeof path !== 'string') throw field('path', 'a path string', path);
  const content = own(raw, 'content');
  if (typeof content !== 'string') throw field('content', 'a string', content);
  const times = (['createdAt', 'updatedAt'] as const).map((name) => {
    const value = given(raw, name);
    const ms = parseIsoTime(value);
    if (value !== undefined && ms === undefined) throw field(name, bundleReply.isoTime(), value);
    return ms;
  });
  const sha256 = given(raw, 'sha256');
  if (sha256 !== undefined && (typeof sha256 !== 'string' || !/^[0-9a-f]{64}$/u.test(sha256))) {
    throw field('sha256', '64 lowercase hex digits', sha256);
  }
  const size = utf8Length(content);
  const key = checker.file(where, path, size);
  return { where, key, content, size, createdAt: times[0], updatedAt: times[1], sha256 };
}

function checkFolder(raw: unknown, index: number, checker: EntryChecker): CheckedFolder {
  const where = bundleReply.entry('folders', index, typeof raw === 'string' ? shownPath(raw) : undefined);
  if (typeof raw !== 'string') {
    throw refused(where, bundleReply.badField(`folders[${index}]`, 'a path string', described(raw)));
  }
  return { where, key: checker.folder(where, raw) };
}

function own(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** An optional field: absent and `null` both mean that the bundle does not say. */
function given(record: Record<string, unknown>, key: string): unknown {
  return own(record, key) ?? undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
