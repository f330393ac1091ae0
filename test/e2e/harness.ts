// What the e2e tests share: the demo built and served statically (or Vite's dev server), Chromium through
// playwright-core, and probes of the page (requests it makes, everything in its IndexedDB). Every server
// listens on 127.0.0.1 port 0; every start has a matching close.

import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, readdir, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build, createServer } from 'vite';
import { afterAll, beforeAll, expect } from 'vitest';
import { chromiumArgs, chromiumPath } from '../../vite.config.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CONFIG = join(ROOT, 'vite.config.ts');

export interface Served {
  url: string;
  close(): Promise<void>;
}

/** `npm run build:demo` into a temporary folder. */
export async function buildDemo(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'idb-memory-demo-'));
  await build({ configFile: CONFIG, root: ROOT, mode: 'production', logLevel: 'silent', build: { outDir: dir, emptyOutDir: true } });
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

/** A plain static file server for `dir`, as any static host would serve the build, under `/some/folder/`. */
export async function serveStatic(dir: string, prefix = '/demo/'): Promise<Served> {
  const server = createHttpServer((req, res) => {
    void (async () => {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      if (!path.startsWith(prefix)) {
        res.writeHead(404).end();
        return;
      }
      const relative = path.slice(prefix.length) || 'index.html';
      const file = normalize(join(dir, relative));
      if (!file.startsWith(dir + sep)) {
        res.writeHead(403).end();
        return;
      }
      try {
        const body = await readFile(file);
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
      } catch {
        res.writeHead(404).end();
      }
    })();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/**
 * Vite's dev server for the demo (`npm run dev`). Its config reads `env` in place of process.env's
 * ANTHROPIC_API_KEY / ANTHROPIC_PROXY_TARGET (the config is read here, at creation). Its own dependency cache,
 * so it never races the chromium project's Vite server for node_modules/.vite.
 */
export async function startDevServer(env: Record<string, string | undefined> = {}): Promise<Served> {
  const names = ['ANTHROPIC_API_KEY', 'ANTHROPIC_PROXY_TARGET'] as const;
  const saved = names.map((name) => process.env[name]);
  const cacheDir = await mkdtemp(join(tmpdir(), 'idb-memory-vite-cache-'));
  names.forEach((name) => {
    const value = env[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  });
  let server: Awaited<ReturnType<typeof createServer>>;
  try {
    server = await createServer({
      configFile: CONFIG,
      root: ROOT,
      mode: 'development',
      cacheDir,
      logLevel: 'silent',
      clearScreen: false,
      server: { host: '127.0.0.1', port: 0, strictPort: true, hmr: false },
    });
  } finally {
    names.forEach((name, i) => {
      const value = saved[i];
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    });
  }
  await server.listen();
  const address = server.httpServer?.address() as AddressInfo | null;
  if (!address) throw new Error('the dev server did not listen');
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: async () => {
      await server.close();
      await rm(cacheDir, { recursive: true, force: true });
    },
  };
}

/** Chromium with the project's flags, and `extraArgs` (e.g. `--host-resolver-rules`). */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: [...chromiumArgs, ...extraArgs], headless: true, timeout: 120_000 });
}

/**
 * A browser profile in a folder on disk, as a user's browser keeps IndexedDB (the contexts of `launchChromium()` are
 * off the record, their IndexedDB in memory). `launch()` starts Chromium on it (again, after a kill); `kill()` ends
 * that Chromium, every process of it at once, as a crash would, and waits until they are gone (SIGKILL: nothing is
 * closed or cleaned up; what it had already handed to the OS stays, so this is not a power cut); `close()` ends it and
 * removes the folder.
 */
export interface DiskProfile {
  readonly dir: string;
  launch(): Promise<BrowserContext>;
  kill(): Promise<void>;
  close(): Promise<void>;
}

