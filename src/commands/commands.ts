// The six memory commands as transaction bodies: each reads, decides and writes inside the one
// transaction it is given, awaiting only IndexedDB (so it is atomic), and returns the reply text.
// Input is already validated (input.ts); wording comes from replies.ts; nothing here opens a connection.

import { MemoryToolError } from '../core/errors.js';
import type { ResolvedLimits } from '../core/limits.js';
import { checkWrite } from '../core/limits.js';
import {
  MEMORY_ROOT,
  ancestorsOf,
  isHiddenName,
  isWithin,
  nameOf,
  normalizeMemoryPath,
  parentOf,
} from '../core/paths.js';
import { ERROR_PREFIX, FOLDER_SIZE, formatSize, reply } from '../core/replies.js';
import { editedReply, fileView, folderView, multipleMatchesReply, noMatchReply } from './bounded-replies.js';
import { firstTwo, lineOf } from './text-search.js';
import type { BeforeWrite, WriteGuards } from '../guards/write-guards.js';
import type { RememberedTotals } from '../storage/optimistic-totals.js';
import { readTotals } from '../storage/optimistic-totals.js';
import type { EntryRecord, JournalOp, Totals } from '../storage/schema.js';
import type { BodyGuesses } from '../storage/read-ahead.js';
import type { MemoryTx } from '../storage/store.js';
import { getRecord, plainStore, request, writer } from '../storage/store.js';
import { utf8Length } from '../core/utf8.js';
import type {
  BetaMemoryTool20250818CreateCommand as CreateCommand,
  BetaMemoryTool20250818DeleteCommand as DeleteCommand,
  BetaMemoryTool20250818InsertCommand as InsertCommand,
  BetaMemoryTool20250818RenameCommand as RenameCommand,
  BetaMemoryTool20250818StrReplaceCommand as StrReplaceCommand,
  BetaMemoryTool20250818ViewCommand as ViewCommand,
} from '@anthropic-ai/sdk/resources/beta';
import type { RetiredBody } from '../storage/entries.js';
import {
  deleteEntries,
  fileState,
  folderRecord,
  getEntry,
  moveTree,
  movedThing,
  readBody,
  subtreeRange,
} from '../storage/entries.js';
import type { MemoryChange } from '../core/change-events.js';

export interface WriteResult {
  reply: string;
  changes: MemoryChange[];
  /** How to check and reverse the change (for the journal). */
  ops: JournalOp[];
  /** Bodies no file uses any more: kept by the journal, or released. */
  retired: RetiredBody[];
  /** The totals after the change, for the journal to write with its own (journal.ts `record`). */
  usage: Totals;
}

/** What a write command runs with: the limits, the guards every text passes, and the totals to start from. */
export interface WriteContext extends WriteGuards {
  limits: ResolvedLimits;
  overwrite: boolean;
  now: number;
  /** The totals this tool's last write left (see {@link readTotals}). */
  known?: RememberedTotals | undefined;
  /** Take `known` unchecked: the journal record's key proves them afterwards (tool/write-runner.ts). */
  trusted?: boolean;
  /** The bodies of the files this tool has seen, to read beside their entries. */
  ahead?: BodyGuesses | undefined;
}

type ReadTx = MemoryTx<'readonly'> | MemoryTx<'readwrite'>;
type WriteTx = MemoryTx<'readwrite'>;

/**
 * A request made now: `answer` settles with its key or its error, never a rejection, so the caller decides when a
 * failure counts; `thrown` is the error of one the browser refused as it was made (a full disk, in some browsers),
 * which fails nothing else, so the caller must see it before it writes anything that needs the request.
 */
function send(make: () => IDBRequest<number>): { answer: Promise<{ key: number } | { error: unknown }>; thrown?: { error: unknown } } {
  try {
    const made = request(make());
    return { answer: made.then((key) => ({ key }), (error: unknown) => ({ error })) };
  } catch (error) {
    return { answer: Promise.resolve({ error }), thrown: { error } };
  }
}

