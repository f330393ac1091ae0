// The test page of test/e2e/tabs.test.ts: one IndexedDBMemoryTool per tab, driven through `window.tabs`
// with page.evaluate. It imports only the public API (src/index.ts) and draws nothing; raw IndexedDB is used
// only to look behind the tool (counts, a foreign upgrade, a deletion).

import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  DB_VERSION,
  IndexedDBMemoryTool,
  isMemoryToolError,
} from '../../../src/index.js';
import type { BundleFile, MemoryBundle, MemoryChangeEvent, MemoryToolResult } from '../../../src/index.js';

/** A command's outcome with the error's `code`, which `run()` flattens into text. */
export type Outcome = { ok: true; content: string } | { ok: false; code: string; message: string };

/** What a raw open or delete of the database did, and how long it took. */
export interface RawRequestReport {
  outcome: 'success' | 'error' | 'timeout';
  /** Whether the browser fired `blocked` (another connection did not close in its `versionchange`). */
  blocked: boolean;
  ms: number;
  version?: number;
  error?: string;
}

/** The database as IndexedDB holds it, read behind the tool's back. */
export interface RawStats {
  exists: boolean;
  version: number;
  files: number;
  folders: number;
  bodies: number;
  journal: number;
  usage: { bytes: number; files: number } | null;
}

export interface TabsApi {
  dbVersion: number;
  open(dbName: string): Promise<void>;
  run(input: unknown): Promise<MemoryToolResult>;
  /** Every input at once (one Promise.all), starting at wall-clock `startAt` so two tabs start together. */
  runAll(inputs: unknown[], startAt?: number): Promise<MemoryToolResult[]>;
  /** `tool.execute`, bounded: `timeout` instead of hanging. */
  execute(input: unknown, timeoutMs: number): Promise<Outcome | { ok: false; code: 'timeout'; message: string }>;
  subscribe(): void;
  events(): MemoryChangeEvent[];
  /** What the first listener call of each event saw when it viewed the changed path at once. */
  seenAtEvent(): string[];
  undo(): Promise<Outcome>;
  buildBundle(count: number): Promise<{ bytes: number; ms: number }>;
  /** Starts importing the built bundle without waiting; progress goes to `window.reportProgress`. */
  startImport(): void;
  importResult(): string | undefined;
  exportedFileCount(): Promise<number>;
  /** One file's exact content, through `exportBundle({ path })`. */
  readFile(path: string): Promise<string>;
  /** Every file as `path → content`, through `exportBundle()`. */
  readAll(): Promise<Record<string, string>>;
  rawStats(dbName: string): Promise<RawStats>;
  /** `indexedDB.open(name, version)` from this tab, kept open until {@link closeRaw}. */
  openRaw(dbName: string, version: number, timeoutMs: number): Promise<RawRequestReport>;
  closeRaw(): void;
  deleteRaw(dbName: string, timeoutMs: number): Promise<RawRequestReport>;
}

declare global {
  interface Window {
    tabs: TabsApi;
    /** Exposed by the test with page.exposeBinding. */
    reportProgress?: (done: number, total: number) => Promise<void>;
  }
}

let tool: IndexedDBMemoryTool | undefined;
let bundle: string | undefined;
let importResult: string | undefined;
let raw: IDBDatabase | undefined;
const events: MemoryChangeEvent[] = [];
const seen: string[] = [];

function current(): IndexedDBMemoryTool {
  if (!tool) throw new Error('tabs.open() first');
  return tool;
}

function bounded<T, U>(promise: Promise<T>, ms: number, late: U): Promise<T | U> {
  return new Promise((done, fail) => {
    const timer = setTimeout(() => done(late), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        done(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        fail(error);
      },
    );
  });
}

async function outcome(work: () => Promise<unknown>): Promise<Outcome> {
  try {
    const value = await work();
    return { ok: true, content: typeof value === 'string' ? value : JSON.stringify(value) };
  } catch (error) {
    if (isMemoryToolError(error)) return { ok: false, code: error.code, message: error.message };
    return { ok: false, code: 'thrown', message: String(error) };
  }
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((done, fail) => {
    r.onsuccess = () => done(r.result);
    r.onerror = () => fail(r.error);
  });
}

async function rawStats(dbName: string): Promise<RawStats> {
  const none: RawStats = { exists: false, version: 0, files: 0, folders: 0, bodies: 0, journal: 0, usage: null };
  // Opening a database that does not exist would create it at version 1 with no stores: look first.
  const info = (await indexedDB.databases()).find((db) => db.name === dbName);
  if (!info) return none;
  const db = await request(indexedDB.open(dbName));
  db.onversionchange = () => db.close();
  try {
    const tx = db.transaction(['entries', 'bodies', 'journal'], 'readonly');
    const entries = await request(tx.objectStore('entries').getAll());
    // The library's totals: those the journal's last record carries ([seq, bytes, files, …], schema.ts).
    const newest = await request(tx.objectStore('journal').openCursor(null, 'prev'));
    const totals = (newest?.value as { totals?: number[] } | undefined)?.totals;
    const usage = totals ? { bytes: totals[1] ?? 0, files: totals[2] ?? 0 } : undefined;
    // Changes only: the hidden totals record is not one.
    const changes = ((await request(tx.objectStore('journal').getAll())) as { hidden?: boolean }[]).filter((record) => !record.hidden);
    return {
      exists: true,
      version: db.version,
      files: entries.filter((entry: { kind: string }) => entry.kind === 'file').length,
      folders: entries.filter((entry: { kind: string }) => entry.kind === 'folder').length,
      bodies: await request(tx.objectStore('bodies').count()),
      journal: changes.length,
      usage: usage ?? null,
    };
  } finally {
    db.close();
  }
}

