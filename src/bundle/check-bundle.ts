// Reading a bundle and checking it without the memory: the input as UTF-8 text, the JSON's top level, and each entry.

import { MemoryToolError, isMemoryToolError } from '../core/errors.js';
import type { ResolvedLimits } from '../core/limits.js';
import { MEMORY_ROOT, ancestorsOf, normalizeMemoryPath } from '../core/paths.js';
import { showText } from '../core/shown-text.js';
import { utf8Length } from '../core/utf8.js';
import { BUNDLE_FORMAT, BUNDLE_VERSION } from './format.js';
import { described, refused, shownPath } from './refusal.js';
import { bundleReply } from './replies.js';

/** A bundle file that passed every check that needs neither its hash nor the memory. */
export interface CheckedFile {
  /** How refusals name it: `files[3] "/memories/a.md"`. */
  where: string;
  key: string;
  content: string;
  size: number;
  createdAt: number;
  updatedAt: number;
  sha256: string;
}

export interface CheckedFolder {
  where: string;
  key: string;
}

export interface ParsedBundle {
  /** Number of entries in `files`, valid or not (the progress total). */
  fileCount: number;
  /** The files before the first structural error, in bundle order. */
  files: CheckedFile[];
  folders: CheckedFolder[];
  /** The first structural error in `files` or `folders`, thrown once the files before it are hashed. */
  error?: MemoryToolError;
}

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
export function parseBundle(text: string, limits: Readonly<ResolvedLimits>): ParsedBundle {
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
  const exportedAt = own(top, 'exportedAt');
  if (parseTime(exportedAt) === undefined) {
    throw refused('', bundleReply.badField('exportedAt', 'an ISO 8601 date-time string', described(exportedAt)));
  }
  const rawFiles = own(top, 'files');
  if (!Array.isArray(rawFiles)) throw refused('', bundleReply.badField('files', 'an array', described(rawFiles)));
  const rawFolders = own(top, 'folders');
  if (!Array.isArray(rawFolders)) throw refused('', bundleReply.badField('folders', 'an array', described(rawFolders)));

  const parsed: ParsedBundle = { fileCount: rawFiles.length, files: [], folders: [] };
  const fileAt = new Map<string, string>(); // key -> where, of every file
  const needed = new Map<string, string>(); // folder key -> where of the first file below it
  try {
    rawFiles.forEach((raw: unknown, index) => {
      parsed.files.push(checkFile(raw, index, limits, fileAt, needed));
    });
    const folderAt = new Map<string, string>();
    rawFolders.forEach((raw: unknown, index) => {
      parsed.folders.push(checkFolder(raw, index, fileAt, folderAt));
    });
  } catch (error) {
    if (!isMemoryToolError(error)) throw error;
    parsed.error = error;
  }
  return parsed;
}

function checkFile(
  raw: unknown,
  index: number,
  limits: Readonly<ResolvedLimits>,
  fileAt: Map<string, string>,
  needed: Map<string, string>,
): CheckedFile {
  if (!isRecord(raw)) throw refused(bundleReply.entry('files', index), bundleReply.entryNotObject(described(raw)));
  const path = own(raw, 'path');
  const where = bundleReply.entry('files', index, typeof path === 'string' ? shownPath(path) : undefined);
  const field = (name: string, expected: string, value: unknown): MemoryToolError =>
    refused(where, bundleReply.badField(name, expected, described(value)));
  if (typeof path !== 'string') throw field('path', 'a path string', path);
  const key = checkedPath(path, where);
  if (key === MEMORY_ROOT) throw refused(where, bundleReply.rootAsFile());

  const content = own(raw, 'content');
  if (typeof content !== 'string') throw field('content', 'a string', content);
  const createdAt = parseTime(own(raw, 'createdAt'));
  if (createdAt === undefined) throw field('createdAt', 'an ISO 8601 date-time string', own(raw, 'createdAt'));
  const updatedAt = parseTime(own(raw, 'updatedAt'));
  if (updatedAt === undefined) throw field('updatedAt', 'an ISO 8601 date-time string', own(raw, 'updatedAt'));
  const sha256 = own(raw, 'sha256');
  if (typeof sha256 !== 'string' || !/^[0-9a-f]{64}$/u.test(sha256)) {
    throw field('sha256', '64 lowercase hex digits', sha256);
  }

  const twin = fileAt.get(key);
  if (twin !== undefined) throw refused(where, bundleReply.duplicate(twin));
  const below = needed.get(key);
  if (below !== undefined) throw refused(where, bundleReply.fileAboveFile(below));
  const ancestors = ancestorsOf(key);
  for (const ancestor of ancestors) {
    const above = fileAt.get(ancestor);
    if (above !== undefined) throw refused(where, bundleReply.belowFile(above));
  }
  const size = utf8Length(content);
  if (size > limits.maxFileBytes) {
    throw refused(where, bundleReply.fileTooLarge(size, limits.maxFileBytes), 'too_large');
  }

  fileAt.set(key, where);
  for (const ancestor of ancestors) if (!needed.has(ancestor)) needed.set(ancestor, where);
  return { where, key, content, size, createdAt, updatedAt, sha256 };
}

function checkFolder(
  raw: unknown,
  index: number,
  fileAt: ReadonlyMap<string, string>,
  folderAt: Map<string, string>,
): CheckedFolder {
  const where = bundleReply.entry('folders', index, typeof raw === 'string' ? shownPath(raw) : undefined);
  if (typeof raw !== 'string') {
    throw refused(where, bundleReply.badField(`folders[${index}]`, 'a path string', described(raw)));
  }
  const key = checkedPath(raw, where);
  if (key === MEMORY_ROOT) throw refused(where, bundleReply.rootAsFolder());
  const twin = folderAt.get(key);
  if (twin !== undefined) throw refused(where, bundleReply.duplicate(twin));
  const file = fileAt.get(key);
  if (file !== undefined) throw refused(where, bundleReply.folderIsFile(file));
  for (const ancestor of ancestorsOf(key)) {
    const above = fileAt.get(ancestor);
    if (above !== undefined) throw refused(where, bundleReply.belowFile(above));
  }
  folderAt.set(key, where);
  return { where, key };
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

function own(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/u;

/** Milliseconds of an ISO 8601 date-time with a zone (`toISOString()` output and its relatives), else undefined. */
function parseTime(value: unknown): number | undefined {
  if (typeof value !== 'string' || !ISO_TIME.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}
