// Bundles: the memory (or a subtree) as one `claude-memory-bundle` JSON file, and back. An import is all or
// nothing: the bundle is checked whole (hashes included) before the write transaction, which re-checks it
// against the memory as it is then. Hashing is not IndexedDB, so it never runs inside a transaction.

import { BUNDLE_FORMAT, BUNDLE_VERSION } from './format.js';
import type { BundleFile, ExportBundleOptions, ImportBundleOptions, ImportReport } from './format.js';
import { readTotals } from '../storage/optimistic-totals.js';
import { MemoryToolError, isMemoryToolError } from '../core/errors.js';
import type { ResolvedLimits, FileTotals } from '../core/limits.js';
import { MEMORY_ROOT, ancestorsOf, normalizeMemoryPath, parentOf } from '../core/paths.js';
import { bundleReply } from './replies.js';
import { reply } from '../core/replies.js';
import type { Recorded, ResolvedHistoryLimits } from '../history/journal.js';
import { record } from '../history/journal.js';
import type { EntryRecord, JournalOp } from '../storage/schema.js';
import type { MemoryStore, MemoryTx } from '../storage/store.js';
import { utf8Length } from '../core/utf8.js';
import { fileState, folderRecord, getEntry, subtreeRange } from '../storage/entries.js';
import type { RetiredBody } from '../storage/entries.js';

export { BUNDLE_FORMAT, BUNDLE_VERSION, importChanges } from './format.js';
export type { BundleFile, BundleProgress, ExportBundleOptions, ImportBundleOptions, ImportReport, MemoryBundle } from './format.js';

// ---------------------------------------------------------------- export

/**
 * The memory, or the subtree `options.path`, as a `claude-memory-bundle` JSON Blob. Everything is read in one
 * readonly transaction, then hashed; the output depends only on the memory and `exportedAt`.
 *
 * @example
 * const blob = await exportBundle(store, { path: '/memories/projects' });
 */
export async function exportBundle(store: MemoryStore, options: ExportBundleOptions = {}): Promise<Blob> {
  const shownPath = options.path ?? MEMORY_ROOT;
  const key = normalizeMemoryPath(shownPath);
  const stamp = options.exportedAt ?? new Date();
  if (!(stamp instanceof Date) || Number.isNaN(stamp.getTime())) {
    throw new TypeError('exportedAt must be a valid Date');
  }
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

  const parents = new Set(snapshot.entries.map((entry) => entry.parent));
  const folders = snapshot.entries
    .filter((entry) => entry.kind === 'folder' && !parents.has(entry.path))
    .map((entry) => entry.path)
    .sort(byCodeUnits);
  const files = snapshot.files
    .map((entry, i) => ({ entry, content: snapshot.contents[i] ?? '' }))
    .sort((a, b) => byCodeUnits(a.entry.path, b.entry.path));
  const total = files.length;
  const digests = await sha256All(
    files.map((file) => file.content),
    (done) => {
      if (done < total) options.onProgress?.(done, total);
    },
  );
  options.onProgress?.(total, total);

  // Built as parts, one file a line: a large memory never becomes one giant string.
  const head = { format: BUNDLE_FORMAT, version: BUNDLE_VERSION, exportedAt: stamp.toISOString() };
  const parts: string[] = [JSON.stringify(head).slice(0, -1), ',"files":['];
  files.forEach(({ entry, content }, i) => {
    const file: BundleFile = {
      path: entry.path,
      content,
      createdAt: new Date(entry.createdAt).toISOString(),
      updatedAt: new Date(entry.updatedAt).toISOString(),
      sha256: digests[i] ?? '',
    };
    parts.push(`${i === 0 ? '' : ','}\n${JSON.stringify(file)}`);
  });
  parts.push(`${total === 0 ? '' : '\n'}],"folders":${JSON.stringify(folders)}}\n`);
  return new Blob(parts, { type: 'application/json' });
}

/** UTF-16 code unit order, as `Array.prototype.sort()` and IndexedDB keys compare strings. */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---------------------------------------------------------------- import

/**
 * Checks `input` whole (structure, every path, hashes, limits, the memory's state), then applies it in one
 * readwrite transaction that re-checks the memory as it is then. Any refusal is a MemoryToolError (code
 * `invalid_bundle`, `too_large` or `conflict`) naming the first bad entry, and nothing is changed.
 *
 * @example
 * const report = await importBundle(store, limits, file, { mode: 'replace', dryRun: true });
 */
