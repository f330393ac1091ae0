// The Sync rows, driven from Node: the loopback Memory Stores server and Apache's mod_dav started here and seeded
// with 2,000 files, the page (sync-page.ts) asked for one step at a time, and each pass's requests counted — from
// the server's log (preflights in it) for Memory Stores, from the page's counting fetch for WebDAV.

import { Buffer } from 'node:buffer';
import { join } from 'node:path';
import { eachLimited } from '../../src/sync/pool.js';
import { startApacheWebdav } from '../servers/apache-webdav.js';
import { startMemoryStoresServer } from '../servers/memory-stores-server.js';
import type { BenchBrowser } from './engines.js';
import { bulkFolders } from './fixtures.js';
import { requestRange } from './report-sync.js';
import { delayProxy, sampleHeap, seedOnDisk } from './sync-big.js';
import { counted, sortMemoryStores, sortWebdav } from './sync-requests.js';
import type { Expected, Sorted } from './sync-requests.js';
import type { DelayProxy } from './sync-big.js';
import { SYNC_BIG_FILES, SYNC_FILES, SYNC_LATENCY_MS, SYNC_WEBDAV_LATENCY_MS, changedFiles, syncPath, syncText } from './sync-fixtures.js';
import type { PassResult, RemoteSpec, SyncPass, SyncRow } from './sync-fixtures.js';

export interface SyncPlan {
  /** First pulls from Memory Stores, each from a new store (so that no preflight is cached from the one before). */
  pulls: number;
  /** Timed passes of every other row, after one untimed. */
  reps: number;
  /** First pulls of 10,000 files, each from a new store or folder, the page's heap sampled through it (Chromium). */
  bigPulls: number;
}

type Log = (line: string) => void;

/** A remote for the rows: how it is opened in the page, and how a pass's requests are read and sorted. */
interface BenchRemote {
  name: SyncRow['remote'];
  counted: SyncRow['counted'];
  /** The listing's requests a pass needs. */
  listing: number;
  /** A new memory in the page on this remote (for Memory Stores, a new store seeded first); its concurrency. */
  open(dbName: string): Promise<number>;
  /** The requests of the pass just run, sorted. */
  requests(pass: PassResult): Sorted[];
  latency(ms: number): void;
  /** The first pull's floor (see SyncRow.floor), on remote files of its own; its time and requests. */
  floor?(concurrency: number): Promise<{ ms: number; requests: Record<string, number> }>;
  /** The big pull: a new memory on a new remote of 10,000 files answering after `big.latencyMs`; its concurrency. */
  big?: {
    latencyMs: number;
    open(dbName: string): Promise<number>;
    /** Its floor: plain `fetch` of the files just opened, once a run. */
    floor?(concurrency: number): Promise<{ ms: number; requests: Record<string, number> }>;
  };
}

/**
 * The rows on one remote: first pulls (`pulls` of them, at `pullLatency`), then at each latency a pass with nothing
 * changed and a pass after ten files changed, `reps` times each after one untimed.
 */
