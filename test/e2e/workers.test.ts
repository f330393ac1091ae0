// The whole API in workers, in real Chromium (issue 23). A page (pages/worker-page.html) and its module dedicated and
// shared workers on the main entry are built with Vite as an app builds them; two module service workers are built
// apart, one on `idb-memory-tool/worker` and one on the main entry; the first is also the background worker of an MV3
// extension. Each runs one scenario (pages/worker-api.ts: the six commands through `run`, then every app method,
// subscribe and close) and posts the result to the page, which listens on the same database meanwhile. A service
// worker may not call `import()`: on the main entry `init()` fails with `unavailable` (it loads the write path); on
// the worker entry every part is there, and its build holds no `import()` to call.

import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs, chromiumPath } from '../../vite.config.js';
import { launchChromium, serveTemporary, servedForFile } from './harness.js';
import type { MemoryChangeEvent } from '../../src/index.js';
import type { ScenarioResult } from './pages/worker-api.js';
import { EXPORTED_AT } from './pages/worker-api.js';
import type { ScenarioRun } from './pages/worker-page.js';

const PAGES = resolve(import.meta.dirname, 'pages');

/** One worker script as its own module bundle, as an app builds a service worker: `<outDir>/<name>.js` and chunks. */
async function buildWorkerScript(source: string, outDir: string, name: string): Promise<void> {
  await build({
    configFile: false,
    root: PAGES,
    mode: 'production',
    logLevel: 'silent',
    // Library mode: an ES module with its chunks, without the preload helper Vite adds to a page's dynamic imports.
    build: { outDir, emptyOutDir: true, lib: { entry: join(PAGES, source), formats: ['es'], fileName: () => `${name}.js` } },
  });
}

/** Everything built in one folder, served under /workers/: `page/`, `sw-worker/`, `sw-main/`, `extension/`. */
let dir = '';
const site = servedForFile(async () => {
  dir = await mkdtemp(join(tmpdir(), 'idb-memory-workers-'));
  await build({
    configFile: false,
    root: PAGES,
    base: './',
    mode: 'production',
    logLevel: 'silent',
    // Module workers, so each may load the parts with import() as the page does.
    worker: { format: 'es' },
    build: { outDir: join(dir, 'page'), emptyOutDir: true, rolldownOptions: { input: join(PAGES, 'worker-page.html') } },
  });
  await buildWorkerScript('worker-sw.ts', join(dir, 'sw-worker'), 'sw');
  await buildWorkerScript('worker-sw-main.ts', join(dir, 'sw-main'), 'sw');
  // The extension: the worker-entry service worker as its background, and the page as one of its own pages.
  await buildWorkerScript('worker-sw.ts', join(dir, 'extension'), 'background');
  await cp(join(dir, 'page'), join(dir, 'extension', 'page'), { recursive: true });
  const manifest = {
    manifest_version: 3,
    name: 'idb-memory-tool workers test',
    version: '1.0',
    background: { service_worker: 'background.js', type: 'module' },
  };
  await writeFile(join(dir, 'extension', 'manifest.json'), JSON.stringify(manifest));
  return serveTemporary(dir, '/workers/');
});

let browser: Browser | undefined;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function openPage(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(120_000);
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  return page;
}

/** `body` on the page in a fresh context (its own service workers and databases), closed after it. */
async function withPage(body: (page: Page) => Promise<void>): Promise<void> {
  if (!browser) throw new Error('no browser');
  const context = await browser.newContext();
  try {
    await body(await openPage(context, `${site.url}page/worker-page.html`));
  } finally {
    await context.close();
  }
}

let dbs = 0;
const freshDb = (): string => `workers-${Date.now()}-${++dbs}`;

/** The scenario run by `target` (`page`, `dedicated`, `shared` or a service worker's URL) while the page listens. */
function scenario(page: Page, target: string): Promise<ScenarioRun> {
  return page.evaluate(([t, db, second]) => window.workers.scenario(t, db, second), [target, freshDb(), freshDb()] as const);
}

/** `target` subscribes to a database, the page writes to it: what `target` heard. */
function hearPage(page: Page, target: string): Promise<MemoryChangeEvent> {
  return page.evaluate(([t, db]) => window.workers.hearPage(t, db), [target, freshDb()] as const);
}

async function registerServiceWorker(page: Page, folder: string): Promise<string> {
  const url = `${site.url}${folder}/sw.js`;
  const registered = await page.evaluate((u) => window.workers.register(u), url);
  expect(registered).toEqual({ state: 'activated', scope: `${site.url}${folder}/` });
  return url;
}