export async function importBundle(
  store: MemoryStore,
  limits: Readonly<ResolvedLimits>,
  input: Blob | File | string,
  options: ImportBundleOptions = {},
  history?: ResolvedHistoryLimits,
  onRecorded?: (tx: MemoryTx<'readwrite'>, recorded: Recorded) => void,
): Promise<ImportReport> {
  const settings = checkOptions(options);
  const bundle = parseBundle(await readText(input), limits);
  const total = bundle.fileCount * (settings.dryRun ? 1 : 2);
  const progress = (done: number): void => {
    if (done < total) options.onProgress?.(done, total);
  };

  // Hash what passed the structural checks; a mismatch before the first structural error is reported first.
  const digests = await sha256All(bundle.files.map((file) => file.content), progress);
  bundle.files.forEach((file, i) => {
    if (digests[i] !== file.sha256) throw refused(file.where, bundleReply.shaMismatch(digests[i] ?? ''));
  });
  if (bundle.error) throw bundle.error;

  const now = Date.now();
  // The memory is checked before the write transaction starts, and again inside it (another tab may write).
  const existing = await store.run('readonly', (tx) => tx.objectStore('entries').getAll());
  const preview = planImport(existing, bundle, settings, limits);
  if (settings.dryRun) {
    options.onProgress?.(total, total);
    return preview.report;
  }
  const report = await store.run('readwrite', async (tx) => {
    const [current, usage] = await Promise.all([tx.objectStore('entries').getAll(), readTotals(tx)]);
    const plan = planImport(current, bundle, settings, limits);
    let done = bundle.fileCount;
    const byPath = new Map(current.map((entry) => [entry.path, entry]));
    const applied = await applyPlan(tx, plan, byPath, usage.nextBody, now, () => {
      done++;
      if (done % 1000 === 0) progress(done);
    });
    // An import that changes nothing (an empty bundle, every file skipped) is not a change: journaled, it would
    // push real ones out of a bounded history and be what `undo()` takes back. Expiry does the same.
    if (applied.ops.length === 0) return plan.report;
    const paths = [...plan.report.addedPaths, ...plan.report.replacedPaths, ...plan.report.removedPaths];
    const recorded = await record(tx, { actor: 'user', command: 'import', paths, ops: applied.ops, retired: applied.retired }, now, history, {
      ...usage,
      ...plan.usage,
      nextBody: applied.nextBody,
    });
    onRecorded?.(tx, recorded);
    return plan.report;
  });
  try {
    options.onProgress?.(total, total);
  } catch {
    // The import has committed: an app's failing progress bar must not make it look refused (as with listeners).
  }
  return report;
}

/**
 * Writes a plan inside the import's readwrite transaction, awaiting only its requests. Content is copy-on-write
 * (a new body per written file, as the commands do); the bodies it replaced or removed are returned with the
 * steps to reverse the import, for the journal to keep or release. `step` is called once per bundle file.
 */
async function applyPlan(
  tx: MemoryTx<'readwrite'>,
  plan: Plan,
  current: ReadonlyMap<string, EntryRecord>,
  nextBody: number,
  now: number,
  step: () => void,
): Promise<{ ops: JournalOp[]; retired: RetiredBody[]; nextBody: number }> {
  const entries = tx.objectStore('entries');
  const bodies = tx.objectStore('bodies');
  const ops: JournalOp[] = [];
  // Deletes go first: a key freed here may be written again below, and requests run in order.
  const pending: Promise<unknown>[] = plan.deletes.map((gone) => entries.delete(gone.path));
  for (const gone of plan.deletes) {
    ops.push(
      gone.kind === 'folder'
        ? { type: 'folder', path: gone.path, before: true, after: false, times: [gone.createdAt, gone.updatedAt] }
        : { type: 'file', path: gone.path, before: fileState(gone), after: null },
    );
  }
  for (const folder of plan.report.folderPaths) {
    ops.push({ type: 'folder', path: folder, before: false, after: true });
    pending.push(entries.put(folderRecord(folder, now)));
  }
  plan.report.skippedPaths.forEach(() => step());
  let bodyId = nextBody;
  for (const file of plan.writes) {
    const there = current.get(file.key);
    const before = there?.kind === 'file' ? fileState(there) : null;
    const entry: EntryRecord = {
      path: file.key,
      parent: parentOf(file.key),
      kind: 'file',
      size: file.size,
      bodyId: bodyId++,
      createdAt: file.createdAt,
      updatedAt: file.updatedAt,
      // The bundle keeps when a file was last edited; here it arrives now, so expiry counts it as used now.
      accessedAt: now,
    };
    // Progress follows the writes as the browser carries them out.
    pending.push(bodies.add(file.content, entry.bodyId), entries.put(entry).then(step));
    ops.push({ type: 'file', path: file.key, before, after: fileState(entry) });
  }
  await Promise.all(pending);
  const retired = ops.flatMap((op) => (op.type === 'file' && op.before ? [{ id: op.before.bodyId, size: op.before.size }] : []));
  return { ops, retired, nextBody: bodyId };
}