async function rowsOn(
  browser: BenchBrowser,
  remote: BenchRemote,
  plan: SyncPlan & { pullLatency: number; latencies: readonly number[] },
  log: Log,
): Promise<SyncRow[]> {
  const rows: SyncRow[] = [];
  let concurrency = 0;
  const row = (goal: SyncRow['goal'], latencyMs: number, extra: Partial<SyncRow> = {}): SyncRow => {
    const { name, listing, counted: where } = remote;
    const made: SyncRow = { goal, remote: name, files: SYNC_FILES, latencyMs, concurrency, listing, counted: where, passes: [], ...extra };
    rows.push(made);
    return made;
  };
  const pass = async (expected: Expected, storage = false, before?: ReadonlySet<string>): Promise<SyncPass> => {
    const { pass: result } = await browser.run('runSync', { action: 'pass', storage });
    if (!result) throw new Error('bench sync: the page answered no pass');
    const made = counted(result, remote.requests(result), expected, before);
    return result.storage ? { ...made, stored: result.storage.after - result.storage.before } : made;
  };
  const say = (made: SyncRow, what: string, ms: number, requests: Record<string, number>): void =>
    log(
      `  sync ${made.remote.padEnd(12)} ${what.padEnd(12)} ${String(made.latencyMs).padStart(2)} ms: ` +
        `${Math.round(ms).toLocaleString('en-US')} ms; ${requestRange([{ requests }])}`,
    );

  remote.latency(plan.pullLatency);
  let pulls: SyncRow | undefined;
  // With a floor, the pull and its floor take turns, who goes first flipping each time (as harness.ts does).
  const floor = async (made: SyncRow): Promise<void> => {
    if (!remote.floor) return;
    const { ms, requests } = await remote.floor(made.concurrency);
    made.floor ??= { ms: [], requests };
    made.floor.ms.push(ms);
    say(made, '(floor)', ms, requests);
  };
  for (let i = 0; i < plan.pulls; i++) {
    if (pulls && i % 2 === 1) await floor(pulls);
    concurrency = await remote.open(`bench-sync-${remote.name}-${Date.now()}`);
    pulls ??= row('first pull', plan.pullLatency);
    const done = await pass('any');
    say(pulls, pulls.goal, done.ms, done.requests);
    if (done.pulled !== SYNC_FILES) throw new Error(`bench sync: the first pull brought ${done.pulled} of ${SYNC_FILES} files`);
    pulls.passes.push(done);
    if (i % 2 === 0) await floor(pulls);
  }
  let run = 0;
  for (const latency of plan.latencies) {
    remote.latency(latency);
    const unchanged = row('unchanged', latency);
    for (let i = 0; i <= plan.reps; i++) {
      const done = await pass(new Set());
      say(unchanged, unchanged.goal, done.ms, done.requests);
      if (i > 0) unchanged.passes.push(done);
    }
    const changed = row('ten changed', latency, { changed: changedFiles(0).length });
    let before = new Set<string>();
    for (let i = 0; i <= plan.reps; i++) {
      const files = changedFiles(run++);
      await browser.run('runSync', { action: 'change', paths: files });
      const done = await pass(new Set(files), false, before);
      // A write is re-read once its tag can be strong (1.2 s on), which may be two or three passes later.
      before = new Set([...before, ...files]);
      say(changed, changed.goal, done.ms, done.requests);
      if (i > 0) changed.passes.push(done);
    }
  }
  // Last, as it leaves the page on a memory of its own.
  const { big } = remote;
  for (let i = 0; big && i < plan.bigPulls; i++) {
    concurrency = await big.open(`bench-sync-${remote.name}-big-${Date.now()}`);
    remote.latency(big.latencyMs);
    const made = rows.find((found) => found.files === SYNC_BIG_FILES) ?? row('first pull', big.latencyMs, { files: SYNC_BIG_FILES });
    const heap = await sampleHeap(browser);
    const done = await pass('any', true);
    const sampled = await heap?.stop();
    say(made, 'first pull', done.ms, done.requests);
    log(`  sync ${made.remote.padEnd(12)} 10,000 files: heap ${sampled ? `+${(sampled.growth / 2 ** 20).toFixed(1)} MB` : 'not measured'}, storage +${((done.stored ?? Number.NaN) / 2 ** 20).toFixed(1)} MB`);
    if (done.pulled !== SYNC_BIG_FILES) throw new Error(`bench sync: the big pull brought ${done.pulled} of ${SYNC_BIG_FILES} files`);
    made.passes.push(sampled ? { ...done, heap: sampled } : done);
    if (i === 0 && big.floor) {
      const { ms, requests } = await big.floor(made.concurrency);
      made.floor = { ms: [ms], requests };
      say(made, '(floor)', ms, requests);
    }
  }
  return rows;
}

