// The names conflict copies take: the original name with `.conflict-<time>-<tag>` before its extension, so a copy
// sorts beside its file, keeps its type, and is recognised on every device that syncs it. A name too long to take the
// tag is cut, and a hash of the whole name kept in it, so the copy still fits and still names its file.

import { PATH_LIMITS } from '../core/paths.js';
import { utf8Length } from '../core/utf8.js';

const COPY = /\.conflict-(\d{8}-\d{6})-([0-9a-z]{4})(?=\.[^./]*$|$)/u;
/** A cut copy: the stem's start, `~`, 8 hex digits of the whole stem's hash, then the tag. */
const CUT = /~([0-9a-f]{8})$/u;

/** `/a/notes.md` → `/a/notes.conflict-20261205-015501-k3f2.md` (UTC time, a random tag against same-second copies). */
export function conflictName(path: string, now: Date, tag: string = randomTag()): string {
  const { folder, stem, extension } = parts(path);
  const stamp = now.toISOString().replace(/[-:]/gu, '').replace('T', '-').slice(0, 15);
  const suffix = `.conflict-${stamp}-${tag}${extension}`;
  const whole = `${folder}${stem}${suffix}`;
  if (fits(folder, stem + suffix)) return whole;
  // Too long for a name (or a path): the stem is cut to what fits beside a hash of it, which names the file.
  const mark = `~${stemHash(stem)}`;
  const room = Math.min(
    PATH_LIMITS.maxSegmentBytes - utf8Length(mark + suffix),
    PATH_LIMITS.maxPathBytes - utf8Length(folder + mark + suffix),
  );
  const cut = cutToBytes(stem, room);
  // Nothing of the stem fits: the copy cannot be written, and the caller's limits say so.
  return cut === '' ? whole : `${folder}${cut}${mark}${suffix}`;
}

/**
 * For a conflict copy, the path of the file it is a copy of; otherwise undefined. A cut copy's file is not in its
 * name: `undefined` here, and {@link isCopyOf} or {@link originalAmong} find it.
 */
export function originalOf(path: string): string | undefined {
  const split = copyParts(path);
  if (!split || CUT.test(split.stem)) return undefined;
  return split.folder + split.stem + split.extension;
}

/** Whether `copy` is a conflict copy of the file `original` (beside it, under its name, whole or cut). */
export function isCopyOf(copy: string, original: string): boolean {
  const split = copyParts(copy);
  if (!split) return false;
  const { folder, stem, extension } = parts(original);
  if (split.folder !== folder || split.extension !== extension) return false;
  const cut = CUT.exec(split.stem);
  if (!cut) return split.stem === stem;
  const start = split.stem.slice(0, cut.index);
  return cut[1] === stemHash(stem) && stem.startsWith(start);
}

/** The file `copy` is a copy of among `paths` (e.g. a folder's entries), or undefined. */
export function originalAmong(copy: string, paths: Iterable<string>): string | undefined {
  const plain = originalOf(copy);
  if (plain !== undefined) return plain;
  if (!copyParts(copy)) return undefined;
  for (const path of paths) if (path !== copy && isCopyOf(copy, path)) return path;
  return undefined;
}

/** When a conflict copy was made, from its name. */
export function copiedAt(path: string): Date | undefined {
  const match = COPY.exec(path.slice(path.lastIndexOf('/') + 1));
  const digits = match?.[1];
  if (!digits) return undefined;
  const iso = `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}T${digits.slice(9, 11)}:${digits.slice(11, 13)}:${digits.slice(13, 15)}Z`;
  return new Date(iso);
}

/** A path's folder (with its slash), its name's stem, and its extension (a dot-name or a name without a dot has none). */
function parts(path: string): { folder: string; stem: string; extension: string } {
  const slash = path.lastIndexOf('/');
  const name = path.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  return { folder: path.slice(0, slash + 1), stem, extension };
}

/** A copy's folder, the stem before its tag, and the extension after it; undefined for a name that is no copy. */
function copyParts(path: string): { folder: string; stem: string; extension: string } | undefined {
  const slash = path.lastIndexOf('/');
  const name = path.slice(slash + 1);
  const match = COPY.exec(name);
  if (!match || match.index === 0) return undefined;
  return { folder: path.slice(0, slash + 1), stem: name.slice(0, match.index), extension: name.slice(match.index + match[0].length) };
}

function fits(folder: string, name: string): boolean {
  return utf8Length(name) <= PATH_LIMITS.maxSegmentBytes && utf8Length(folder + name) <= PATH_LIMITS.maxPathBytes;
}

/** The longest start of `text` of at most `bytes` UTF-8 bytes, never splitting a code point. */
function cutToBytes(text: string, bytes: number): string {
  let used = 0;
  let end = 0;
  for (const char of text) {
    const size = utf8Length(char);
    if (used + size > bytes) break;
    used += size;
    end += char.length;
  }
  return text.slice(0, end);
}

/** FNV-1a over the stem's UTF-16 units, as 8 hex digits: the same on every device, enough to tell names apart. */
function stemHash(stem: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < stem.length; i++) {
    hash ^= stem.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

function randomTag(): string {
  return Math.floor(Math.random() * 36 ** 4)
    .toString(36)
    .padStart(4, '0');
}
