// The scenario of test/e2e/workers.test.ts: the whole public API, run wherever it is imported (a page, a dedicated,
// shared or service worker, an extension's background worker) on the library entry that script chose, and answered
// as plain data the test can compare across contexts. Nothing here imports the library at run time: each script
// passes in its own entry, so a service worker built on the main entry really runs the main entry.

import type * as Library from '../../../src/index.js';
import type { MemoryChange, MemoryChangeEvent, MemoryToolResult } from '../../../src/index.js';

export type Lib = Pick<typeof Library, 'IndexedDBMemoryTool' | 'isMemoryToolError'>;

/** What one call gave: its value, or what it threw (with the error's cause, e.g. the refused `import()`). */
export type Step<T> =
  | { ok: true; value: T }
  | { ok: false; error: { name: string; code?: string; message: string; cause?: string } };

export interface ScenarioResult {
  /** The global scope's class: where this ran. */
  scope: string;
  /** The scripts this global fetched, by file name (Resource Timing), at the end: a part loaded by `import()` is one. */
  loaded: string[];
  commands: MemoryToolResult[];
  list: Step<Array<{ path: string; kind: string; hidden: boolean; size: number }>>;
  read: Step<string>;
  history: Step<Array<{ id: number; actor: string; command: string; paths: string[]; undoable: boolean; undone: boolean }>>;
  change: Step<{ id: number; command: string; files: Array<{ path: string; before: string | null; after: string | null }>; moves: Array<{ from: string; to: string }> } | undefined>;
  undo: Step<{ id: number; command: string; paths: string[]; undoOf?: number }>;
  /** The deleted file, back after the undo. */
  readUndone: Step<string>;
  exported: Step<{ files: Array<{ path: string; content: string; sha256: string }>; folders: string[]; exportedAt: string }>;
  imported: Step<{ added: number; addedPaths: string[]; folderPaths: string[] }>;
  /** What the second database holds after the import. */
  importedList: Step<string[]>;
  expired: Step<string[]>;
  /** Every event the tool's own subscriber heard, in order. */
  events: Array<{ source: string; changes: MemoryChange[] }>;
  /** A command after `close()`. */
  afterClose: MemoryToolResult;
}

/** A request from the page; the answer goes back on the port that came with it. */
export type WorkerRequest =
  | { type: 'scenario'; dbName: string; importDbName: string }
  /** Subscribe to `dbName`, answer `listening`, then `heard` with the first change made elsewhere. */
  | { type: 'listen'; dbName: string };

export type WorkerAnswer =
  | { type: 'scenario'; result: ScenarioResult }
  | { type: 'listening' }
  | { type: 'heard'; event: MemoryChangeEvent }
  | { type: 'failed'; error: string };

export const EXPORTED_AT = '2026-01-02T03:04:05.678Z';

/** A bundle of one empty folder, imported where no export could be made (the main entry in a service worker). */
const SMALL_BUNDLE = JSON.stringify({ format: 'claude-memory-bundle', version: 1, exportedAt: EXPORTED_AT, files: [], folders: ['/memories/x'] });

async function step<T>(lib: Lib, call: () => Promise<T>): Promise<Step<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    const cause = error instanceof Error && error.cause !== undefined ? String(error.cause) : undefined;
    return {
      ok: false,
      error: {
        name: error instanceof Error ? error.name : typeof error,
        ...(lib.isMemoryToolError(error) ? { code: error.code } : {}),
        message: error instanceof Error ? error.message : String(error),
        ...(cause === undefined ? {} : { cause }),
      },
    };
  }
}