function rawRequest(
  start: () => IDBOpenDBRequest,
  timeoutMs: number,
  keep: (db: IDBDatabase) => void,
): Promise<RawRequestReport> {
  const began = performance.now();
  return new Promise((done) => {
    let blocked = false;
    const finish = (report: Omit<RawRequestReport, 'blocked' | 'ms'>) => {
      clearTimeout(timer);
      done({ ...report, blocked, ms: Math.round(performance.now() - began) });
    };
    const timer = setTimeout(() => finish({ outcome: 'timeout' }), timeoutMs);
    const req = start();
    req.onblocked = () => {
      blocked = true;
    };
    req.onupgradeneeded = () => undefined;
    req.onsuccess = () => {
      const db = req.result as IDBDatabase | undefined;
      if (db) keep(db);
      finish({ outcome: 'success', ...(db ? { version: db.version } : {}) });
    };
    req.onerror = () => finish({ outcome: 'error', error: String(req.error) });
  });
}

function bundleFile(path: string, content: string, digest: string, at: string): BundleFile {
  return { path, content, createdAt: at, updatedAt: at, sha256: digest };
}

const api: TabsApi = {
  dbVersion: DB_VERSION,
  async open(dbName) {
    tool?.close();
    tool = await IndexedDBMemoryTool.init({ dbName });
  },
  run: (input) => current().run(input),
  async runAll(inputs, startAt) {
    const wait = startAt === undefined ? 0 : startAt - Date.now();
    if (wait > 0) await new Promise((done) => setTimeout(done, wait));
    const target = current();
    return Promise.all(inputs.map((input) => target.run(input)));
  },
  async execute(input, timeoutMs) {
    const late = { ok: false as const, code: 'timeout' as const, message: `no answer within ${timeoutMs} ms` };
    return bounded(
      outcome(() => current().execute(input as Parameters<IndexedDBMemoryTool['execute']>[0])),
      timeoutMs,
      late,
    );
  },
  subscribe() {
    const target = current();
    target.subscribe((event) => {
      events.push(event);
      const path = event.changes[0]?.path;
      if (path === undefined) return;
      // Viewed at once: a listener must only hear of changes that have committed.
      void outcome(() => target.view({ command: 'view', path })).then((seenNow) =>
        seen.push(seenNow.ok ? seenNow.content : `${seenNow.code}: ${seenNow.message}`),
      );
    });
  },
  events: () => structuredClone(events),
  seenAtEvent: () => [...seen],
  undo: () => outcome(() => current().undo()),
  async buildBundle(count) {
    const began = performance.now();
    const at = new Date('2025-01-01T00:00:00.000Z').toISOString();
    const files = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const id = String(i).padStart(5, '0');
        const content = `file ${id}\n`;
        return bundleFile(`/memories/import/d${String(i % 100).padStart(2, '0')}/f${id}.md`, content, await sha256(content), at);
      }),
    );
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const whole: MemoryBundle = { format: BUNDLE_FORMAT, version: BUNDLE_VERSION, exportedAt: at, files, folders: [] };
    bundle = JSON.stringify(whole);
    return { bytes: bundle.length, ms: Math.round(performance.now() - began) };
  },
  startImport() {
    if (bundle === undefined) throw new Error('tabs.buildBundle() first');
    importResult = undefined;
    current()
      .importBundle(bundle, { onProgress: (done, total) => void window.reportProgress?.(done, total) })
      .then(
        (report) => {
          importResult = `added ${report.added}`;
        },
        (error: unknown) => {
          importResult = `failed: ${String(error)}`;
        },
      );
  },
  importResult: () => importResult,
  async exportedFileCount() {
    const text = await (await current().exportBundle()).text();
    return (JSON.parse(text) as MemoryBundle).files.length;
  },
  async readFile(path) {
    const text = await (await current().exportBundle({ path })).text();
    const [file] = (JSON.parse(text) as MemoryBundle).files;
    if (!file) throw new Error(`no file at ${path}`);
    return file.content;
  },
  async readAll() {
    const text = await (await current().exportBundle()).text();
    return Object.fromEntries((JSON.parse(text) as MemoryBundle).files.map((file) => [file.path, file.content]));
  },
  rawStats,
  openRaw(dbName, version, timeoutMs) {
    return rawRequest(() => indexedDB.open(dbName, version), timeoutMs, (db) => {
      raw = db;
    });
  },
  closeRaw() {
    raw?.close();
    raw = undefined;
  },
  deleteRaw(dbName, timeoutMs) {
    return rawRequest(() => indexedDB.deleteDatabase(dbName), timeoutMs, () => undefined);
  },
};

window.tabs = api;
document.body.dataset.ready = 'true';