interface Settings {
  mode: 'merge' | 'replace';
  onConflict: 'overwrite' | 'skip' | 'fail';
  dryRun: boolean;
}

/** Wrong options are a programming error, like bad limits: a TypeError, not a refusal Claude reads. */
function checkOptions(options: ImportBundleOptions): Settings {
  const mode = options.mode ?? 'merge';
  const onConflict = options.onConflict ?? 'overwrite';
  const dryRun = options.dryRun ?? false;
  if (mode !== 'merge' && mode !== 'replace') {
    throw new TypeError(`mode must be "merge" or "replace", got ${String(mode)}`);
  }
  if (onConflict !== 'overwrite' && onConflict !== 'skip' && onConflict !== 'fail') {
    throw new TypeError(`onConflict must be "overwrite", "skip" or "fail", got ${String(onConflict)}`);
  }
  if (typeof dryRun !== 'boolean') throw new TypeError('dryRun must be a boolean');
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function') {
    throw new TypeError('onProgress must be a function');
  }
  return { mode, onConflict, dryRun };
}

// ---------------------------------------------------------------- reading and checking a bundle

/** A bundle file that passed every check that needs neither its hash nor the memory. */
interface CheckedFile {
  where: string;
  key: string;
  content: string;
  size: number;
  createdAt: number;
  updatedAt: number;
  sha256: string;
}

interface CheckedFolder {
  where: string;
  key: string;
}

interface ParsedBundle {
  /** Number of entries in `files`, valid or not (the progress total). */
  fileCount: number;
  /** The files before the first structural error, in bundle order. */
  files: CheckedFile[];
  folders: CheckedFolder[];
  /** The first structural error in `files` or `folders`, thrown once the files before it are hashed. */
  error?: MemoryToolError;
}

function refused(where: string, why: string, code: 'invalid_bundle' | 'too_large' = 'invalid_bundle'): MemoryToolError {
  return new MemoryToolError(code, bundleReply.refused(where, why));
}