/** The body `guess` names, read now, beside the entry (read-ahead.ts); nothing without a guess. */
function readAhead(tx: ReadTx, guess: number | undefined): Promise<string | undefined> | undefined {
  if (guess === undefined) return undefined;
  const body = getRecord(tx, 'bodies', guess);
  // Unused when the guess was wrong; a failed read fails the transaction, which the caller hears of anyway.
  body.catch(() => undefined);
  return body;
}

/** A file's text: the body read ahead when it is the entry's own, otherwise read now. */
async function bodyOf(tx: ReadTx, entry: EntryRecord, guess: number | undefined, ahead: Promise<string | undefined> | undefined): Promise<string> {
  return ahead && entry.bodyId === guess ? ((await ahead) ?? '') : readBody(tx, entry);
}

// ---------------------------------------------------------------- view

/**
 * `onFileRead` hears which file was shown, so the caller can note the access (for expiry) after the read; `ahead`
 * guesses a file's body, and learns what was there.
 */
export async function view(
  tx: ReadTx,
  command: ViewCommand,
  maxReplyChars: number,
  onFileRead?: (entry: EntryRecord) => void,
  ahead?: BodyGuesses,
): Promise<string> {
  const key = normalizeMemoryPath(command.path);
  const guess = ahead?.guess(key);
  const early = readAhead(tx, guess);
  // A name with no extension is most likely a folder (`/memories` is the view of every conversation's start): its
  // children are read beside its entry, a round trip sooner. For a file so named the read finds none, at little cost.
  const children = guess !== undefined || nameOf(key).includes('.') ? undefined : childrenOf(tx, key);
  children?.catch(() => undefined);
  const entry = await getEntry(tx, key);
  ahead?.saw(key, entry);
  if (!entry) throw new MemoryToolError('not_found', reply.viewMissing(command.path));
  if (entry.kind === 'folder') return folderView(...(await listFolder(tx, key, command.path, children)), command.view_range, maxReplyChars);
  const text = fileView(command.path, await bodyOf(tx, entry, guess, early), command.view_range, maxReplyChars);
  onFileRead?.(entry);
  return text;
}

const isVisible = (entry: EntryRecord): boolean => !isHiddenName(nameOf(entry.path));
const byName = (a: EntryRecord, b: EntryRecord): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** The entries whose parent is `folder`, from the parent index. */
const childrenOf = (tx: ReadTx, folder: string): Promise<EntryRecord[]> =>
  request(plainStore(tx, 'entries').index('parent').getAll(folder)) as Promise<EntryRecord[]>;

/**
 * Two levels below `key`, read from the parent index: the cost follows what is listed, not the memory. `read` is
 * the first level's read, when it was sent already. Answers the header, the folder's own line and one line per entry.
 */
async function listFolder(tx: ReadTx, key: string, shownPath: string, read = childrenOf(tx, key)): Promise<[string, string, string[]]> {
  const children = (await read).filter(isVisible).sort(byName);
  const grandchildren = await Promise.all(
    children.map((child) => (child.kind === 'folder' ? childrenOf(tx, child.path) : Promise.resolve([] as EntryRecord[]))),
  );
  const lines: string[] = [];
  const line = (entry: EntryRecord, rel: string): string =>
    entry.kind === 'folder' ? `${FOLDER_SIZE}\t${shownPath}/${rel}/` : `${formatSize(entry.size)}\t${shownPath}/${rel}`;
  children.forEach((child, i) => {
    const childName = nameOf(child.path);
    lines.push(line(child, childName));
    for (const grandchild of (grandchildren[i] ?? []).filter(isVisible).sort(byName)) {
      lines.push(line(grandchild, `${childName}/${nameOf(grandchild.path)}`));
    }
  });
  return [reply.listingHeader(shownPath), `${FOLDER_SIZE}\t${shownPath}`, lines];
}

