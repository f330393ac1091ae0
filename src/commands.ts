// The six memory commands as transaction bodies: each reads, decides and writes inside the one
// transaction it is given, awaiting only IndexedDB (so it is atomic), and returns the reply text.
// Input is already validated (input.ts); wording comes from replies.ts; nothing here opens a connection.

import { MemoryToolError } from './errors.js';
import type { ResolvedLimits, Usage } from './limits.js';
import { checkWrite } from './limits.js';
import { MEMORY_ROOT, ancestorsOf, isHiddenName, isWithin, nameOf, normalizeMemoryPath, parentOf } from './paths.js';
import { FOLDER_SIZE, MAX_VIEW_CHARS, MAX_VIEW_LINES, formatSize, numberedLine, reply } from './replies.js';
import type { RetiredBody } from './journal.js';
import { fileState } from './journal.js';
import type { EntryRecord, JournalOp } from './schema.js';
import type { MemoryTx } from './store.js';
import { issue } from './store.js';
import { utf8Length } from './utf8.js';
import type {
  BetaMemoryTool20250818CreateCommand as CreateCommand,
  BetaMemoryTool20250818DeleteCommand as DeleteCommand,
  BetaMemoryTool20250818InsertCommand as InsertCommand,
  BetaMemoryTool20250818RenameCommand as RenameCommand,
  BetaMemoryTool20250818StrReplaceCommand as StrReplaceCommand,
  BetaMemoryTool20250818ViewCommand as ViewCommand,
} from '@anthropic-ai/sdk/resources/beta';

/** What a write command changed, for change events and the journal. Paths are normalized keys. */
export type MemoryChange =
  | { type: 'write'; path: string }
  | { type: 'delete'; path: string }
  | { type: 'rename'; path: string; from: string };

export interface WriteResult {
  reply: string;
  changes: MemoryChange[];
  /** How to check and reverse the change (for the journal). */
  ops: JournalOp[];
  /** Bodies no file uses any more: kept by the journal, or released. */
  retired: RetiredBody[];
}

/** Checks or rewrites content before it is stored; throws to refuse. Synchronous: it runs inside the transaction. */
export type ContentFilter = (write: { path: string; key: string; content: string; command: string }) => string;

export interface WriteContext {
  limits: ResolvedLimits;
  overwrite: boolean;
  now: number;
  filter: ContentFilter;
}

type ReadTx = MemoryTx<'readonly'> | MemoryTx<'readwrite'>;
type WriteTx = MemoryTx<'readwrite'>;

const ROOT_ENTRY: EntryRecord = { path: MEMORY_ROOT, parent: '', kind: 'folder', size: 0, createdAt: 0, updatedAt: 0 };

/** Every key strictly below `folder`: `folder + '/'` up to, not including, `folder + '0'` ('0' follows '/'). */
export function subtreeRange(folder: string): IDBKeyRange {
  return IDBKeyRange.bound(folder + '/', folder + '0', false, true);
}

export function getEntry(tx: ReadTx, key: string): Promise<EntryRecord | undefined> {
  return key === MEMORY_ROOT ? Promise.resolve(ROOT_ENTRY) : tx.objectStore('entries').get(key);
}

/** The running totals and the next body id (found from the store's last key once, for older memories). */
export async function getUsage(tx: ReadTx): Promise<Usage & { nextBody: number }> {
  const usage = (await tx.objectStore('meta').get('usage')) ?? { bytes: 0, files: 0 };
  if (usage.nextBody !== undefined) return { ...usage, nextBody: usage.nextBody };
  const last = await tx.objectStore('bodies').openKeyCursor(null, 'prev');
  return { ...usage, nextBody: (typeof last?.key === 'number' ? last.key : 0) + 1 };
}

export async function readBody(tx: ReadTx, entry: EntryRecord): Promise<string> {
  return entry.bodyId === undefined ? '' : ((await tx.objectStore('bodies').get(entry.bodyId)) ?? '');
}

