// The test page of test/e2e/erase-on-disk.test.ts and atomic-history.test.ts: one IndexedDBMemoryTool, driven through
// `window.erase` with evaluate. It imports only the public API and draws nothing; raw IndexedDB only reads behind it.

import { BUNDLE_FORMAT, BUNDLE_VERSION, IndexedDBMemoryTool, isMemoryToolError } from '../../../src/index.js';
import type { BundleFile, CompactReport, MemoryBundle, MemoryToolResult } from '../../../src/index.js';

/** Every store's records, as JSON, read behind the tool. */
export type RawDump = Record<string, Array<[unknown, unknown]>>;

export interface EraseApi {
  open(dbName: string): Promise<void>;
  run(input: unknown): Promise<MemoryToolResult>;
  /** `count` files of `size` bytes below `folder`, imported in one change. */
  fill(folder: string, count: number, size: number): Promise<void>;
  /** Starts `undo`, `expire` (everything) or `forget` of `path` without waiting: the page may close part-way. */
  start(action: 'undo' | 'expire' | 'forget', path: string): void;
  /** How the started action ended, once it has. */
  started(): string | undefined;
  undo(): Promise<string>;
  expire(ageMs: number): Promise<string>;
  forget(path: string): Promise<string>;
  clearHistory(): Promise<number>;
  compact(): Promise<CompactReport>;
  read(path: string): Promise<string>;
  dump(dbName: string): Promise<RawDump>;
}

let tool: IndexedDBMemoryTool | undefined;
let startedOutcome: string | undefined;

function current(): IndexedDBMemoryTool {
  if (!tool) throw new Error('erase.open() first');
  return tool;
}

const outcome = (done: Promise<unknown>): Promise<string> =>
  done.then(
    () => 'ok',
    (error: unknown) => (isMemoryToolError(error) ? error.code : String(error)),
  );

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function dump(dbName: string): Promise<RawDump> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(dbName);
    req.onerror = () => reject(req.error);
    req.onsuccess = () => {
      const db = req.result;
      const names = [...db.objectStoreNames];
      const tx = db.transaction(names, 'readonly');
      const out: RawDump = {};
      for (const name of names) {
        const keys = tx.objectStore(name).getAllKeys();
        const values = tx.objectStore(name).getAll();
        values.onsuccess = () => {
          out[name] = keys.result.map((key, i) => [key, values.result[i]]);
        };
      }
      tx.oncomplete = () => {
        db.close();
        resolve(out);
      };
      tx.onabort = () => reject(tx.error);
    };
  });
}

window.erase = {
  async open(dbName) {
    tool = await IndexedDBMemoryTool.init({ dbName });
  },
  run: (input) => current().run(input),
  async fill(folder, count, size) {
    const at = new Date('2025-01-01T00:00:00.000Z').toISOString();
    const files: BundleFile[] = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const content = `${String(i).padStart(5, '0')} `.repeat(Math.ceil(size / 6)).slice(0, size);
        return { path: `${folder}/f${String(i).padStart(5, '0')}.md`, content, createdAt: at, updatedAt: at, sha256: await sha256(content) };
      }),
    );
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const bundle: MemoryBundle = { format: BUNDLE_FORMAT, version: BUNDLE_VERSION, exportedAt: at, files, folders: [] };
    await current().importBundle(JSON.stringify(bundle));
  },
  start(action, path) {
    startedOutcome = undefined;
    const running =
      action === 'undo' ? current().undo() : action === 'expire' ? current().expire({ olderThan: 0 }) : current().forget(path);
    void outcome(running).then((done) => {
      startedOutcome = done;
    });
  },
  started: () => startedOutcome,
  undo: () => outcome(current().undo()),
  expire: (ageMs) => outcome(current().expire({ olderThan: ageMs })),
  forget: (path) => outcome(current().forget(path)),
  clearHistory: async () => (await current().clearHistory()).removedChanges,
  compact: () => current().compactStorage(),
  read: (path) => current().read(path).catch((error: unknown) => `missing: ${isMemoryToolError(error) ? error.code : String(error)}`),
  dump,
};

declare global {
  interface Window {
    erase: EraseApi;
  }
}

document.body.dataset.ready = 'true';
