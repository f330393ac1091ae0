// Export: one readonly transaction, then the hashes and the JSON, one file a line, or the zip (./README.md).

import { MemoryToolError } from '../core/errors.js';
import { checkOptionKeys } from '../core/option-keys.js';
import { MEMORY_ROOT, compareKeys, normalizeMemoryPath } from '../core/paths.js';
import { reply } from '../core/replies.js';
import { getEntry, subtreeRange } from '../storage/entries.js';
import type { MemoryStore } from '../storage/store.js';
import { exportTarget } from './age-keys.js';
import { loadAgeCrypto } from './age-part.js';
import { BUNDLE_FORMAT, BUNDLE_VERSION } from './format.js';
import type { BundleFile, ExportBundleOptions } from './format.js';
import { isWritableDate, isoTime } from './iso-time.js';
import { sha256All } from './sha256.js';
import { zipOf } from './zip-export.js';

const OPTION_KEYS = ['path', 'format', 'onProgress', 'exportedAt', 'signal', 'passphrase', 'recipients'];

/**
 * The memory, or the subtree `options.path`, as a `claude-memory-bundle` JSON Blob or a zip of the plain tree; with a
 * `passphrase` or `recipients`, that same file inside an age file.
 */
export async function exportBundle(store: MemoryStore, options: ExportBundleOptions = {}): Promise<Blob> {
  await checkOptionKeys(options, OPTION_KEYS);
  const target = exportTarget(options);
  // Loaded and checked (each recipient) before anything is read, so a bad recipient fails first.
  const encrypter = target === undefined ? undefined : (await loadAgeCrypto()).encrypterFor(target);
  const plain = await exportPlain(store, options);
  if (encrypter === undefined) return plain;
  const age = await loadAgeCrypto();
  return age.encryptBlob(encrypter, plain, options.signal);
}

/** The bundle in the clear, JSON or zip. */
async function exportPlain(store: MemoryStore, options: ExportBundleOptions): Promise<Blob> {
  const shownPath = options.path ?? MEMORY_ROOT;
  const key = normalizeMemoryPath(shownPath);
  const format = options.format ?? 'json';
  if (format !== 'json' && format !== 'zip') {
    throw new TypeError(`format must be "json" or "zip", got ${String(format)}`);
  }
  const { signal } = options;
  signal?.throwIfAborted();
  // Checked at each step of the hashing or the compression too, so a large export stops soon after an abort.
  const onProgress = (done: number, total: number): void => {
    signal?.throwIfAborted();
    options.onProgress?.(done, total);
  };
  const stamp = options.exportedAt ?? new Date();
  // Only a date the import reads back: a four-digit year, as toISOString() writes it.
  if (!isWritableDate(stamp)) throw new TypeError('exportedAt must be a valid Date from year 1 to 9999');
  const snapshot = await store.run('readonly', async (tx) => {
    const top = await getEntry(tx, key);
    if (!top) throw new MemoryToolError('not_found', reply.viewMissing(shownPath));
    const below = top.kind === 'folder' ? await tx.objectStore('entries').getAll(subtreeRange(key)) : [];
    const entries = key === MEMORY_ROOT ? below : [top, ...below];
    const files = entries.filter((entry) => entry.kind === 'file');
    const bodies = tx.objectStore('bodies');
    const contents = await Promise.all(
      files.map((file) => (file.bodyId === undefined ? '' : bodies.get(file.bodyId).then((body) => body ?? ''))),
    );
    return { entries, files, contents };
  });
  signal?.throwIfAborted();

  const parents = new Set(snapshot.entries.map((entry) => entry.parent));
  const folders = snapshot.entries
    .filter((entry) => entry.kind === 'folder' && !parents.has(entry.path))
    .map((entry) => entry.path)
    .sort(compareKeys);
  const files = snapshot.files
    .map((entry, i) => ({ entry, content: snapshot.contents[i] ?? '' }))
    .sort((a, b) => compareKeys(a.entry.path, b.entry.path));
  const total = files.length;
  if (format === 'zip') {
    // Every folder is an entry of its own, so an empty one survives any unzip; the root too for the whole memory.
    const allFolders = snapshot.entries.filter((entry) => entry.kind === 'folder');
    const root = { path: MEMORY_ROOT, updatedAt: stamp.getTime() };
    return zipOf(files, key === MEMORY_ROOT ? [root, ...allFolders] : allFolders, onProgress);
  }
  const digests = await sha256All(
    files.map((file) => file.content),
    (done) => {
      if (done < total) onProgress(done, total);
    },
  );
  onProgress(total, total);

  // Built as parts, one file a line: a large memory never becomes one giant string.
  const head = { format: BUNDLE_FORMAT, version: BUNDLE_VERSION, exportedAt: stamp.toISOString() };
  const parts: string[] = [JSON.stringify(head).slice(0, -1), ',"files":['];
  files.forEach(({ entry, content }, i) => {
    // A stored time outside the years 1 to 9999 is written at the nearer end, so that the export imports again.
    const file: BundleFile = {
      path: entry.path,
      content,
      createdAt: isoTime(entry.createdAt, stamp),
      updatedAt: isoTime(entry.updatedAt, stamp),
      sha256: digests[i] ?? '',
    };
    parts.push(`${i === 0 ? '' : ','}\n${JSON.stringify(file)}`);
  });
  parts.push(`${total === 0 ? '' : '\n'}],"folders":${JSON.stringify(folders)}}\n`);
  return new Blob(parts, { type: 'application/json' });
}