// ---------------------------------------------------------------- view

/** `onFileRead` hears which file was shown, so the caller can note the access (for expiry) after the read. */
export async function view(tx: ReadTx, command: ViewCommand, onFileRead?: (entry: EntryRecord) => void): Promise<string> {
  const key = normalizeMemoryPath(command.path);
  const entry = await getEntry(tx, key);
  if (!entry) throw new MemoryToolError('not_found', reply.viewMissing(command.path));
  if (entry.kind === 'folder') return listFolder(tx, key, command.path);
  const text = viewFile(await readBody(tx, entry), command);
  onFileRead?.(entry);
  return text;
}

const isVisible = (entry: EntryRecord): boolean => !isHiddenName(nameOf(entry.path));
const byName = (a: EntryRecord, b: EntryRecord): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** Two levels below `key`, read from the parent index: the cost follows what is listed, not the memory. */
async function listFolder(tx: ReadTx, key: string, shownPath: string): Promise<string> {
  const byParent = tx.objectStore('entries').index('parent');
  const children = (await byParent.getAll(key)).filter(isVisible).sort(byName);
  const grandchildren = await Promise.all(
    children.map((child) =>
      child.kind === 'folder' ? byParent.getAll(child.path) : Promise.resolve([] as EntryRecord[]),
    ),
  );
  const lines = [reply.listingHeader(shownPath), `${FOLDER_SIZE}\t${shownPath}`];
  const line = (entry: EntryRecord, rel: string): string =>
    entry.kind === 'folder' ? `${FOLDER_SIZE}\t${shownPath}/${rel}/` : `${formatSize(entry.size)}\t${shownPath}/${rel}`;
  children.forEach((child, i) => {
    const childName = nameOf(child.path);
    lines.push(line(child, childName));
    for (const grandchild of (grandchildren[i] ?? []).filter(isVisible).sort(byName)) {
      lines.push(line(grandchild, `${childName}/${nameOf(grandchild.path)}`));
    }
  });
  return lines.join('\n');
}

function viewFile(content: string, command: ViewCommand): string {
  const lines = content.split('\n');
  if (lines.length > MAX_VIEW_LINES) {
    throw new MemoryToolError('too_large', reply.tooManyLines(command.path, lines.length));
  }
  let shown = lines;
  let first = 1;
  const range = command.view_range;
  if (range && range.length === 2) {
    // As the SDK slices: start clamped to 1, end -1 means the last line, other values go to slice().
    const start = Math.max(1, range[0] ?? 1) - 1;
    const end = range[1] === -1 ? lines.length : range[1];
    shown = lines.slice(start, end);
    first = start + 1;
  }
  const header = reply.fileHeader(command.path);
  let out = header;
  for (let i = 0; i < shown.length; i++) {
    const next = '\n' + numberedLine(first + i, shown[i] ?? '');
    if (out.length + next.length > MAX_VIEW_CHARS) {
      // Cut at the last whole line that fits (or inside a single over-long first line).
      if (i === 0) out += next.slice(0, Math.max(0, MAX_VIEW_CHARS - out.length));
      const lastShown = i === 0 ? first : first + i - 1;
      return `${out}\n${reply.viewTruncated(first, lastShown, lines.length)}`;
    }
    out += next;
  }
  return shown.length === 0 ? header + '\n' : out;
}

// ---------------------------------------------------------------- create