/** Whether process `pid` still runs: a zombie (ended, not yet reaped by a container's init) counts as gone. */
async function running(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (stat !== undefined) return !/\) [ZX] /u.test(stat);
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves once none of `pids` runs; a hang is bounded like any e2e wait. */
async function gone(pids: readonly number[], timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const left = (await Promise.all(pids.map(async (pid) => ((await running(pid)) ? pid : undefined)))).filter((pid) => pid !== undefined);
    if (left.length === 0) return;
    if (Date.now() > until) throw new Error(`processes ${left.join(', ')} still run ${timeoutMs} ms after SIGKILL`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

export async function diskProfile(): Promise<DiskProfile> {
  const dir = await mkdtemp(join(tmpdir(), 'idb-memory-profile-'));
  let context: BrowserContext | undefined;
  const stop = async (): Promise<void> => {
    const open = context;
    context = undefined;
    await open?.close().catch(() => undefined);
  };
  return {
    dir,
    async launch() {
      await stop();
      context = await chromium.launchPersistentContext(dir, { executablePath: chromiumPath, args: chromiumArgs, headless: true, timeout: 120_000 });
      return context;
    },
    async kill() {
      const open = context;
      if (!open) return;
      // The browser process's id as Chromium itself reports it (no `ps`, which a minimal image may lack and which
      // cuts command lines at $COLUMNS). Until it has gone, `context` stays set, so a failed kill is still closed.
      const cdp = await open.browser()!.newBrowserCDPSession();
      const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
      const browsers = processInfo.filter((info) => info.type === 'browser');
      if (browsers.length !== 1) throw new Error(`expected one browser process on ${dir}, found ${browsers.length}`);
      const socket = await readlink(join(dir, 'SingletonSocket')).catch(() => undefined);
      const closed = new Promise<void>((done) => open.once('close', () => done()));
      // Every process at once, as a crash takes them all: a storage service left to notice its parent's end on a
      // busy machine could still hold the profile's IndexedDB when the next launch opens it.
      for (const { id } of [...browsers, ...processInfo.filter((info) => info.type !== 'browser')]) {
        try {
          process.kill(id, 'SIGKILL');
        } catch {
          // Already gone with the browser.
        }
      }
      await closed;
      await gone(processInfo.map((info) => info.id));
      context = undefined;
      // A killed Chromium leaves its singleton socket's folder in the temp folder (a clean exit removes it).
      if (socket !== undefined) {
        const folder = dirname(socket);
        const names = await readdir(folder).catch(() => [] as string[]);
        if (folder !== dir && names.every((name) => name.startsWith('Singleton'))) await rm(folder, { recursive: true, force: true });
      }
    },
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** `body` on a fresh browser profile on disk, its browser closed and its folder removed after it whatever happens. */
export async function withDiskProfile(body: (context: BrowserContext, profile: DiskProfile) => Promise<void>): Promise<void> {
  const profile = await diskProfile();
  try {
    await body(await profile.launch(), profile);
  } finally {
    await profile.close();
  }
}

/** Every URL the page asks for, from the moment this is called. */
export function recordRequests(context: BrowserContext): string[] {
  const urls: string[] = [];
  context.on('request', (request) => urls.push(request.url()));
  return urls;
}

/** Opens the demo and waits until it has opened the memory and drawn the panels. */
export async function openDemo(context: BrowserContext, url: string, options: { hearsOtherTabs?: boolean } = {}): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(120_000);
  if (options.hearsOtherTabs === false) await page.addInitScript(() => Reflect.deleteProperty(window, 'BroadcastChannel'));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
  return page;
}

/**
 * The demo in a tab that does not hear the other tabs (no BroadcastChannel, as in a browser without one): its
 * history stays as it last read it, so it can offer an Undo that another tab has made stale.
 */
export const openDeafDemo = (context: BrowserContext, url: string): Promise<Page> => openDemo(context, url, { hearsOtherTabs: false });

/** Every record of every IndexedDB database of the page's origin, as one JSON text. */
export function dumpIndexedDB(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const request = <T>(r: IDBRequest<T>) =>
      new Promise<T>((done, fail) => {
        r.onsuccess = () => done(r.result);
        r.onerror = () => fail(r.error);
      });
    const out: Record<string, Record<string, unknown[]>> = {};
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await request(indexedDB.open(info.name));
      const stores: Record<string, unknown[]> = {};
      for (const name of Array.from(db.objectStoreNames)) {
        const store = db.transaction(name, 'readonly').objectStore(name);
        stores[name] = [...(await request(store.getAllKeys())), ...(await request(store.getAll()))];
      }
      db.close();
      out[info.name] = stores;
    }
    return JSON.stringify(out);
  });
}

