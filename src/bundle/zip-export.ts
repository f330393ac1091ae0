// Export as a zip: the plain tree under `memories/`, one entry per folder (so an empty one survives) and per file
// (deflated by fflate), each with its modification time in the MS-DOS fields and, to the second in UTC, in the
// extended timestamp field unzip restores; Unix modes, so unzip makes ordinary files and folders.

import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type { ZipInputFile } from 'fflate';
import { compareKeys } from '../core/paths.js';
import type { EntryRecord } from '../storage/schema.js';
import type { BundleProgress } from './format.js';
import { EXTRA_TIMESTAMP, dosDate, timestampField } from './zip-times.js';

const UNIX = 3;
/** `-rw-r--r--` and `drwxr-xr-x` (with the MS-DOS folder bit), in the high half of the external attributes. */
const FILE_ATTRIBUTES = 0o100644 * 0x10000;
const FOLDER_ATTRIBUTES = 0o040755 * 0x10000 + 0x10;

/** The zip of `files` (sorted) and `folders`; `onProgress` counts the files compressed. */
export function zipOf(
  files: readonly { entry: EntryRecord; content: string }[],
  folders: readonly Pick<EntryRecord, 'path' | 'updatedAt'>[],
  onProgress: BundleProgress | undefined,
): Blob {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let failure: Error | undefined;
  // ZipDeflate compresses as it is pushed, so every callback has run when end() returns.
  const zip = new Zip((error, chunk) => {
    if (error) failure ??= error;
    else parts.push(chunk);
  });
  const encoder = new TextEncoder();
  const total = files.length;
  const items = [
    ...folders.map((folder) => ({ path: folder.path, updatedAt: folder.updatedAt, content: undefined })),
    ...files.map(({ entry, content }) => ({ path: entry.path, updatedAt: entry.updatedAt, content })),
  ].sort((a, b) => compareKeys(a.path, b.path));
  let done = 0;
  for (const item of items) {
    // Keys start with `/memories`; inside the zip the tree starts at `memories/`.
    const name = item.path.slice(1);
    const entry = item.content === undefined ? new ZipPassThrough(`${name}/`) : new ZipDeflate(name, { level: 6 });
    describe(entry, item.content === undefined ? FOLDER_ATTRIBUTES : FILE_ATTRIBUTES, item.updatedAt);
    zip.add(entry);
    entry.push(item.content === undefined ? new Uint8Array(0) : encoder.encode(item.content), true);
    if (item.content !== undefined && ++done % 1000 === 0 && done < total) onProgress?.(done, total);
  }
  zip.end();
  if (failure) throw failure;
  onProgress?.(total, total);
  return new Blob(parts, { type: 'application/zip' });
}

function describe(entry: ZipInputFile, attributes: number, updatedAt: number): void {
  entry.os = UNIX;
  entry.attrs = attributes;
  entry.mtime = dosDate(updatedAt);
  const stamp = timestampField(updatedAt);
  if (stamp) entry.extra = { [EXTRA_TIMESTAMP]: stamp };
}