export async function create(tx: WriteTx, command: CreateCommand, ctx: WriteContext): Promise<WriteResult> {
  const key = normalizeMemoryPath(command.path);
  const entries = tx.objectStore('entries');
  const [existing, usage, missingFolders] = await Promise.all([
    getEntry(tx, key),
    getUsage(tx),
    foldersToMake(tx, key, (file) => reply.belowFile(command.path, file)),
  ]);
  if (existing?.kind === 'folder') throw new MemoryToolError('is_a_directory', reply.isDirectory(command.path));
  if (existing && !ctx.overwrite) throw new MemoryToolError('already_exists', reply.alreadyExists(command.path));
  const content = ctx.filter({ path: command.path, key, content: command.file_text, command: 'create' });
  const size = utf8Length(content);
  const totals = checkWrite(ctx.limits, usage, command.path, size, existing?.size ?? 0, !existing);

  // Always a new body: the old one stays intact for the journal (copy-on-write, no content is copied).
  const bodyId = usage.nextBody;
  const entry: EntryRecord = {
    path: key,
    parent: parentOf(key),
    kind: 'file',
    size,
    bodyId,
    createdAt: existing?.createdAt ?? ctx.now,
    updatedAt: ctx.now,
  };
  issue(
    tx.objectStore('bodies').add(content, bodyId),
    ...makeFolders(tx, missingFolders, ctx.now),
    entries.put(entry),
    tx.objectStore('meta').put({ ...totals, nextBody: bodyId + 1 }, 'usage'),
  );
  const before = existing ? fileState(existing) : null;
  return {
    reply: reply.created(command.path),
    changes: [{ type: 'write', path: key }],
    ops: [...folderOps(missingFolders), { type: 'file', path: key, before, after: fileState(entry) }],
    retired: before ? [{ id: before.bodyId, size: before.size }] : [],
  };
}

const folderOps = (made: readonly string[]): JournalOp[] =>
  made.map((path) => ({ type: 'folder', path, before: false, after: true }));

/**
 * The ancestor folders of `key` that do not exist yet. Refuses (with `belowFile(ancestor)`) when an
 * ancestor is a file: nothing can live below a file, and nothing has been written at that point.
 */
async function foldersToMake(tx: ReadTx, key: string, belowFile: (file: string) => string): Promise<string[]> {
  const entries = tx.objectStore('entries');
  const ancestors = ancestorsOf(key);
  const parent = ancestors.at(-1);
  if (parent === undefined) return [];
  // A folder that exists has all its ancestors, so the usual case costs one read: the parent.
  const near = await entries.get(parent);
  if (near?.kind === 'folder') return [];
  if (near?.kind === 'file') throw new MemoryToolError('not_a_file', belowFile(parent));
  const found = await Promise.all(ancestors.slice(0, -1).map((folder) => entries.get(folder)));
  const missing: string[] = [];
  found.forEach((entry, i) => {
    const folder = ancestors[i] as string;
    if (entry?.kind === 'file') throw new MemoryToolError('not_a_file', belowFile(folder));
    if (!entry) missing.push(folder);
  });
  missing.push(parent);
  return missing;
}

/** The record of a new folder at `path`. */
export function folderRecord(path: string, now: number): EntryRecord {
  return { path, parent: parentOf(path), kind: 'folder', size: 0, createdAt: now, updatedAt: now };
}

function makeFolders(tx: WriteTx, folders: readonly string[], now: number): Promise<unknown>[] {
  const entries = tx.objectStore('entries');
  return folders.map((folder) => entries.put(folderRecord(folder, now)));
}

// ---------------------------------------------------------------- str_replace and insert

interface FoundFile {
  key: string;
  entry: EntryRecord;
  content: string;
  usage: Usage & { nextBody: number };
}

/** The file at `path` for an edit (read with the totals), or the contract's refusal for a missing path or a folder. */
async function fileForEdit(tx: WriteTx, path: string): Promise<FoundFile> {
  const key = normalizeMemoryPath(path);
  const [entry, usage] = await Promise.all([getEntry(tx, key), getUsage(tx)]);
  if (!entry) throw new MemoryToolError('not_found', reply.viewMissing(path));
  if (entry.kind !== 'file') throw new MemoryToolError('not_a_file', reply.notAFile(path));
  return { key, entry, usage, content: await readBody(tx, entry) };
}

