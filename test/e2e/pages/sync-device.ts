// The page of test/e2e/sync.test.ts: one device (a browser profile) with its memory, synced with a remote the test
// names. Every call answers a plain result; a refusal comes back as `{ error }` with the MemoryToolError's fields, so
// the test's storm driver can tell a refused command from a failure.

import Anthropic from '@anthropic-ai/sdk';
import { IndexedDBMemoryTool, isMemoryToolError } from '../../../src/index.js';
import type { HistoryEntry, HistoryOptions, ChangeDetail } from '../../../src/index.js';
import { createMemorySync, memoryStoreRemote, webdavRemote } from '../../../src/entries/sync.js';
import type { MemorySync, SyncNowOptions, SyncReport, SyncStatus } from '../../../src/entries/sync.js';

export type RemoteConfig =
  | { kind: 'memory-store'; baseURL: string; storeId: string }
  | { kind: 'webdav'; url: string; username: string; password: string };

export type Answer<T> = { value: T } | { error: { name: string; code?: string; message: string; kind?: string } };

export interface SyncDevicePage {
  open(dbName: string, remote: RemoteConfig, interval: number | null): Promise<Answer<null>>;
  command(input: Record<string, unknown>): Promise<Answer<string>>;
  read(path: string): Promise<Answer<string>>;
  list(path: string): Promise<Answer<{ path: string; kind: 'file' | 'folder' }[]>>;
  files(): Promise<Answer<Record<string, string>>>;
  history(options: HistoryOptions): Promise<Answer<HistoryEntry[]>>;
  change(id: number): Promise<Answer<ChangeDetail | undefined>>;
  syncNow(options: SyncNowOptions): Promise<Answer<SyncReport>>;
  status(): SyncStatus | null;
  /** Every status the sync announced since the page opened. */
  statuses: SyncStatus[];
}

declare global {
  interface Window {
    syncDevice: SyncDevicePage;
  }
}

let tool: IndexedDBMemoryTool | undefined;
let sync: MemorySync | undefined;

async function answer<T>(work: () => Promise<T>): Promise<Answer<T>> {
  try {
    return { value: await work() };
  } catch (error) {
    const failure = error as { name?: string; code?: string; message?: string; kind?: string };
    const shown: { name: string; code?: string; message: string; kind?: string } = {
      name: failure.name ?? 'Error',
      message: failure.message ?? String(error),
    };
    if (isMemoryToolError(error)) shown.code = error.code;
    if (typeof failure.kind === 'string') shown.kind = failure.kind;
    return { error: shown };
  }
}

const ready = (): IndexedDBMemoryTool => {
  if (!tool) throw new Error('open() first');
  return tool;
};

window.syncDevice = {
  statuses: [],
  open: (dbName, config, interval) =>
    answer(async () => {
      tool = await IndexedDBMemoryTool.init({ dbName });
      const remote =
        config.kind === 'memory-store'
          ? memoryStoreRemote({
              client: new Anthropic({ apiKey: 'test', baseURL: config.baseURL, dangerouslyAllowBrowser: true, maxRetries: 0 }),
              storeId: config.storeId,
            })
          : webdavRemote({ url: config.url, username: config.username, password: config.password });
      sync = createMemorySync(tool, { remote, interval, debounce: 50 });
      sync.subscribe((status) => window.syncDevice.statuses.push(status));
      return null;
    }),
  command: (input) =>
    answer(() => {
      const name = String(input['command']);
      if (!['create', 'str_replace', 'insert', 'delete', 'rename', 'view'].includes(name)) throw new TypeError(name);
      return (ready()[name as 'create'] as (command: unknown) => Promise<string>).call(ready(), input);
    }),
  list: (path) => answer(async () => (await ready().list(path)).map((entry) => ({ path: entry.path, kind: entry.kind }))),
  read: (path) => answer(() => ready().read(path)),
  files: () =>
    answer(async () => {
      const out: Record<string, string> = {};
      for (const entry of await ready().list('/memories')) {
        if (entry.kind === 'file') out[entry.path.slice('/memories'.length)] = await ready().read(entry.path);
      }
      return out;
    }),
  history: (options) => answer(() => ready().history(options)),
  change: (id) => answer(() => ready().change(id)),
  syncNow: (options) =>
    answer(() => {
      if (!sync) throw new Error('open() first');
      return sync.syncNow(options);
    }),
  status: () => sync?.status() ?? null,
};
document.body.dataset.ready = 'true';