// ---------------------------------------------------------------- create

export async function create(tx: WriteTx, command: CreateCommand, ctx: WriteContext): Promise<WriteResult> {
  const key = normalizeMemoryPath(command.path);
  const write: BeforeWrite = { path: command.path, key, content: command.file_text, command: 'create' };
  const reads = Promise.all([
    getEntry(tx, key),
    readTotals(tx, ctx.known, ctx.trusted),
    foldersToMake(tx, key, (file) => reply.belowFile(command.path, file)),
  ]);
  // The secret check runs while the reads are under way.
  const refusal = ctx.screen(write);
  // Always a new body: the old one stays intact for the journal (copy-on-write, no content is copied). When
  // nothing can refuse or rewrite the text any more (no secret, no app hook, not plainly over the size limit)
  // it is sent now, beside the reads: a big file is then stored while this thread counts it. Otherwise it waits
  // for every check, so that refused text never reaches the storage backend. Sent now, it takes the next body id
  // of the totals when they are trusted (the entry then need not wait for its answer; a wrong id fails the add, and
  // the write runs again: tool/write-runner.ts), otherwise a key from the store, which the entry waits for.
  const sendNow = !refusal && !ctx.rewrites && write.content.length <= ctx.limits.maxFileBytes;
  const fixedId = sendNow && ctx.trusted ? ctx.known?.totals.nextBody : undefined;
  const early = sendNow ? send(() => plainStore(tx, 'bodies').add(write.content, fixedId) as IDBRequest<number>) : undefined;
  const counted = utf8Length(write.content);
  const [existing, usage, missingFolders] = await reads;
  // Worded as the SDK's tool words it (its exclusive open fails on a folder as on a file), whatever `overwrite` says.
  if (existing?.kind === 'folder') throw new MemoryToolError('is_a_directory', reply.alreadyExists(command.path));
  if (existing && !ctx.overwrite) throw new MemoryToolError('already_exists', reply.alreadyExists(command.path));
  if (refusal) throw refusal;
  const content = ctx.filter(write);
  const size = content === command.file_text ? counted : utf8Length(content);
  const totals = checkWrite(ctx.limits, usage, command.path, size, existing?.size ?? 0, !existing);
  let bodyId = usage.nextBody;
  let nextBody = bodyId + 1;
  // Its failure (a full disk) comes after the refusals above, as it would have without sending early. With an id of
  // the trusted totals (`usage` are those) its answer is not awaited: the transaction commits only once the add has
  // succeeded, and a failed one aborts it, which the store reports (store.ts `run`).
  if (early?.thrown) throw early.thrown.error;
  if (early && fixedId === undefined) {
    // Answered right after the reads (requests are served in order), which the entry waits for.
    const sent = await early.answer;
    if ('error' in sent) throw sent.error;
    bodyId = sent.key;
    // Keys from the store's generator and from `nextBody` (edits, imports) never meet: each moves past the other.
    nextBody = Math.max(usage.nextBody, bodyId + 1);
  } else if (!early) {
    writer(tx, 'bodies').add(content, bodyId);
  }

  const entry: EntryRecord = {
    path: key,
    parent: parentOf(key),
    kind: 'file',
    size,
    bodyId,
    createdAt: existing?.createdAt ?? ctx.now,
    updatedAt: ctx.now,
  };
  makeFolders(tx, missingFolders, ctx.now);
  writer(tx, 'entries').put(entry);
  ctx.ahead?.saw(key, entry);
  const before = existing ? fileState(existing) : null;
  return {
    reply: reply.created(command.path),
    changes: [{ type: 'write', path: key }],
    ops: [...folderOps(missingFolders), { type: 'file', path: key, before, after: fileState(entry) }],
    retired: before ? [{ id: before.bodyId, size: before.size }] : [],
    usage: { ...usage, ...totals, nextBody },
  };
}

