// str_replace and insert (R-edit-target, R-replace-match, R-insert in ./README.md), each stored as a new body.

import type { InsertCommand, StrReplaceCommand } from '../core/command-input.js';
import { MemoryToolError } from '../core/errors.js';
import { checkWrite } from '../core/limits.js';
import { normalizeMemoryPath } from '../core/paths.js';
import { ERROR_PREFIX, reply } from '../core/replies.js';
import { utf8Length } from '../core/utf8.js';
import type { BeforeWrite } from '../guards/write-guards.js';
import { fileState, getEntry } from '../storage/entries.js';
import { readTotals } from '../storage/optimistic-totals.js';
import type { EntryRecord, Totals } from '../storage/schema.js';
import type { MemoryTx } from '../storage/store.js';
import { writer } from '../storage/store.js';
import { editedReply, multipleMatchesReply, noMatchReply } from './bounded-replies.js';
import { countLines, lineStart, linesAt, replacedSize } from './edit-text.js';
import { bodyOf, readAhead } from './file-text.js';
import { firstTwo, lineOf } from './text-search.js';
import type { WriteContext, WriteResult } from './write-result.js';

type WriteTx = MemoryTx<'readwrite'>;

interface FoundFile {
  key: string;
  entry: EntryRecord;
  content: string;
  usage: Totals;
}

/** The file at `path` for an edit, read with the totals; refused when missing or a folder (R-edit-target). */
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

/** Stores an edit's text as a new body; the size is the edit's own unless `beforeWrite` rewrote the text. */
async function writeEdit(
  tx: WriteTx,
  command: { command: 'str_replace' | 'insert'; path: string },
  found: FoundFile,
  edit: Edit,
  ctx: WriteContext,
): Promise<Omit<WriteResult, 'reply'> & { content: string }> {
  const { path } = command;
  const { changed } = edit;
  const write: BeforeWrite = { path, key: found.key, content: edit.content, command: command.command, changed };
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
  // R-replace-match: every start over the whole text, overlapping ones too (the SDK's per-line count misses both).
  const [at, second] = firstTwo(content, oldStr);
  // The refusals echo old_str as a stored text would show it (R-well-formed), within the bound with `Error: `.
  const room = limit - ERROR_PREFIX.length;
  if (at === -1) throw new MemoryToolError('no_match', noMatchReply(oldStr, command.path, room));
  if (second !== -1) throw new MemoryToolError('multiple_matches', multipleMatchesReply(oldStr, content, room));

  const end = at + oldStr.length;
  const edit: Edit = {
    content: content.slice(0, at) + newStr + content.slice(end),
    changed: { from: at, to: at + newStr.length },
    size: replacedSize(found.entry.size, content, at, end, newStr),
  };
  // The snippet shows what was stored, which a content filter may have rewritten.
  const { content: updated, ...written } = await writeEdit(tx, command, found, edit, ctx);
  // R-replace-snippet: two lines before the change's first line to two after it, as the SDK shows them.
  const changed = lineOf(content, at) - 1;
  const from = Math.max(0, changed - 2);
  const shown = linesAt(updated, from, changed + 3 - from);
  return { reply: editedReply(shown, from + 1, limit), ...written };
}

export async function insert(tx: WriteTx, command: InsertCommand, ctx: WriteContext): Promise<WriteResult> {
  const found = await fileForEdit(tx, command.path, ctx);
  const { content } = found;
  const line = command.insert_line;
  const { at, passed } = lineStart(content, line);
  // R-insert-line: valid lines are 0 to the line count; only a refusal counts every line, for its message.
  if (line < 0 || passed < line - 1) {
    throw new MemoryToolError('invalid_input', reply.badInsertLine(line, countLines(content)));
  }
  const text = command.insert_text.replace(/\n$/u, '');
  // R-insert: as the SDK splits, adds a line and joins; one newline joins it to its neighbours, hence the size.
  const size = found.entry.size + utf8Length(text) + 1;
  const atEnd = passed < line;
  const from = atEnd ? content.length : at;
  const added = atEnd ? `\n${text}` : `${text}\n`;
  const changed = { from, to: from + added.length };
  const edit: Edit = { content: content.slice(0, from) + added + content.slice(from), changed, size };
  const { content: _stored, ...written } = await writeEdit(tx, command, found, edit, ctx);
  return { reply: reply.inserted(command.path), ...written };
}