async function readText(input: unknown): Promise<string> {
  if (typeof input === 'string') return input.startsWith('\ufeff') ? input.slice(1) : input;
  // Duck-typed, so a Blob from another realm (an iframe, a worker) works too.
  const blob = input as { arrayBuffer?: unknown } | null;
  if (typeof blob !== 'object' || blob === null || typeof blob.arrayBuffer !== 'function') {
    throw refused('', bundleReply.notText(describe(input)));
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
 * JSON.parse defines `__proto__` and `constructor` as plain own properties, and nothing here copies a parsed
 * object (no spread, no Object.assign): every field is read with {@link own}, so inherited names never count.
 */
function parseBundle(text: string, limits: Readonly<ResolvedLimits>): ParsedBundle {
  let top: unknown;
  try {
    top = JSON.parse(text);
  } catch (error) {
    throw refused('', bundleReply.notJson(error instanceof Error ? cut(error.message) : 'unreadable'));
  }
  if (!isRecord(top)) throw refused('', bundleReply.notObject(describe(top)));
  const format = own(top, 'format');
  if (format !== BUNDLE_FORMAT) throw refused('', bundleReply.unknownFormat(describe(format)));
  const version = own(top, 'version');
  if (!Number.isSafeInteger(version) || (version as number) < 1) {
    throw refused('', bundleReply.badField('version', 'a positive integer', describe(version)));
  }
  if ((version as number) > BUNDLE_VERSION) {
    throw refused('', bundleReply.futureVersion(version as number, BUNDLE_VERSION));
  }
  const exportedAt = own(top, 'exportedAt');
  if (parseTime(exportedAt) === undefined) {
    throw refused('', bundleReply.badField('exportedAt', 'an ISO 8601 date-time string', describe(exportedAt)));
  }
  const rawFiles = own(top, 'files');
  if (!Array.isArray(rawFiles)) throw refused('', bundleReply.badField('files', 'an array', describe(rawFiles)));
  const rawFolders = own(top, 'folders');
  if (!Array.isArray(rawFolders)) throw refused('', bundleReply.badField('folders', 'an array', describe(rawFolders)));

  const parsed: ParsedBundle = { fileCount: rawFiles.length, files: [], folders: [] };
  const fileAt = new Map<string, string>(); // key -> where, of every file
  const needed = new Map<string, string>(); // folder key -> where of the first file below it
  try {
    rawFiles.forEach((raw: unknown, index) => {
      parsed.files.push(checkFile(raw, index, limits, fileAt, needed));
    });
    const folderAt = new Map<string, string>();
    rawFolders.forEach((raw: unknown, index) => {
      const where = bundleReply.entry('folders', index, typeof raw === 'string' ? showPath(raw) : undefined);
      if (typeof raw !== 'string') {
        throw refused(where, bundleReply.badField(`folders[${index}]`, 'a path string', describe(raw)));
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
      parsed.folders.push({ where, key });
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
  if (!isRecord(raw)) throw refused(bundleReply.entry('files', index), bundleReply.entryNotObject(describe(raw)));
  const path = own(raw, 'path');
  const where = bundleReply.entry('files', index, typeof path === 'string' ? showPath(path) : undefined);
  const field = (name: string, expected: string, value: unknown): MemoryToolError =>
    refused(where, bundleReply.badField(name, expected, describe(value)));
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

/** A bundle path as an error shows it: quoted, with control and invisible characters escaped. */
function showPath(path: string): string {
  return JSON.stringify(cut(path, 200)).replace(
    /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/gu,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A short, safe description of a parsed value: its JSON (cut) or its type. */
function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return showPath(value);
  if (typeof value !== 'object' || value === null) return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof (value as { arrayBuffer?: unknown }).arrayBuffer === 'function' ? 'a Blob-like object' : 'an object';
}

function cut(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

// ---------------------------------------------------------------- hashing

/** Files hashed at once: enough to keep the digest workers busy, few enough to bound memory (and divides 1,000). */
const HASH_BATCH = 50;

/** Lowercase hex SHA-256 of each text's UTF-8; `onStep(done)` after every 1,000 texts. */
async function sha256All(texts: readonly string[], onStep: (done: number) => void): Promise<string[]> {
  const encoder = new TextEncoder();
  // Each text is encoded into one reused buffer: digest() copies its input before it returns, and a fresh
  // buffer per file (encode()) made hashing big files cost three times as much, in allocation and collection.
  let scratch = new Uint8Array(0);
  const hash = (text: string): Promise<ArrayBuffer> => {
    // UTF-8 takes at most 3 bytes per UTF-16 unit (4 per surrogate pair, which is 2 units).
    if (scratch.length < text.length * 3) scratch = new Uint8Array(text.length * 3);
    const { written } = encoder.encodeInto(text, scratch);
    return crypto.subtle.digest('SHA-256', scratch.subarray(0, written));
  };
  const out: string[] = [];
  for (let start = 0; start < texts.length; start += HASH_BATCH) {
    const batch = texts.slice(start, start + HASH_BATCH);
    const digests = await Promise.all(batch.map(hash));
    for (const digest of digests) out.push(toHex(digest));
    if (out.length % 1000 === 0) onStep(out.length);
  }
  return out;
}

function toHex(buffer: ArrayBuffer): string {
  let hex = '';
  for (const byte of new Uint8Array(buffer)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

// ---------------------------------------------------------------- planning against the memory

interface Plan {
  report: ImportReport;
  /** Entries to delete (with their bodies), before anything is written. */
  deletes: EntryRecord[];
  /** Files to write, each as a new body. */
  writes: CheckedFile[];
  /** The memory's totals after the import. */
  usage: FileTotals;
}

/**
 * What the import does to a memory holding `existing`. Pure and synchronous, so it runs the same before the
 * write transaction and inside it. Throws, naming the first bad entry in bundle order, for a conflict under
 * `fail`, a path the memory holds as the other kind (merge), and the count and total-size limits.
 */
function planImport(
  existing: readonly EntryRecord[],
  bundle: ParsedBundle,
  settings: Settings,
  limits: Readonly<ResolvedLimits>,
): Plan {
  const merge = settings.mode === 'merge';
  const byPath = new Map(existing.map((entry) => [entry.path, entry]));
  const report: ImportReport = {
    added: 0,
    replaced: 0,
    skipped: 0,
    removed: 0,
    folders: 0,
    dryRun: settings.dryRun,
    addedPaths: [],
    replacedPaths: [],
    skippedPaths: [],
    removedPaths: [],
    folderPaths: [],
    removedFolderPaths: [],
  };
  const writes: CheckedFile[] = [];
  const kept = new Set<string>(); // memory files a bundle file lands on and that stay (skipped or overwritten)

  for (const file of bundle.files) {
    const there = byPath.get(file.key);
    if (merge) {
      if (there?.kind === 'folder') throw refused(file.where, bundleReply.memoryFolder());
      for (const ancestor of ancestorsOf(file.key)) {
        if (byPath.get(ancestor)?.kind === 'file') {
          throw refused(file.where, bundleReply.belowMemoryFile(showPath(ancestor)));
        }
      }
    }
    if (there?.kind === 'file') {
      if (settings.onConflict === 'fail') throw new MemoryToolError('conflict', bundleReply.conflict(file.where));
      kept.add(file.key);
      if (settings.onConflict === 'skip') {
        report.skippedPaths.push(file.key);
        continue;
      }
      report.replacedPaths.push(file.key);
      writes.push(file);
    } else {
      report.addedPaths.push(file.key);
      writes.push(file);
    }
  }

  // Every ancestor of a file or listed folder, and the listed folders, must end up as folders.
  const folders = new Set<string>();
  for (const file of bundle.files) for (const ancestor of ancestorsOf(file.key)) folders.add(ancestor);
  for (const folder of bundle.folders) {
    if (merge) {
      for (const key of [...ancestorsOf(folder.key), folder.key]) {
        if (byPath.get(key)?.kind !== 'file') continue;
        const why = key === folder.key ? bundleReply.memoryFile() : bundleReply.belowMemoryFile(showPath(key));
        throw refused(folder.where, why);
      }
    }
    for (const ancestor of ancestorsOf(folder.key)) folders.add(ancestor);
    folders.add(folder.key);
  }

  // `replace`: whatever the bundle does not name goes (a kept file, a needed folder stays).
  const deletes: EntryRecord[] = [];
  if (!merge) {
    for (const entry of existing) {
      const stays = entry.kind === 'file' ? kept.has(entry.path) : folders.has(entry.path);
      if (stays) continue;
      deletes.push(entry);
      (entry.kind === 'file' ? report.removedPaths : report.removedFolderPaths).push(entry.path);
    }
    for (const entry of deletes) byPath.delete(entry.path);
  }
  for (const folder of [...folders].sort(byCodeUnits)) {
    if (byPath.get(folder)?.kind !== 'folder') report.folderPaths.push(folder);
  }

  const usage = checkTotals(existing, byPath, writes, limits);
  report.added = report.addedPaths.length;
  report.replaced = report.replacedPaths.length;
  report.skipped = report.skippedPaths.length;
  report.removed = report.removedPaths.length;
  report.folders = report.folderPaths.length;
  return { report, deletes, writes, usage };
}

/**
 * The usage after the import, from the entries themselves. Like a single write (limits.ts), an import is refused
 * only if it leaves the memory over a limit *and* bigger than before, naming the first file that pushed it over.
 */
function checkTotals(
  existing: readonly EntryRecord[],
  remaining: ReadonlyMap<string, EntryRecord>,
  writes: readonly CheckedFile[],
  limits: Readonly<ResolvedLimits>,
): FileTotals {
  const before = sumFiles(existing);
  const after = sumFiles(remaining.values());
  let fileOver: CheckedFile | undefined;
  let byteOver: CheckedFile | undefined;
  for (const file of writes) {
    const old = remaining.get(file.key);
    const oldSize = old?.kind === 'file' ? old.size : 0;
    if (old?.kind !== 'file') after.files++;
    after.bytes += file.size - oldSize;
    if (!fileOver && old?.kind !== 'file' && after.files > limits.maxFiles) fileOver = file;
    if (!byteOver && file.size > oldSize && after.bytes > limits.maxTotalBytes) byteOver = file;
  }
  if (fileOver && after.files > limits.maxFiles && after.files > before.files) {
    throw refused(fileOver.where, bundleReply.tooManyFiles(after.files, limits.maxFiles), 'too_large');
  }
  if (byteOver && after.bytes > limits.maxTotalBytes && after.bytes > before.bytes) {
    throw refused(byteOver.where, bundleReply.memoryFull(after.bytes, limits.maxTotalBytes), 'too_large');
  }
  return after;
}

function sumFiles(entries: Iterable<EntryRecord>): FileTotals {
  const usage = { bytes: 0, files: 0 };
  for (const entry of entries) {
    if (entry.kind !== 'file') continue;
    usage.bytes += entry.size;
    usage.files++;
  }
  return usage;
}