const folderOps = (made: readonly string[]): JournalOp[] =>
  made.map((path) => ({ type: 'folder', path, before: false, after: true }));

/**
 * The ancestor folders of `key` that do not exist yet. Refuses (with `belowFile(ancestor)`) when an
 * ancestor is a file: nothing can live below a file, and nothing has been written at that point.
 */
async function foldersToMake(tx: ReadTx, key: string, belowFile: (file: string) => string): Promise<string[]> {
  const ancestors = ancestorsOf(key);
  const parent = ancestors.at(-1);
  if (parent === undefined) return [];
  // A folder that exists has all its ancestors, so the usual case costs one read: the parent.
  const near = await getEntry(tx, parent);
  if (near?.kind === 'folder') return [];
  if (near?.kind === 'file') throw new MemoryToolError('not_a_file', belowFile(parent));
  const found = await Promise.all(ancestors.slice(0, -1).map((folder) => getEntry(tx, folder)));
  const missing: string[] = [];
  found.forEach((entry, i) => {
    const folder = ancestors[i] as string;
    if (entry?.kind === 'file') throw new MemoryToolError('not_a_file', belowFile(folder));
    if (!entry) missing.push(folder);
  });
  missing.push(parent);
  return missing;
}

function makeFolders(tx: WriteTx, folders: readonly string[], now: number): void {
  const entries = writer(tx, 'entries');
  for (const folder of folders) entries.put(folderRecord(folder, now));
}

// ---------------------------------------------------------------- str_replace and insert

interface FoundFile {
  key: string;
  entry: EntryRecord;
  content: string;
  usage: Totals;
}

/** The file at `path` for an edit (read with the totals), or the contract's refusal for a missing path or a folder. */
async function fileForEdit(tx: WriteTx, path: string, ctx: WriteContext): Promise<FoundFile> {
  const key = normalizeMemoryPath(path);
  const guess = ctx.ahead?.guess(key);
  const early = readAhead(tx, guess);
  const [entry, usage] = await Promise.all([getEntry(tx, key), readTotals(tx, ctx.known, ctx.trusted)]);
  ctx.ahead?.saw(key, entry);
  if (!entry) throw new MemoryToolError('not_found', reply.viewMissing(path));
  if (entry.kind !== 'file') throw new MemoryToolError('not_a_file', reply.notAFile(path));
  return { key, entry, usage, content: await bodyOf(tx, entry, guess, early) };
}

/** An edit of a file: its new text, the span of it that changed, and the new size worked out from the old one. */
interface Edit {
  content: string;
  changed: { from: number; to: number };
  size: number;
}

/**
 * Stores the edited content of a file as a new body and answers the journal's half of the result. The size is
 * the edit's own unless a content filter rewrote the text (then it is counted).
 */
async function writeEdit(
  tx: WriteTx,
  command: { command: string; path: string },
  found: FoundFile,
  edit: Edit,
  ctx: WriteContext,
): Promise<Omit<WriteResult, 'reply'> & { content: string }> {
  const write: BeforeWrite = { path: command.path, key: found.key, content: edit.content, command: command.command, changed: edit.changed };
  const refusal = ctx.screen(write);
  if (refusal) throw refusal;
  const content = ctx.filter(write);
  const size = content === edit.content ? edit.size : utf8Length(content);
  const totals = checkWrite(ctx.limits, found.usage, command.path, size, found.entry.size, false);
  const bodyId = found.usage.nextBody;
  const entry: EntryRecord = { ...found.entry, size, bodyId, updatedAt: ctx.now };
  writer(tx, 'bodies').add(content, bodyId);
  writer(tx, 'entries').put(entry);
  ctx.ahead?.saw(found.key, entry);
  const before = fileState(found.entry);
  return {
    content,
    changes: [{ type: 'write', path: found.key }],
    ops: [{ type: 'file', path: found.key, before, after: fileState(entry) }],
    retired: before ? [{ id: before.bodyId, size: before.size }] : [],
    usage: { ...found.usage, ...totals, nextBody: bodyId + 1 },
  };
}