/** The built demo served statically: what the demo's e2e files all start with (each test then opens a {@link diskProfile}). */
export interface BuiltDemo {
  site: Served;
  close(): Promise<void>;
}

export async function startBuiltDemo(): Promise<BuiltDemo> {
  const built = await buildDemo();
  const site = await serveStatic(built.dir);
  return {
    site,
    async close() {
      await site.close();
      await built.remove();
    },
  };
}

/** Opens the demo's Connection popover (its button beside the chat's title), if it is closed, as a person does before typing a key. */
export async function showConnection(page: Page): Promise<void> {
  if (!(await page.locator('#connection').evaluate((popover) => popover.matches(':popover-open')))) {
    await page.locator('#connection-button').click();
  }
}

/**
 * `waiting`, or, if it fails (a wait that timed out), its error with what the page showed then: a conversation that
 * never ended in CI says where it stopped.
 */
export async function orShowPage<T>(page: Page, waiting: Promise<T>, api?: { progress(): string }): Promise<T> {
  try {
    return await waiting;
  } catch (error) {
    const shown = await page.locator('body').innerText({ timeout: 10_000 }).catch(() => '(unreadable)');
    const state = await page
      .evaluate(() => `${document.visibilityState}, focus ${document.hasFocus()}, ${innerWidth}×${innerHeight}`)
      .catch(() => '(no state)');
    const served = api === undefined ? '' : `\nThe API server: ${api.progress()}`;
    throw new Error(`${String(error)}${served}\nThe page (${state}) showed:\n${shown.slice(-3000)}`, { cause: error });
  }
}

/** The demo's developer tools, by their tab's name. */
export type ToolName = 'History' | 'Console' | 'Bundles' | 'Storage' | 'Sync';

/** Shows one of the demo's developer tools, choosing its tab as a person would. */
export async function showTool(page: Page, name: ToolName): Promise<void> {
  await page.getByRole('tab', { name, exact: true }).click();
}

/**
 * Runs one command from the demo's console as a person would (the fields by their labels); the tool_result shown.
 * The tool that was shown before is shown again after, so a test reads on where it was.
 */
export async function runCommand(page: Page, command: string, fields: Record<string, string>): Promise<string> {
  const before = (await page.locator('#tool-tabs [aria-selected="true"]').textContent()) as ToolName;
  await showTool(page, 'Console');
  try {
    return await runInConsole(page, command, fields);
  } finally {
    await showTool(page, before);
  }
}

async function runInConsole(page: Page, command: string, fields: Record<string, string>): Promise<string> {
  await page.getByLabel('Command', { exact: true }).selectOption(command);
  for (const [label, value] of Object.entries(fields)) await page.getByLabel(label, { exact: true }).fill(value);
  await page.getByRole('button', { name: 'Run command' }).click();
  const result = page.getByLabel('Command result');
  await expect.poll(() => result.textContent()).not.toBe('running…');
  return (await result.textContent()) ?? '';
}

/**
 * A server for the tests of the file it is called in: `start()` before them, closed after them. Its `url` is read
 * when a test runs (there is none while the file loads).
 */
export function servedForFile(start: () => Promise<Served>): { readonly url: string } {
  let served: Served | undefined;
  beforeAll(async () => {
    served = await start();
  });
  afterAll(async () => {
    await served?.close();
  });
  return {
    get url(): string {
      if (!served) throw new Error('servedForFile: the server starts before the tests, not while the file loads');
      return served.url;
    },
  };
}

/** {@link serveStatic} of a temporary folder, which `close()` also removes. */
export async function serveTemporary(dir: string, prefix: string): Promise<Served> {
  const served = await serveStatic(dir, prefix);
  return {
    url: served.url,
    close: async () => {
      await served.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The built demo, served for the tests of the file it is called in. */
export const builtDemoForFile = (): { readonly url: string } =>
  servedForFile(async () => {
    const demo = await startBuiltDemo();
    return { url: demo.site.url, close: () => demo.close() };
  });
