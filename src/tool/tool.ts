// IndexedDBMemoryTool: checks each call's input and hands it to the unit that owns it (./README.md).

import type { ExportBundleOptions, ImportBundleOptions, ImportReport } from '../bundle/format.js';
import { view } from '../commands/view.js';
import type { MemoryChangeListener } from '../core/change-events.js';
import type { CreateCommand, DeleteCommand, InsertCommand, MemoryCommand } from '../core/command-input.js';
import { type RenameCommand, type StrReplaceCommand, type ViewCommand, parseMemoryCommand } from '../core/command-input.js';
import type { ResolvedLimits } from '../core/limits.js';
import { checkOptionKeys } from '../core/option-keys.js';
import { normalizeMemoryPath } from '../core/paths.js';
import { ERROR_PREFIX } from '../core/replies.js';
import type { ChangeDetail, HistoryEntry, HistoryOptions } from '../history/read-history.js';
import type { SearchOptions, SearchResult } from '../search/types.js';
import { searchToolOf } from './search-offer.js';
import { type MemoryStore, READ_STORES } from '../storage/store.js';
import { toMemoryError } from '../storage/store-errors.js';
import type { MemoryEntry, MemoryList } from '../storage/tree-reads.js';
import { registerInternals } from './internals.js';
import { type WritePart, parts, preloadParts } from './lazy-parts.js';
import type { ActorOptions, ClearHistoryReport, CompactReport, ExpireOptions, ExpireReport } from './options.js';
import type { ForgetReport, IndexedDBMemoryToolOptions, ListOptions, MemoryToolResult } from './options.js';
import { DEFAULT_DB_NAME, type RunOptions, type WipeOptions, type WipeReport, type WriteOptions } from './options.js';
import type { BundleInput } from './import-action.js';
import { type CommandContext, type ToolUnits, checkInitOptions, openWithWritePath, toolInternals, toolUnits } from './tool-units.js';
import type { ApproveHook } from './approval.js';
import type { BlameLine } from './blame-action.js';

/**
 * Claude's memory tool (`memory_20250818`) with the `/memories` tree kept in IndexedDB.
 * @example
 * const tool = await IndexedDBMemoryTool.init({ dbName: 'my-app-memory' });
 * await client.beta.messages.toolRunner({ model, max_tokens, messages, tools: [memoryTool(tool)] });
 */
// It is the SDK's `MemoryToolHandlers` without naming it, so its types need no SDK (test/adapters/sdk-runnable.test.ts).
export class IndexedDBMemoryTool {
  /** The IndexedDB database this tool reads and writes. */
  readonly dbName: string;
  /** The limits in force: the defaults overlaid with those passed to `init`. */
  readonly limits: Readonly<ResolvedLimits>;
  readonly #store: MemoryStore;
  /** The units it hands calls to (./tool-units.ts). */
  readonly #u: ToolUnits;
  readonly #approve: ApproveHook | undefined;