export async function strReplace(tx: WriteTx, command: StrReplaceCommand, ctx: WriteContext): Promise<WriteResult> {
  const found = await fileForEdit(tx, command.path, ctx);
  const { content } = found;
  const oldStr = command.old_str;
  const newStr = command.new_str ?? '';
  const limit = ctx.limits.maxReplyChars;
  // Every start over the whole text, overlapping ones too (the SDK's per-line count misses both).
  const [at, second] = firstTwo(content, oldStr);
  // The refusals echo old_str as a stored text would show it: no reply carries text UTF-8 cannot hold.
  if (at === -1) throw new MemoryToolError('no_match', noMatchReply(oldStr, command.path, limit - ERROR_PREFIX.length));
  if (second !== -1) throw new MemoryToolError('multiple_matches', multipleMatchesReply(oldStr, content, limit - ERROR_PREFIX.length));

  const end = at + oldStr.length;
  const edit: Edit = {
    content: content.slice(0, at) + newStr + content.slice(end),
    changed: { from: at, to: at + newStr.length },
    size: replacedSize(found.entry.size, content, at, end, newStr),
  };
  // The snippet shows what was stored, which a content filter may have rewritten.
  const { content: updated, ...written } = await writeEdit(tx, command, found, edit, ctx);
  // Two lines before the change's first line to two after it, as the SDK shows them.
  const changed = lineOf(content, at) - 1;
  const from = Math.max(0, changed - 2);
  const shown = linesAt(updated, from, changed + 3 - from);
  return { reply: editedReply(shown, from + 1, limit), ...written };
}

const isHigh = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;
/** UTF-8 bytes saved when `left` and `right` meet: a lone high and a lone low surrogate become one 4-byte pair. */
const joined = (left: string, right: string): number =>
  left !== '' && right !== '' && isHigh(left.charCodeAt(left.length - 1)) && isLow(right.charCodeAt(0)) ? 2 : 0;

/**
 * UTF-8 bytes of `content` with `content.slice(at, end)` replaced by `newStr`, from the old size: only the two
 * strings are counted, not the whole file (which may be a megabyte).
 */
export function replacedSize(oldSize: number, content: string, at: number, end: number, newStr: string): number {
  const before = content.slice(Math.max(0, at - 1), at);
  const after = content.slice(end, end + 1);
  const oldStr = content.slice(at, end);
  const oldJoins = joined(before, oldStr) + joined(oldStr, after);
  const newJoins = newStr === '' ? joined(before, after) : joined(before, newStr) + joined(newStr, after);
  return oldSize - utf8Length(oldStr) + oldJoins + utf8Length(newStr) - newJoins;
}

/** Up to `count` lines of `text` from 0-based line `first`, without splitting the whole text. */
function linesAt(text: string, first: number, count: number): string[] {
  let start = 0;
  for (let line = 0; line < first; line++) {
    const nl = text.indexOf('\n', start);
    if (nl === -1) return [];
    start = nl + 1;
  }
  const out: string[] = [];
  while (out.length < count) {
    const nl = text.indexOf('\n', start);
    out.push(nl === -1 ? text.slice(start) : text.slice(start, nl));
    if (nl === -1) break;
    start = nl + 1;
  }
  return out;
}

