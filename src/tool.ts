// IndexedDBMemoryTool: the SDK's MemoryToolHandlers on an IndexedDB store. It validates input, runs each
// command as exactly one transaction (commands.ts) and answers with the official reply strings.
// It never touches the DOM and never logs.

import type { MemoryToolHandlers } from '@anthropic-ai/sdk/helpers/beta/memory';
import type {
  BetaMemoryTool20250818CreateCommand,
  BetaMemoryTool20250818DeleteCommand,
  BetaMemoryTool20250818InsertCommand,
  BetaMemoryTool20250818RenameCommand,
  BetaMemoryTool20250818StrReplaceCommand,
  BetaMemoryTool20250818ViewCommand,
} from '@anthropic-ai/sdk/resources/beta';
import * as bundles from './bundle.js';
import type { ExportBundleOptions, ImportBundleOptions, ImportReport } from './bundle.js';
import * as commands from './commands.js';
import type { WriteContext, WriteResult } from './commands.js';
import { ChangeHub } from './events.js';
import type { MemoryChangeListener } from './events.js';
import type { MemoryCommand } from './input.js';
import { parseMemoryCommand } from './input.js';
import type { MemoryLimits, ResolvedLimits } from './limits.js';
import { resolveLimits } from './limits.js';
import type { MemoryTx } from './store.js';
import { MemoryStore, toMemoryError } from './store.js';

export interface IndexedDBMemoryToolOptions {
  /** IndexedDB database name. Default `"claude-memory"`; use one per user or per app to keep memories apart. */
  dbName?: string;
  /** `create` on an existing file overwrites it (default `true`) or refuses with `File … already exists`. */
  overwrite?: boolean;
  /** Caps checked before anything is written; see {@link MemoryLimits}. */
  limits?: MemoryLimits;
}

/** What {@link IndexedDBMemoryTool.run} answers: the `tool_result` content and whether it is an error. */
export interface MemoryToolResult {
  content: string;
  is_error: boolean;
}

export const DEFAULT_DB_NAME = 'claude-memory';

/**
 * Claude's memory tool (`memory_20250818`) with the `/memories` tree kept in IndexedDB.
 *
 * @example
 * const tool = await IndexedDBMemoryTool.init({ dbName: 'my-app-memory' });
 * await client.beta.messages.toolRunner({ model, max_tokens, messages, tools: [memoryTool(tool)] });
 */
export class IndexedDBMemoryTool implements MemoryToolHandlers {
  readonly dbName: string;
  readonly limits: Readonly<ResolvedLimits>;
  readonly #store: MemoryStore;
  readonly #overwrite: boolean;
  readonly #hub: ChangeHub;

  private constructor(store: MemoryStore, options: IndexedDBMemoryToolOptions) {
    this.#store = store;
    this.dbName = store.dbName;
    this.#overwrite = options.overwrite ?? true;
    this.limits = Object.freeze(resolveLimits(options.limits));
    this.#hub = new ChangeHub(store.dbName);
  }

  /** Opens (creating or upgrading) the database and returns a ready tool. */
  static async init(options: IndexedDBMemoryToolOptions = {}): Promise<IndexedDBMemoryTool> {
    resolveLimits(options.limits);
    const store = await MemoryStore.open(options.dbName ?? DEFAULT_DB_NAME);
    return new IndexedDBMemoryTool(store, options);
  }

  /** Closes the database connection. Commands after this fail with a `storage` error. */
  close(): void {
    this.#hub.close();
    this.#store.close();
  }

  /**
   * Calls `listener` after each committed change, made by this tool (`source: 'local'`) or by another tab,
   * worker or tool on the same database (`'remote'`, via BroadcastChannel). Returns the unsubscribe function.
   */
  subscribe(listener: MemoryChangeListener): () => void {
    return this.#hub.subscribe(listener);
  }

  /** Shows a folder two levels deep or a file with line numbers. */
  async view(command: BetaMemoryTool20250818ViewCommand): Promise<string> {
    const checked = parse(command, 'view');
    return this.#store.run('readonly', (tx) => commands.view(tx, checked));
  }

  /** Writes a file, making its parent folders. */
  async create(command: BetaMemoryTool20250818CreateCommand): Promise<string> {
    const checked = parse(command, 'create');
    return this.#write((tx, ctx) => commands.create(tx, checked, ctx));
  }

  /** Replaces the one occurrence of `old_str`; refuses none or several. */
  async str_replace(command: BetaMemoryTool20250818StrReplaceCommand): Promise<string> {
    const checked = parse(command, 'str_replace');
    return this.#write((tx, ctx) => commands.strReplace(tx, checked, ctx));
  }

  /** Inserts text after line `insert_line` (0 = before the first line). */
  async insert(command: BetaMemoryTool20250818InsertCommand): Promise<string> {
    const checked = parse(command, 'insert');
    return this.#write((tx, ctx) => commands.insert(tx, checked, ctx));
  }

  /** Deletes a file, or a folder with everything in it. */
  async delete(command: BetaMemoryTool20250818DeleteCommand): Promise<string> {
    const checked = parse(command, 'delete');
    return this.#write((tx) => commands.remove(tx, checked));
  }

  /** Moves a file or folder; the new parent folders are made. */
  async rename(command: BetaMemoryTool20250818RenameCommand): Promise<string> {
    const checked = parse(command, 'rename');
    return this.#write((tx, ctx) => commands.rename(tx, checked, ctx));
  }

  /**
   * Runs a raw `tool_use.input` and never throws: the reply Claude should read and whether it is an
   * error, worded as the SDK runner words it (`Error: …`). For your own loop or another SDK.
   */
  async run(input: unknown): Promise<MemoryToolResult> {
    try {
      return { content: await this.execute(parseMemoryCommand(input)), is_error: false };
    } catch (error) {
      return { content: `Error: ${toMemoryError(error).message}`, is_error: true };
    }
  }

  /** Runs a validated command; throws a MemoryToolError on refusal. */
  execute(command: MemoryCommand): Promise<string> {
    switch (command.command) {
      case 'view':
        return this.view(command);
      case 'create':
        return this.create(command);
      case 'str_replace':
        return this.str_replace(command);
      case 'insert':
        return this.insert(command);
      case 'delete':
        return this.delete(command);
      case 'rename':
        return this.rename(command);
    }
  }

  /** The memory (or the subtree `options.path`) as a `claude-memory-bundle` JSON file. */
  exportBundle(options: ExportBundleOptions = {}): Promise<Blob> {
    return bundles.exportBundle(this.#store, options);
  }

  /** Checks a bundle whole, then applies it in one transaction (or only reports, with `dryRun`). */
  importBundle(input: Blob | string, options: ImportBundleOptions = {}): Promise<ImportReport> {
    return bundles.importBundle(this.#store, this.limits, input, options);
  }

  async #write(body: (tx: MemoryTx<'readwrite'>, ctx: WriteContext) => Promise<WriteResult>): Promise<string> {
    const ctx: WriteContext = { limits: this.limits, overwrite: this.#overwrite, now: Date.now() };
    const result = await this.#store.run('readwrite', (tx) => body(tx, ctx));
    this.#hub.publish(result.changes);
    return result.reply;
  }
}

/**
 * Handlers are public API: a caller may pass anything, so each one checks its input like the runnable tool
 * does. A wrong `command` field is fixed to the handler's own, as the SDK dispatches by it.
 */
function parse<C extends MemoryCommand>(command: C, name: C['command']): C {
  return parseMemoryCommand({ ...(command as object), command: name }) as C;
}
