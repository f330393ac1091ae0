// The Sync rows in the page: a memory mounted on a remote that Node started (sync-bench.ts), one step per call —
// open, change files, one timed `syncNow()` — so that Node can read its server's log around each pass.

import Anthropic from '@anthropic-ai/sdk';
import { IndexedDBMemoryTool } from '../../src/index.js';
import { createMemorySync, memoryStoreRemote, webdavRemote } from '../../src/entries/sync.js';
import type { MemorySync, SyncRemote } from '../../src/entries/sync.js';
import { deleteDatabase } from './raw.js';
import type { FetchSeen, RemoteSpec, SyncAnswer, SyncStep } from './sync-fixtures.js';

interface Mounted {
  tool: IndexedDBMemoryTool;
  sync: MemorySync;
  dbName: string;
  /** What the WebDAV remote's counting fetch saw since the last pass. */
  fetches: FetchSeen[];
}

let mounted: Mounted | undefined;

/** A fetch that notes each request's method, path and Depth before sending it. */
function countingFetch(seen: FetchSeen[]): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const depth = new Headers(init?.headers).get('Depth');
    seen.push({ method: init?.method ?? 'GET', path: decodeURIComponent(url.pathname), ...(depth === null ? {} : { depth }) });
    return fetch(input, init);
  };
}

function remoteOf(spec: RemoteSpec, seen: FetchSeen[]): SyncRemote {
  if (spec.kind === 'webdav') {
    return webdavRemote({ url: spec.url, username: spec.username, password: spec.password, fetch: countingFetch(seen) });
  }
  // The SDK's own retries off, as the remote asks of every call anyway.
  const client = new Anthropic({ apiKey: 'bench', baseURL: spec.baseURL, dangerouslyAllowBrowser: true, maxRetries: 0 });
  return memoryStoreRemote({ client, storeId: spec.storeId });
}

/** The first pull's floor: every URL fetched and read as text, `concurrency` at once; the time it took (ms). */
async function fetchAll(urls: readonly string[], headers: Record<string, string>, concurrency: number): Promise<number> {
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let url = urls[next++]; url !== undefined; url = urls[next++]) {
      const response = await fetch(url, { headers });
      await response.text();
      if (!response.ok) throw new Error(`bench sync: GET ${url} answered ${response.status}`);
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return performance.now() - start;
}

async function close(): Promise<void> {
  const current = mounted;
  mounted = undefined;
  if (!current) return;
  current.sync.close();
  current.tool.close();
  // The library closes its connection asynchronously; give it a moment before deleting.
  await new Promise((resolve) => setTimeout(resolve, 50));
  await deleteDatabase(current.dbName);
}

const ready = (): Mounted => {
  if (!mounted) throw new Error('bench sync: open a memory first');
  return mounted;
};

/** Carries out one step (see {@link SyncAnswer}). */
export async function runSync(step: SyncStep): Promise<SyncAnswer> {
  if (step.action === 'open') {
    await close();
    await deleteDatabase(step.dbName);
    const tool = await IndexedDBMemoryTool.init({ dbName: step.dbName });
    const fetches: FetchSeen[] = [];
    const remote = remoteOf(step.remote, fetches);
    const sync = createMemorySync(tool, { remote, interval: null });
    mounted = { tool, sync, dbName: step.dbName, fetches };
    return { concurrency: remote.concurrency };
  }
  if (step.action === 'change') {
    const { tool } = ready();
    for (const path of step.paths) {
      await tool.insert({ command: 'insert', path: `/memories${path}`, insert_line: 0, insert_text: `edited ${Date.now()}` });
    }
    return {};
  }
  if (step.action === 'close') {
    await close();
    return {};
  }
  if (step.action === 'fetch') return { fetchMs: await fetchAll(step.urls, step.headers, step.concurrency) };
  const { sync, fetches } = ready();
  fetches.length = 0;
  const usage = async (): Promise<number | undefined> =>
    step.storage ? (await navigator.storage?.estimate?.().catch(() => undefined))?.usage : undefined;
  const before = await usage();
  const start = performance.now();
  const report = await sync.syncNow();
  const ms = performance.now() - start;
  const after = await usage();
  const pass = {
    ms,
    pulled: report.pulled.length,
    pushed: report.pushed,
    deleted: report.deleted.length,
    conflicts: report.conflicts.length,
    skipped: report.skipped.length,
    held: report.held.length,
    fetches: fetches.splice(0),
    ...(before !== undefined && after !== undefined ? { storage: { before, after } } : {}),
  };
  return { pass };
}