  private constructor(store: MemoryStore, options: IndexedDBMemoryToolOptions, writing: WritePart) {
    this.#u = toolUnits(store, options, writing);
    this.#store = store;
    this.#approve = options.approve;
    this.dbName = store.dbName;
    this.limits = this.#u.limits;
    registerInternals(this, toolInternals(store, this.#u, (task) => this.#inTurn(task)));
  }

  /** Opens (creating or upgrading) the database and returns a ready tool. */
  static async init(options: IndexedDBMemoryToolOptions = {}): Promise<IndexedDBMemoryTool> {
    // Bad options (an unknown key too) are refused before the database is opened.
    await checkInitOptions(options);
    // Loaded now, not at the first write: a page that reviews Claude's writes keeps working offline.
    if (options.approve) await parts.approval();
    const { store, writing } = await openWithWritePath(options.dbName ?? DEFAULT_DB_NAME);
    return new IndexedDBMemoryTool(store, options, writing);
  }

  /** Fetches the parts loaded on first use now, for an app that must work offline later; call it while online. */
  static async preload(): Promise<void> {
    await preloadParts();
  }

  /** Closes the connection and stops the listeners; a write under way still commits, and other tabs hear of it. */
  close(): void {
    this.#u.hub.close();
    this.#store.close();
  }

  /** Calls `listener` after each committed change, here (`'local'`) or elsewhere (`'remote'`); returns unsubscribe. */
  subscribe(listener: MemoryChangeListener): () => void {
    return this.#u.hub.subscribe(listener);
  }

  /** Shows a folder two levels deep or a file with line numbers. */
  async view(command: ViewCommand): Promise<string> {
    const checked = parse(command, 'view');
    const max = this.limits.maxReplyChars;
    const search = searchToolOf(this);
    return this.#u.order.enter(() =>
      this.#store.run(
        'readonly',
        (tx) => view(tx, checked, max, (entry) => this.#u.access.saw(entry), this.#u.ahead, search),
        READ_STORES,
      ),
    );
  }

  /** Writes a file, making its parent folders. */
  async create(command: CreateCommand): Promise<string> {
    return this.execute(parse(command, 'create'));
  }

  /** Replaces the one occurrence of `old_str`; refuses none or several. */
  async str_replace(command: StrReplaceCommand): Promise<string> {
    return this.execute(parse(command, 'str_replace'));
  }

  /** Inserts text after line `insert_line` (0 = before the first line). */
  async insert(command: InsertCommand): Promise<string> {
    return this.execute(parse(command, 'insert'));
  }

  /** Deletes a file, or a folder with everything in it. */
  async delete(command: DeleteCommand): Promise<string> {
    return this.execute(parse(command, 'delete'));
  }

  /** Moves a file or folder; the new parent folders are made. */
  async rename(command: RenameCommand): Promise<string> {
    return this.execute(parse(command, 'rename'));
  }

  /** Runs a raw `tool_use.input`, never throwing: the reply as the SDK runner words it, and whether it is an error. */
  async run(input: unknown, options: RunOptions = {}): Promise<MemoryToolResult> {
    try {
      return { content: await this.execute(parseMemoryCommand(input), options), is_error: false };
    } catch (error) {
      const failure = toMemoryError(error);
      return { content: ERROR_PREFIX + failure.message, is_error: true, code: failure.code };
    }
  }

  /** Runs a validated command; throws a MemoryToolError on refusal. */
  async execute(command: MemoryCommand, options: RunOptions = {}): Promise<string> {
    return this.#execute(command, options, this.#u.context);
  }

  #execute(command: MemoryCommand, options: RunOptions, context: CommandContext): Promise<string> {
    const actor = options.actor ?? 'claude';
    if (command.command === 'view') return this.view(command);
    const source = options.source?.slice(0, 256);
    const run = this.#u.writes.command.bind(this.#u.writes, actor, command.command, context);
    const body: Parameters<typeof run>[0] = (tx, ctx) => this.#u.writing.runWrite(tx, command, ctx);
    if (!this.#approve || actor !== 'claude') return run(body, source);
    // The approval part is loaded by init() when `approve` is set, so this wait is one tick (./README.md, "Approval").
    const asking = { approve: this.#approve, actor, source, signal: options.signal };
    return parts.approval().then((part) => part.approvedWrite((b) => run(b, source), command, body, asking));
  }

  /**
   * Writes `text` to the file at `path` as the app (actor `user` unless `options.actor`), making or overwriting it
   * (also under `overwrite: false`), with `create`'s checks, limits and guards; a refusal throws a MemoryToolError.
   */
  async write(path: string, text: string, options: WriteOptions = {}): Promise<string> {
    const refused = checkOptionKeys(options, ['actor', 'source', 'signal']);
    if (refused) return refused;
    options.signal?.throwIfAborted();
    const command = parseMemoryCommand({ command: 'create', path, file_text: text });
    const context = { ...this.#u.context, overwrite: true };
    return this.#execute(command, { ...options, actor: options.actor ?? 'user' }, context);
  }

  /** Each line of the file at `path` with the history entry of the change that wrote it (./README.md, "Blame"). */
  async blame(path: string): Promise<BlameLine[]> {
    const key = normalizeMemoryPath(path);
    return this.#inTurn(async () => (await parts.blame()).blame(this.#store, key, path));
  }

  /**
   * The entries below `path` (default all, hidden ones too), sorted by path, for an app's tree view; not an access.
   * `depth` 1 lists the folder's own children; `limit` caps the count, and the list's `truncated` says it cut it.
   */
  async list(path?: string, options: ListOptions = {}): Promise<MemoryList> {
    return this.#inTurn(async () => {
      const { listEntries, listBounds } = await parts.treeReads();
      const bounds = await listBounds(options);
      return this.#store.run('readonly', (tx) => listEntries(tx, path, bounds), READ_STORES);
    });
  }

  /**
   * Finds files by their words: ranked hits with their matching lines, numbered as `view` numbers them. Case and
   * accents do not matter, `"a phrase"` matches its words in order, and a bad query is refused (`invalid_input`).
   * @example const { hits, total } = await tool.search('green tea', { path: '/memories/prefs', limit: 5 });
   */
  async search(query: string, options: SearchOptions = {}): Promise<SearchResult> {
    return this.#inTurn(async () => (await parts.search()).search(this.#store, query, options));
  }

  /** The entry at `path` alone (`not_found` if none), as `list()` of the whole memory gives it; not an access. */
  async stat(path: string): Promise<MemoryEntry> {
    return this.#inTurn(async () => {
      const { statEntry } = await parts.treeReads();
      return this.#store.run('readonly', (tx) => statEntry(tx, path), READ_STORES);
    });
  }

  /** The raw text of a file (no line numbers), for an app's own viewer. Not an access by Claude. */
  async read(path: string): Promise<string> {
    return this.#inTurn(async () => {
      const { readFile } = await parts.treeReads();
      return this.#store.run('readonly', (tx) => readFile(tx, path), READ_STORES);
    });
  }

  /** The journaled changes, newest first; a page older than `before` (the last id of the page before). */
  async history(options: HistoryOptions = {}): Promise<HistoryEntry[]> {
    return this.#inTurn(async () => {
      const { readHistory } = await parts.history();
      return this.#store.run('readonly', (tx) => readHistory(tx, options));
    });
  }

  /** One change with each file's text before and after it (for a diff), or undefined once dropped. */
  async change(id: number): Promise<ChangeDetail | undefined> {
    return this.#inTurn(async () => {
      const { readChange } = await parts.history();
      return this.#store.run('readonly', (tx) => readChange(tx, id));
    });
  }

  /** Reverses change `id` (default the latest not undone) if it applies cleanly; journaled, so it can be undone too. */
  async undo(id?: number, options: ActorOptions = {}): Promise<HistoryEntry> {
    return this.#inTurn(async () => (await parts.undo()).undo(this.#u.actions, id, options));
  }

  /**
   * Deletes the files not read or written since `olderThan`: a Date not in the future, or an age in ms (0 or more);
   * anything else is a TypeError and deletes nothing. Journaled (actor `expire` unless told), so undoable. An abort
   * of `signal` before it commits deletes nothing and rejects with an `AbortError`.
   */
  async expire(options: ExpireOptions): Promise<ExpireReport> {
    const now = Date.now();
    return this.#inTurn(async () => (await parts.expire()).expire(this.#u.actions, options, now));
  }

  /**
   * Erases `path` for good: the file or folder, if it is there, and every copy of its contents the history holds
   * (under the names it had before a rename, and versions made from it since), in one transaction. It cannot be
   * undone, and history entries that also held other changes keep those but can no longer be undone. Other tabs hear
   * a `forget` change (after a `delete` of the path if it was there). A refused path changes nothing.
   */
  async forget(path: string): Promise<ForgetReport> {
    const key = normalizeMemoryPath(path);
    return this.#inTurn(async () => (await parts.forget()).forget(this.#u.actions, key));
  }

  /**
   * Empties the history for good, in one transaction: every change and the old contents it kept; the files stay as
   * they are. It cannot be undone. Other tabs hear a `history-cleared` change. `history: false` only stops recording;
   * this is how to drop what was recorded (also by another tool on the database).
   */
  async clearHistory(): Promise<ClearHistoryReport> {
    return this.#inTurn(async () => (await parts.forget()).clearHistory(this.#u.actions));
  }

  /**
   * Erases the whole memory for good, in one transaction: every file, folder, history entry and search index row.
   * Other tabs hear a `delete` and a `forget` of `/memories`. Under a sync mount the next pass pulls the remote's
   * files back; with `remote: true` it deletes them there instead. An abort before it commits erases nothing.
   */
  async wipe(options: WipeOptions = {}): Promise<WipeReport> {
    options.signal?.throwIfAborted();
    return this.#inTurn(async () => (await parts.forget()).wipe(this.#u.actions, options));
  }

  /**
   * Moves the memory to a fresh database and deletes the old one, so that what `forget()` and `clearHistory()`
   * erased (and every other delete) leaves the browser's files on disk too: IndexedDB engines keep deleted records
   * in their logs and free pages until they happen to reuse them. Every file, history entry and sync baseline stays.
   * Other tabs step aside for it and reconnect; a page closed part-way loses nothing (the next open finishes it).
   */
  async compactStorage(): Promise<CompactReport> {
    return this.#inTurn(async () => {
      await this.#u.access.flush();
      return (await parts.compact()).compactStorage(this.dbName);
    });
  }

  /** Writes pending access times now (they are otherwise written shortly after the views). */
  async flushAccess(): Promise<void> {
    await this.#u.access.flush();
  }

  /** The memory (or the subtree `options.path`) as a `claude-memory-bundle` JSON file. */
  async exportBundle(options: ExportBundleOptions = {}): Promise<Blob> {
    return this.#inTurn(async () => (await parts.bundle()).exportBundle(this.#store, options));
  }

  /** Checks a bundle (a Blob, text or bytes) whole, then applies it in one transaction, one undoable change. */
  async importBundle(input: BundleInput, options: ImportBundleOptions = {}): Promise<ImportReport> {
    return this.#inTurn(() => this.#u.writing.importBundleAction(this.#u.actions, this.#u.context, input, options, parts.bundle));
  }

  /** Runs `task` in its turn: after the calls made before it, with those made after it waiting for it. */
  #inTurn<T>(task: () => Promise<T>): Promise<T> {
    return this.#u.order.enter(task, () => true);
  }
}

/** Handlers are public API, so each checks its input; a wrong `command` field is fixed to the handler's own. */
function parse<C extends MemoryCommand>(command: C, name: C['command']): C {
  return parseMemoryCommand({ ...(command as object), command: name }) as C;
}
