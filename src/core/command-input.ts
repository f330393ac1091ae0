// `parseMemoryCommand`: the raw `tool_use.input` Claude sends, checked field by field (R-input) before any command.

import { MemoryToolError } from './errors.js';
import { reply } from './replies.js';
import { showText } from './shown-text.js';

// The commands of memory_20250818 as Claude sends them, declared here so the tool's types need no SDK installed;
// test/core/command-types.node.test.ts checks they are the SDK's `BetaMemoryTool20250818*Command` exactly.

/** Shows a folder two levels deep, or a file with line numbers (`view_range`: first and last line, -1 for the end). */
export interface ViewCommand {
  /** The command's name, the union's tag. */
  command: 'view';
  /** The file or folder to show, under `/memories`. */
  path: string;
  /**
   * For a file: `[first, last]` line, 1-based and inclusive; `-1` as last reads to the end. Omitted: the whole file.
   */
  view_range?: number[];
}
/** Writes a file, making its parent folders. */
export interface CreateCommand {
  /** The command's name, the union's tag. */
  command: 'create';
  /** The file to write, under `/memories`; missing parent folders are made. */
  path: string;
  /** The file's whole new text. */
  file_text: string;
}
/** Replaces the one occurrence of `old_str` with `new_str`. */
export interface StrReplaceCommand {
  /** The command's name, the union's tag. */
  command: 'str_replace';
  /** The file to edit, under `/memories`. */
  path: string;
  /** The text to replace: it must occur exactly once in the file, or nothing is changed. */
  old_str: string;
  /** The text put in its place (Claude may omit it: the empty string). */
  new_str: string;
}
/** Inserts `insert_text` after line `insert_line` (0: before the first). */
export interface InsertCommand {
  /** The command's name, the union's tag. */
  command: 'insert';
  /** The file to edit, under `/memories`. */
  path: string;
  /** The line to insert after, 1-based; `0` inserts before the first line. */
  insert_line: number;
  /** The text to insert, as one or more lines. */
  insert_text: string;
}
/** Deletes a file, or a folder with everything in it. */
export interface DeleteCommand {
  /** The command's name, the union's tag. */
  command: 'delete';
  /** The file or folder to delete, under `/memories`; `/memories` itself is refused. */
  path: string;
}
/** Moves a file or folder. */
export interface RenameCommand {
  /** The command's name, the union's tag. */
  command: 'rename';
  /** The file or folder to move. */
  old_path: string;
  /** Where it goes; refused if something is already there. */
  new_path: string;
}

/** Any command of memory_20250818, as `parseMemoryCommand` returns it; narrow on `command`. */
export type MemoryCommand =
  | ViewCommand
  | CreateCommand
  | StrReplaceCommand
  | InsertCommand
  | DeleteCommand
  | RenameCommand;
/** The six command names: `view`, `create`, `str_replace`, `insert`, `delete`, `rename`. */
export type MemoryCommandName = MemoryCommand['command'];

type FieldKind = 'string' | 'optional string' | 'integer' | 'optional range';

/** The fields of each command (R-input in ../commands/README.md). */
const FIELDS: Readonly<Record<MemoryCommandName, Readonly<Record<string, FieldKind>>>> = {
  view: { path: 'string', view_range: 'optional range' },
  create: { path: 'string', file_text: 'string' },
  str_replace: { path: 'string', old_str: 'string', new_str: 'optional string' },
  insert: { path: 'string', insert_line: 'integer', insert_text: 'string' },
  delete: { path: 'string' },
  rename: { old_path: 'string', new_path: 'string' },
};

export const COMMAND_NAMES = Object.keys(FIELDS) as MemoryCommandName[];

/** The command in `input`, checked field by field (R-input); throws `invalid_input` naming the field. */
export function parseMemoryCommand(input: unknown): MemoryCommand {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw invalid(`the input must be an object with a "command" field, got ${describe(input)}`);
  }
  const record = input as Record<string, unknown>;
  const command = Object.hasOwn(record, 'command') ? record.command : undefined;
  if (typeof command !== 'string' || !Object.hasOwn(FIELDS, command)) {
    throw invalid(
      `"command" must be one of ${COMMAND_NAMES.join(', ')}, got ${describe(command)}`,
    );
  }
  const name = command as MemoryCommandName;
  const out: Record<string, unknown> = { command: name };
  for (const [field, kind] of Object.entries(FIELDS[name])) {
    const value = Object.hasOwn(record, field) ? record[field] : undefined;
    const optional = kind.startsWith('optional');
    if (value === undefined || (value === null && optional)) {
      if (!optional) throw invalid(`${name} needs "${field}" (${article(kind)}), and it is missing`);
      if (field === 'new_str') out[field] = '';
      continue;
    }
    checkField(name, field, kind, value);
    out[field] = value;
  }
  if (name === 'str_replace' && out.old_str === '') {
    throw new MemoryToolError('invalid_input', reply.emptyOldStr());
  }
  return out as unknown as MemoryCommand;
}

function checkField(name: string, field: string, kind: FieldKind, value: unknown): void {
  switch (kind) {
    case 'string':
    case 'optional string':
      if (typeof value !== 'string') throw invalid(`"${field}" of ${name} must be a string, got ${describe(value)}`);
      return;
    case 'integer':
      if (!Number.isSafeInteger(value)) {
        throw invalid(`"${field}" of ${name} must be an integer, got ${describe(value)}`);
      }
      return;
    case 'optional range':
      if (!Array.isArray(value) || value.length !== 2 || !value.every((n) => Number.isSafeInteger(n))) {
        throw invalid(
          `"${field}" of ${name} must be two integers [start, end] (end -1 = to the end), got ${describe(value)}`,
        );
      }
      return;
  }
}

function article(kind: FieldKind): string {
  return kind.endsWith('integer') ? 'an integer' : kind.endsWith('range') ? 'two integers' : 'a string';
}

function invalid(what: string): MemoryToolError {
  return new MemoryToolError('invalid_input', reply.invalidInput(what));
}

/** A short, safe description of a value for an error: its JSON (cut) or its type. */
function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') return `a ${typeof value}`;
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  if (json === undefined) return typeof value === 'object' ? 'an object that cannot be shown' : `a ${typeof value}`;
  // JSON leaves tag characters and bidi controls as they are.
  return showText(json, 80);
}