/** Closes the page's memory; a failure here is told, not thrown over the one that may have brought us here. */
async function closePage(browser: BenchBrowser, log: Log): Promise<void> {
  await browser.run('runSync', { action: 'close' }).catch((error: unknown) => log(`  sync: closing the memory failed: ${String(error)}`));
}

/** The loopback Memory Stores server: a new store of 2,000 memories for each memory opened. */
async function memoryStoreRows(browser: BenchBrowser, plan: SyncPlan, log: Log): Promise<SyncRow[]> {
  const server = await startMemoryStoresServer({ maxMemories: SYNC_BIG_FILES });
  let storeId = '';
  const pathOf = (id: string): string | undefined => {
    try {
      return server.api.retrieveMemory(storeId, id).path;
    } catch {
      return undefined;
    }
  };
  /** A new store of the 2,000 files; the ids of its memories. */
  const seed = (files = SYNC_FILES): { storeId: string; ids: string[] } => {
    const id = server.createStore('bench').id;
    const ids = Array.from({ length: files }, (_, i) => server.api.createMemory(id, { path: syncPath(i), content: syncText(i) }).id);
    return { storeId: id, ids };
  };
  const openOn = async (dbName: string, files: number): Promise<number> => {
    storeId = seed(files).storeId;
    const spec: RemoteSpec = { kind: 'memory-store', baseURL: server.url, storeId };
    const { concurrency } = await browser.run('runSync', { action: 'open', dbName, remote: spec });
    server.reset();
    return concurrency ?? 0;
  };
  const remote: BenchRemote = {
    name: 'memory-store',
    counted: 'server log',
    // Pages of 100 (the adapter's limit without content).
    listing: Math.ceil(SYNC_FILES / 100),
    async open(dbName) {
      return openOn(dbName, SYNC_FILES);
    },
    // The loopback server takes 10,000 memories in a store; the service holds 2,000 (the adapter pulls any number).
    big: { latencyMs: SYNC_LATENCY_MS, open: (dbName) => openOn(dbName, SYNC_BIG_FILES) },
    requests() {
      const sorted = server.requests.map((request) => sortMemoryStores(request, pathOf));
      server.reset();
      return sorted;
    },
    latency(ms) {
      server.latencyMs = ms;
    },
    async floor(concurrency) {
      const fresh = seed();
      const base = `${server.url}/v1/memory_stores/${fresh.storeId}/memories/`;
      // The API's key, version and beta headers: not CORS-safelisted, so each URL gets its preflight as the SDK's do.
      const headers = { 'x-api-key': 'bench', 'anthropic-version': '2023-06-01', 'anthropic-beta': 'agent-memory-2026-07-22' };
      server.reset();
      const { fetchMs } = await browser.run('runSync', { action: 'fetch', urls: fresh.ids.map((id) => base + id), headers, concurrency });
      const requests: Record<string, number> = {};
      for (const request of server.requests) {
        const kind = sortMemoryStores(request, () => undefined).kind;
        requests[kind] = (requests[kind] ?? 0) + 1;
      }
      server.reset();
      return { ms: fetchMs ?? Number.NaN, requests };
    },
  };
  try {
    return await rowsOn(browser, remote, { ...plan, pullLatency: SYNC_LATENCY_MS, latencies: [0, SYNC_LATENCY_MS] }, log);
  } finally {
    await closePage(browser, log);
    await server.close();
  }
}