/** Stores the edited content of a file as a new body and answers the journal's half of the result. */
async function writeEdit(
  tx: WriteTx,
  command: { command: string; path: string },
  found: FoundFile,
  edited: string,
  ctx: WriteContext,
): Promise<Omit<WriteResult, 'reply'> & { content: string }> {
  const content = ctx.filter({ path: command.path, key: found.key, content: edited, command: command.command });
  const size = utf8Length(content);
  const totals = checkWrite(ctx.limits, found.usage, command.path, size, found.entry.size, false);
  const bodyId = found.usage.nextBody;
  const entry: EntryRecord = { ...found.entry, size, bodyId, updatedAt: ctx.now };
  issue(
    tx.objectStore('bodies').add(content, bodyId),
    tx.objectStore('entries').put(entry),
    tx.objectStore('meta').put({ ...totals, nextBody: bodyId + 1 }, 'usage'),
  );
  const before = fileState(found.entry);
  return {
    content,
    changes: [{ type: 'write', path: found.key }],
    ops: [{ type: 'file', path: found.key, before, after: fileState(entry) }],
    retired: before ? [{ id: before.bodyId, size: before.size }] : [],
  };
}

export async function strReplace(tx: WriteTx, command: StrReplaceCommand, ctx: WriteContext): Promise<WriteResult> {
  const found = await fileForEdit(tx, command.path);
  const { content } = found;
  const oldStr = command.old_str;
  // Every start over the whole text, overlapping ones too (the SDK's per-line count misses both).
  const starts: number[] = [];
  for (let at = content.indexOf(oldStr); at !== -1; at = content.indexOf(oldStr, at + 1)) starts.push(at);
  if (starts.length === 0) throw new MemoryToolError('no_match', reply.noMatch(oldStr, command.path));
  const lines = lineNumbersOf(content, starts);
  if (starts.length > 1) throw new MemoryToolError('multiple_matches', reply.multipleMatches(oldStr, lines));

  const at = starts[0] as number;
  const edited = content.slice(0, at) + (command.new_str ?? '') + content.slice(at + oldStr.length);
  // The snippet shows what was stored, which a content filter may have rewritten.
  const { content: updated, ...written } = await writeEdit(tx, command, found, edited, ctx);

  const changed = (lines[0] as number) - 1;
  const newLines = updated.split('\n');
  const from = Math.max(0, changed - 2);
  const to = Math.min(newLines.length, changed + 3);
  const snippet = newLines.slice(from, to).map((text, i) => numberedLine(from + i + 1, text));
  return { reply: reply.edited(snippet.join('\n')), ...written };
}