/** The six commands through `run`, then every app method, on `dbName` (and `importDbName` for the import). */
export async function runScenario(lib: Lib, dbName: string, importDbName: string): Promise<ScenarioResult> {
  const tool = await lib.IndexedDBMemoryTool.init({ dbName });
  const events: ScenarioResult['events'] = [];
  const stop = tool.subscribe((event) => events.push({ source: event.source, changes: event.changes }));
  const commands: MemoryToolResult[] = [];
  for (const input of [
    { command: 'create', path: '/memories/notes/todo.md', file_text: '- ship it\n' },
    { command: 'create', path: '/memories/notes/later.md', file_text: '- someday\n' },
    { command: 'view', path: '/memories' },
    { command: 'str_replace', path: '/memories/notes/todo.md', old_str: 'ship it', new_str: 'ship it today' },
    { command: 'insert', path: '/memories/notes/todo.md', insert_line: 1, insert_text: '- test it\n' },
    { command: 'view', path: '/memories/notes/todo.md' },
    { command: 'rename', old_path: '/memories/notes/later.md', new_path: '/memories/archive/later.md' },
    { command: 'delete', path: '/memories/archive/later.md' },
    { command: 'view', path: '/memories/missing.md' },
  ]) {
    commands.push(await tool.run(input));
  }

  const list = await step(lib, async () =>
    (await tool.list('/memories')).map(({ path, kind, hidden, size }) => ({ path, kind, hidden, size })),
  );
  const read = await step(lib, () => tool.read('/memories/notes/todo.md'));
  const history = await step(lib, async () =>
    (await tool.history({ limit: 20 })).map(({ id, actor, command, paths, undoable, undone }) => ({ id, actor, command, paths, undoable, undone })),
  );
  const latest = history.ok ? history.value[0]?.id ?? 0 : 1;
  const change = await step(lib, async () => {
    const detail = await tool.change(latest);
    return detail && { id: detail.id, command: detail.command, files: detail.files, moves: detail.moves };
  });
  const undo = await step(lib, async () => {
    const { id, command, paths, undoOf } = await tool.undo();
    return { id, command, paths, ...(undoOf === undefined ? {} : { undoOf }) };
  });
  const readUndone = await step(lib, () => tool.read('/memories/archive/later.md'));

  let bundleText = SMALL_BUNDLE;
  const exported = await step(lib, async () => {
    bundleText = await (await tool.exportBundle({ exportedAt: new Date(EXPORTED_AT) })).text();
    const bundle = JSON.parse(bundleText) as { files: Array<{ path: string; content: string; sha256: string }>; folders: string[]; exportedAt: string };
    return {
      files: bundle.files.map(({ path, content, sha256 }) => ({ path, content, sha256 })),
      folders: bundle.folders,
      exportedAt: bundle.exportedAt,
    };
  });
  const second = await lib.IndexedDBMemoryTool.init({ dbName: importDbName });
  const imported = await step(lib, async () => {
    const { added, addedPaths, folderPaths } = await second.importBundle(bundleText);
    return { added, addedPaths, folderPaths };
  });
  const importedList = await step(lib, async () => (await second.list()).map((entry) => entry.path));
  second.close();

  // Once the clock has passed the last write, an age of 0: every file was last used before now.
  const lastUse = Date.now();
  while (Date.now() <= lastUse) await new Promise((done) => setTimeout(done, 1));
  const expired = await step(lib, async () => (await tool.expire({ olderThan: 0 })).deleted);

  stop();
  tool.close();
  const afterClose = await tool.run({ command: 'view', path: '/memories' });
  return {
    scope: Object.getPrototypeOf(globalThis).constructor.name as string,
    loaded: performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name).pathname.split('/').pop() ?? '')
      .filter((name) => name.endsWith('.js')),
    commands,
    list,
    read,
    history,
    change,
    undo,
    readUndone,
    exported,
    imported,
    importedList,
    expired,
    events,
    afterClose,
  };
}

/** Answers one request on `port`; resolves when it has answered all it will (a service worker waits for that). */
export async function answer(lib: Lib, request: WorkerRequest, port: MessagePort): Promise<void> {
  const send = (message: WorkerAnswer): void => port.postMessage(message);
  try {
    if (request.type === 'scenario') {
      send({ type: 'scenario', result: await runScenario(lib, request.dbName, request.importDbName) });
      return;
    }
    const tool = await lib.IndexedDBMemoryTool.init({ dbName: request.dbName });
    await new Promise<void>((done) => {
      const stop = tool.subscribe((event) => {
        if (event.source !== 'remote') return;
        stop();
        tool.close();
        send({ type: 'heard', event });
        done();
      });
      send({ type: 'listening' });
    });
  } catch (error) {
    send({ type: 'failed', error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  }
}