/** Apache httpd with mod_dav: one folder of 2,000 files, written over HTTP before the page opens it. */
async function webdavRows(browser: BenchBrowser, plan: SyncPlan, log: Log): Promise<SyncRow[]> {
  const apache = await startApacheWebdav();
  let proxy: DelayProxy | undefined;
  try {
    const folder = `bench-${Date.now()}`;
    const url = `${apache.url}${folder}/`;
    const authorization = `Basic ${Buffer.from(`${apache.username}:${apache.password}`).toString('base64')}`;
    const send = async (method: string, target: string, body?: string): Promise<void> => {
      const response = await fetch(target, { method, headers: { authorization }, ...(body === undefined ? {} : { body }) });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`bench sync: seeding WebDAV, ${method} ${target} answered ${response.status}`);
    };
    // The folders first (the root of the remote among them, as ''), then the files, a few at a time.
    for (const made of bulkFolders('', SYNC_FILES)) await send('MKCOL', `${url}${made.slice(1)}${made === '' ? '' : '/'}`);
    await eachLimited(Array.from({ length: SYNC_FILES }, (_, i) => i), 8, (i) => send('PUT', url + syncPath(i).slice(1), syncText(i)));
    const root = new URL(url).pathname;
    proxy = await delayProxy(apache.url);
    proxy.latencyMs = SYNC_WEBDAV_LATENCY_MS;
    const through = proxy.url;
    let bigUrl = '';
    /** A new folder of 10,000 files on Apache's disk; its URL through the delaying proxy. */
    const bigFolder = async (): Promise<string> => {
      const name = `bench-big-${Date.now()}`;
      await seedOnDisk(join(apache.root, name), SYNC_BIG_FILES);
      return `${through}${name}/`;
    };
    const remote: BenchRemote = {
      name: 'webdav',
      counted: 'counting fetch',
      // One PROPFIND Depth 1 for the root and one for each folder of 100.
      listing: bulkFolders('', SYNC_FILES).length,
      async open(dbName) {
        const spec: RemoteSpec = { kind: 'webdav', url, username: apache.username, password: apache.password };
        const { concurrency } = await browser.run('runSync', { action: 'open', dbName, remote: spec });
        return concurrency ?? 0;
      },
      requests: (pass) => pass.fetches.map((seen) => sortWebdav(seen, root)),
      // Apache answers as fast as it can; the big pull goes through a proxy that adds the delay.
      latency() {},
      big: {
        latencyMs: SYNC_WEBDAV_LATENCY_MS,
        async open(dbName) {
          bigUrl = await bigFolder();
          const spec: RemoteSpec = { kind: 'webdav', url: bigUrl, username: apache.username, password: apache.password };
          const { concurrency } = await browser.run('runSync', { action: 'open', dbName, remote: spec });
          return concurrency ?? 0;
        },
        // Files of their own, so that no preflight is cached from the pull.
        async floor(concurrency) {
          const base = await bigFolder();
          const urls = Array.from({ length: SYNC_BIG_FILES }, (_, i) => base + syncPath(i).slice(1));
          const { fetchMs } = await browser.run('runSync', { action: 'fetch', urls, headers: { authorization }, concurrency });
          return { ms: fetchMs ?? Number.NaN, requests: { GET: SYNC_BIG_FILES, OPTIONS: SYNC_BIG_FILES } };
        },
      },
    };
    return await rowsOn(browser, remote, { ...plan, pulls: 1, pullLatency: 0, latencies: [0] }, log);
  } finally {
    await closePage(browser, log);
    await proxy?.close();
    await apache.stop();
  }
}

/**
 * Every Sync row in one engine's page. A remote that fails (Apache missing, a pass that throws) is reported in
 * `errors` and its rows left out; the other remote's rows are kept.
 */
export async function runSyncRows(browser: BenchBrowser, plan: SyncPlan, log: Log): Promise<{ rows: SyncRow[]; errors: string[] }> {
  const rows: SyncRow[] = [];
  const errors: string[] = [];
  for (const [name, run] of [['Memory Stores', memoryStoreRows], ['WebDAV', webdavRows]] as const) {
    try {
      rows.push(...(await run(browser, plan, log)));
    } catch (error) {
      const message = `${name}: ${error instanceof Error ? error.message : String(error)}`;
      log(`  sync rows failed: ${message}`);
      errors.push(message);
    }
  }
  return { rows, errors };
}