/** The distinct 1-based line numbers on which the (ascending) offsets `starts` fall. */
function lineNumbersOf(content: string, starts: readonly number[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let scanned = 0;
  for (const start of starts) {
    for (let nl = content.indexOf('\n', scanned); nl !== -1 && nl < start; nl = content.indexOf('\n', nl + 1)) {
      line++;
      scanned = nl + 1;
    }
    if (lines[lines.length - 1] !== line) lines.push(line);
  }
  return lines;
}

export async function insert(tx: WriteTx, command: InsertCommand, ctx: WriteContext): Promise<WriteResult> {
  const found = await fileForEdit(tx, command.path);
  const lines = found.content.split('\n');
  if (command.insert_line < 0 || command.insert_line > lines.length) {
    throw new MemoryToolError('invalid_input', reply.badInsertLine(command.insert_line, lines.length));
  }
  lines.splice(command.insert_line, 0, command.insert_text.replace(/\n$/u, ''));
  const { content: _stored, ...written } = await writeEdit(tx, command, found, lines.join('\n'), ctx);
  return { reply: reply.inserted(command.path), ...written };
}

// ---------------------------------------------------------------- delete

export async function remove(tx: WriteTx, command: DeleteCommand): Promise<WriteResult> {
  const key = normalizeMemoryPath(command.path);
  // The root in any spelling (`/memories/`, `/memories/.`) normalizes to MEMORY_ROOT.
  if (key === MEMORY_ROOT) throw new MemoryToolError('forbidden', reply.deleteRoot());
  const [entry, usage] = await Promise.all([getEntry(tx, key), getUsage(tx)]);
  if (!entry) throw new MemoryToolError('not_found', reply.deleteMissing(command.path));
  const gone = entry.kind === 'folder' ? [entry, ...(await tx.objectStore('entries').getAll(subtreeRange(key)))] : [entry];
  const removed = deleteEntries(tx, gone, usage, entry.kind === 'folder' ? key : undefined);
  return { reply: reply.deleted(command.path), changes: [{ type: 'delete', path: key }], ...removed };
}

/**
 * Deletes `gone` (the whole subtree of `folder` when given, as one key range) and updates usage. Bodies are
 * not touched here: they are returned as retired, for the journal to keep or release.
 */
export function deleteEntries(
  tx: WriteTx,
  gone: readonly EntryRecord[],
  usage: Usage & { nextBody: number },
  folder?: string,
): Pick<WriteResult, 'ops' | 'retired'> {
  const entries = tx.objectStore('entries');
  const ops: JournalOp[] = [];
  const retired: RetiredBody[] = [];
  let bytes = 0;
  let files = 0;
  for (const entry of gone) {
    if (entry.kind === 'folder') {
      ops.push({ type: 'folder', path: entry.path, before: true, after: false });
    } else {
      bytes += entry.size;
      files++;
      const before = fileState(entry);
      ops.push({ type: 'file', path: entry.path, before, after: null });
      if (before) retired.push({ id: before.bodyId, size: before.size });
    }
    if (folder === undefined) issue(entries.delete(entry.path));
  }
  if (folder !== undefined) issue(entries.delete(folder), entries.delete(subtreeRange(folder)));
  issue(tx.objectStore('meta').put({ ...usage, bytes: usage.bytes - bytes, files: usage.files - files }, 'usage'));
  return { ops, retired };
}

// ---------------------------------------------------------------- rename

export async function rename(tx: WriteTx, command: RenameCommand, ctx: WriteContext): Promise<WriteResult> {
  const from = normalizeMemoryPath(command.old_path);
  const to = normalizeMemoryPath(command.new_path);
  // Checks in the SDK's order: root, destination, source; then the cases it gets wrong.
  if (from === MEMORY_ROOT) throw new MemoryToolError('forbidden', reply.renameRoot());
  const [source, destination] = await Promise.all([getEntry(tx, from), getEntry(tx, to)]);
  if (destination) throw new MemoryToolError('already_exists', reply.destinationExists(command.new_path));
  if (!source) throw new MemoryToolError('not_found', reply.renameMissing(command.old_path));
  if (source.kind === 'folder' && isWithin(to, from)) {
    throw new MemoryToolError('invalid_input', reply.renameIntoItself(command.old_path, command.new_path));
  }
  const missingFolders = await foldersToMake(tx, to, (file) => reply.belowFile(command.new_path, file));

  await Promise.all([...makeFolders(tx, missingFolders, ctx.now), moveTree(tx, source, to)]);
  return {
    reply: reply.renamed(command.old_path, command.new_path),
    changes: [{ type: 'rename', path: to, from }],
    ops: [...folderOps(missingFolders), { type: 'move', from, to }],
    retired: [],
  };
}

/** Moves `source` (with its subtree, for a folder) to `to`: metadata only, bodies keep their ids. */
export async function moveTree(tx: WriteTx, source: EntryRecord, to: string): Promise<void> {
  const entries = tx.objectStore('entries');
  const from = source.path;
  const moved = source.kind === 'folder' ? [source, ...(await entries.getAll(subtreeRange(from)))] : [source];
  const pending: Promise<unknown>[] = [entries.delete(from)];
  if (source.kind === 'folder') pending.push(entries.delete(subtreeRange(from)));
  for (const entry of moved) {
    const path = to + entry.path.slice(from.length);
    pending.push(entries.put({ ...entry, path, parent: parentOf(path) }));
  }
  await Promise.all(pending);
}