/** The JavaScript of a built folder, each file's text by name. */
async function builtScripts(folder: string): Promise<Map<string, string>> {
  const names = (await readdir(join(dir, folder))).filter((name) => name.endsWith('.js'));
  return new Map(await Promise.all(names.map(async (name) => [name, await readFile(join(dir, folder, name), 'utf8')] as const)));
}
/** A dynamic import as the bundler writes it (a call on a string), not the word in a comment or a message. */
const DYNAMIC_IMPORT = /\bimport\(\s*["'`]/u;

const TODO = '- ship it today\n- test it\n';
const LATER = '- someday\n';
const writes = (...paths: string[]): ScenarioResult['events'] => paths.map((path) => ({ source: 'local', changes: [{ type: 'write', path }] }));

/** Claude's six commands (and one refusal), the same wherever they run. */
const COMMANDS: ScenarioResult['commands'] = [
  { content: 'File created successfully at: /memories/notes/todo.md', is_error: false },
  { content: 'File created successfully at: /memories/notes/later.md', is_error: false },
  {
    content:
      "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n" +
      '4K\t/memories\n4K\t/memories/notes/\n10B\t/memories/notes/later.md\n10B\t/memories/notes/todo.md',
    is_error: false,
  },
  {
    content: 'The memory file has been edited. Here is the snippet showing the change (with line numbers):\n     1\t- ship it today\n     2\t',
    is_error: false,
  },
  { content: 'The file /memories/notes/todo.md has been edited.', is_error: false },
  {
    content: "Here's the content of /memories/notes/todo.md with line numbers:\n     1\t- ship it today\n     2\t- test it\n     3\t",
    is_error: false,
  },
  { content: 'Successfully renamed /memories/notes/later.md to /memories/archive/later.md', is_error: false },
  { content: 'Successfully deleted /memories/archive/later.md', is_error: false },
  { content: 'Error: The path /memories/missing.md does not exist. Please provide a valid path.', is_error: true, code: 'not_found' },
];

/** The change events of the six commands. */
const COMMAND_EVENTS: ScenarioResult['events'] = [
  ...writes('/memories/notes/todo.md', '/memories/notes/later.md', '/memories/notes/todo.md', '/memories/notes/todo.md'),
  { source: 'local', changes: [{ type: 'rename', path: '/memories/archive/later.md', from: '/memories/notes/later.md' }] },
  { source: 'local', changes: [{ type: 'delete', path: '/memories/archive/later.md' }] },
];

const AFTER_CLOSE: ScenarioResult['afterClose'] = {
  content: 'Error: The memory storage failed (the memory was closed). Nothing was written.',
  is_error: true,
  code: 'storage',
};

const claude = (id: number, command: string, ...paths: string[]) => ({ id, actor: 'claude', command, paths, undoable: true, undone: false });

/** The whole scenario where every part can load, but for `scope` and `loaded`, which say where it ran. */
const WHOLE_API: Omit<ScenarioResult, 'scope' | 'loaded'> = {
  commands: COMMANDS,
  list: {
    ok: true,
    value: [
      { path: '/memories/archive', kind: 'folder', hidden: false, size: 0 },
      { path: '/memories/notes', kind: 'folder', hidden: false, size: 0 },
      { path: '/memories/notes/todo.md', kind: 'file', hidden: false, size: 26 },
    ],
  },
  read: { ok: true, value: TODO },
  history: {
    ok: true,
    value: [
      claude(6, 'delete', '/memories/archive/later.md'),
      claude(5, 'rename', '/memories/notes/later.md', '/memories/archive/later.md'),
      claude(4, 'insert', '/memories/notes/todo.md'),
      claude(3, 'str_replace', '/memories/notes/todo.md'),
      claude(2, 'create', '/memories/notes/later.md'),
      claude(1, 'create', '/memories/notes/todo.md'),
    ],
  },
  change: {
    ok: true,
    value: { id: 6, command: 'delete', files: [{ path: '/memories/archive/later.md', before: LATER, after: null }], moves: [] },
  },
  undo: { ok: true, value: { id: 7, command: 'undo', paths: ['/memories/archive/later.md'], undoOf: 6 } },
  readUndone: { ok: true, value: LATER },
  exported: {
    ok: true,
    value: {
      files: [
        { path: '/memories/archive/later.md', content: LATER, sha256: 'c2ebc9aac30a8e0f837ea868ce348c64952631e3d8649d383ec49c68484ff80f' },
        { path: '/memories/notes/todo.md', content: TODO, sha256: 'c51a12c0f308a459cc97ee79404aff030e057b11771ee459d08f66bd872db6d2' },
      ],
      folders: [],
      exportedAt: EXPORTED_AT,
    },
  },
  imported: {
    ok: true,
    value: {
      added: 2,
      addedPaths: ['/memories/archive/later.md', '/memories/notes/todo.md'],
      folderPaths: ['/memories/archive', '/memories/notes'],
    },
  },
  importedList: { ok: true, value: ['/memories/archive', '/memories/archive/later.md', '/memories/notes', '/memories/notes/todo.md'] },
  expired: { ok: true, value: ['/memories/archive/later.md', '/memories/notes/todo.md'] },
  events: [
    ...COMMAND_EVENTS,
    ...writes('/memories/archive/later.md'),
    { source: 'local', changes: [{ type: 'delete', path: '/memories/archive/later.md' }, { type: 'delete', path: '/memories/notes/todo.md' }] },
  ],
  afterClose: AFTER_CLOSE,
};

/** The chunks of the five parts a bundler splits off the main entry, each fetched by `import()` on first use. */
const PART_CHUNKS = ['tree-reads', 'read-history', 'undo', 'bundle', 'expire'];
const partsLoaded = (loaded: string[]): string[] =>
  PART_CHUNKS.filter((part) => loaded.some((name) => name.startsWith(`${part}-`)));

/** `run` did the whole scenario in a `scope`, and the page heard every change it made, as changes from elsewhere. */
function expectWholeApi(run: ScenarioRun, scope: string): void {
  const { scope: ranIn, loaded, ...rest } = run.result;
  expect(ranIn).toBe(scope);
  expect(rest).toEqual(WHOLE_API);
  expect(run.heard).toEqual(WHOLE_API.events.flatMap((event) => event.changes));
  expect(run.heardSources).toEqual(['remote']);
  // A worker on the main entry fetched each part as the page does; a service worker never fetches one.
  expect(partsLoaded(loaded)).toEqual(scope === 'ServiceWorkerGlobalScope' ? [] : PART_CHUNKS);
}

/** What a worker heard of the page's write (`hearPage`). */
const expectHeardPage = (event: MemoryChangeEvent): void => {
  expect(event).toMatchObject({ source: 'remote', changes: [{ type: 'write', path: '/memories/from-page.md' }] });
};

describe('the whole API in workers, in Chromium', () => {
  it('runs in the page itself on the main entry, loading each part on first use (the reference for the workers)', async () => {
    await withPage(async (page) => {
      const run = await scenario(page, 'page');
      expectWholeApi(run, 'Window');
    });
  });

  it('runs whole in a module service worker on idb-memory-tool/worker, which calls no import(); its changes reach the page and the page’s reach it', async () => {
    const built = await builtScripts('sw-worker');
    expect([...built].filter(([, text]) => DYNAMIC_IMPORT.test(text)).map(([name]) => name)).toEqual([]);
    await withPage(async (page) => {
      const sw = await registerServiceWorker(page, 'sw-worker');
      expectWholeApi(await scenario(page, sw), 'ServiceWorkerGlobalScope');
      expectHeardPage(await hearPage(page, sw));
    });
  });

  it('in a module service worker on the main entry, init() refuses with unavailable naming idb-memory-tool/worker: it loads the write path with import()', async () => {
    // The build does call import() for the parts: the service worker refuses it, not the bundler leaving it out.
    const built = await builtScripts('sw-main');
    expect([...built.values()].some((text) => DYNAMIC_IMPORT.test(text))).toBe(true);
    await withPage(async (page) => {
      const sw = await registerServiceWorker(page, 'sw-main');
      await expect(scenario(page, sw)).rejects.toThrow(
        /MemoryToolError: This part of the memory tool could not be loaded \(import\(\) is disallowed on ServiceWorkerGlobalScope.*Import the tool from 'idb-memory-tool\/worker' there, which loads every part with it\. Nothing was changed\./su,
      );
    });
  });

  it('runs whole in a module dedicated worker on the main entry, loading each part with import(); changes reach the page and back', async () => {
    await withPage(async (page) => {
      expectWholeApi(await scenario(page, 'dedicated'), 'DedicatedWorkerGlobalScope');
      expectHeardPage(await hearPage(page, 'dedicated'));
    });
  });

  it('runs whole in a module shared worker on the main entry, loading each part with import(); changes reach the page and back', async () => {
    await withPage(async (page) => {
      expectWholeApi(await scenario(page, 'shared'), 'SharedWorkerGlobalScope');
      expectHeardPage(await hearPage(page, 'shared'));
    });
  });

  it('runs whole in an MV3 extension’s background service worker on idb-memory-tool/worker, asked by the extension’s page, which hears its changes', async () => {
    // Extensions need a persistent profile and Playwright's --disable-extensions left out; new headless loads them.
    const profile = await mkdtemp(join(tmpdir(), 'idb-memory-extension-profile-'));
    const extension = join(dir, 'extension');
    let context: BrowserContext | undefined;
    try {
      context = await chromium.launchPersistentContext(profile, {
        executablePath: chromiumPath,
        args: [...chromiumArgs, `--disable-extensions-except=${extension}`, `--load-extension=${extension}`],
        ignoreDefaultArgs: ['--disable-extensions'],
        headless: true,
        timeout: 120_000,
      });
      const isBackground = (url: string): boolean => url.startsWith('chrome-extension://') && url.endsWith('/background.js');
      const background =
        context.serviceWorkers().find((worker) => isBackground(worker.url())) ??
        (await context.waitForEvent('serviceworker', { predicate: (worker) => isBackground(worker.url()), timeout: 120_000 }));
      const page = await openPage(context, new URL('page/worker-page.html', background.url()).href);
      const attached = await page.evaluate(() => window.workers.attach());
      expect(attached).toBe(background.url());
      expectWholeApi(await scenario(page, attached), 'ServiceWorkerGlobalScope');
      expectHeardPage(await hearPage(page, attached));
    } finally {
      await context?.close();
      await rm(profile, { recursive: true, force: true });
    }
  });
});