export async function insert(tx: WriteTx, command: InsertCommand, ctx: WriteContext): Promise<WriteResult> {
  const found = await fileForEdit(tx, command.path, ctx);
  const { content } = found;
  const line = command.insert_line;
  // Where line `line` starts (just after the text's `line`-th newline), found without splitting it into lines.
  let at = 0;
  let passed = 0;
  while (passed < line) {
    const nl = content.indexOf('\n', at);
    if (nl === -1) break;
    at = nl + 1;
    passed++;
  }
  // Valid lines are 0 to the line count; only a refusal counts every line, for its message.
  if (line < 0 || passed < line - 1) throw new MemoryToolError('invalid_input', reply.badInsertLine(line, countLines(content)));
  const text = command.insert_text.replace(/\n$/u, '');
  // As the SDK splits the text into lines, adds one and joins them again: after the last line, or before line
  // `line`. One newline joins the new line to its neighbours, so the size is the old one plus the line's.
  const size = found.entry.size + utf8Length(text) + 1;
  const edit: Edit =
    passed < line
      ? { content: `${content}\n${text}`, changed: { from: content.length, to: content.length + 1 + text.length }, size }
      : { content: `${content.slice(0, at)}${text}\n${content.slice(at)}`, changed: { from: at, to: at + text.length + 1 }, size };
  const { content: _stored, ...written } = await writeEdit(tx, command, found, edit, ctx);
  return { reply: reply.inserted(command.path), ...written };
}

/** Lines as `split('\n')` counts them (an empty text is one empty line). */
function countLines(text: string): number {
  let lines = 1;
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', nl + 1)) lines++;
  return lines;
}

// ---------------------------------------------------------------- delete

export async function remove(tx: WriteTx, command: DeleteCommand, ctx: Pick<WriteContext, 'known' | 'trusted'> = {}): Promise<WriteResult> {
  const key = normalizeMemoryPath(command.path);
  // The root in any spelling (`/memories/`, `/memories/.`) normalizes to MEMORY_ROOT.
  if (key === MEMORY_ROOT) throw new MemoryToolError('forbidden', reply.deleteRoot());
  const [entry, usage] = await Promise.all([getEntry(tx, key), readTotals(tx, ctx.known, ctx.trusted)]);
  if (!entry) throw new MemoryToolError('not_found', reply.deleteMissing(command.path));
  const gone = entry.kind === 'folder' ? [entry, ...(await tx.objectStore('entries').getAll(subtreeRange(key)))] : [entry];
  const removed = deleteEntries(tx, gone, usage, entry.kind === 'folder' ? key : undefined);
  return { reply: reply.deleted(command.path), changes: [{ type: 'delete', path: key }], ...removed };
}

// ---------------------------------------------------------------- rename

export async function rename(tx: WriteTx, command: RenameCommand, ctx: WriteContext): Promise<WriteResult> {
  const from = normalizeMemoryPath(command.old_path);
  const to = normalizeMemoryPath(command.new_path);
  // Checks in the SDK's order: root, destination, source; then the cases it gets wrong.
  if (from === MEMORY_ROOT) throw new MemoryToolError('forbidden', reply.renameRoot());
  const [source, destination, usage] = await Promise.all([getEntry(tx, from), getEntry(tx, to), readTotals(tx, ctx.known, ctx.trusted)]);
  if (destination) throw new MemoryToolError('already_exists', reply.destinationExists(command.new_path));
  if (!source) throw new MemoryToolError('not_found', reply.renameMissing(command.old_path));
  if (source.kind === 'folder' && isWithin(to, from)) {
    throw new MemoryToolError('invalid_input', reply.renameIntoItself(command.old_path, command.new_path));
  }
  const missingFolders = await foldersToMake(tx, to, (file) => reply.belowFile(command.new_path, file));

  makeFolders(tx, missingFolders, ctx.now);
  await moveTree(tx, source, to, (moved, past) =>
    new MemoryToolError('invalid_path', reply.renamePastLimits(command.old_path, command.new_path, moved, past)),
  );
  return {
    reply: reply.renamed(command.old_path, command.new_path),
    changes: [{ type: 'rename', path: to, from }],
    // What moved, so that an undo can tell whether it is still what is there (undo.ts).
    ops: [...folderOps(missingFolders), { type: 'move', from, to, ...movedThing(source) }],
    retired: [],
    usage,
  };
}
