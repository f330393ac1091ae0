// The minified browser build (vite.browser.config.ts, dist/browser/) as a page loads it with no bundler: named by an
// import map, nothing else mapped (idb and fflate are inside), the main entry and the sync entry sharing one tool.

import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BROWSER_ENTRIES } from '../../vite.browser.config.js';
import { launchChromium, serveTemporary, servedForFile } from '../e2e/harness.js';

const root = resolve(import.meta.dirname, '../..');

const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>browser build</title>
<script type="importmap">
  { "imports": { "idb-memory-tool": "./browser/index.js", "idb-memory-tool/sync": "./browser/sync.js" } }
</script>
<script type="module">
  import { IndexedDBMemoryTool } from 'idb-memory-tool';
  import { createMemorySync } from 'idb-memory-tool/sync';
  const tool = await IndexedDBMemoryTool.init({ dbName: 'browser-build' });
  const created = await tool.run({ command: 'create', path: '/memories/a.md', file_text: 'minified\\n' });
  const listed = (await tool.list()).map((entry) => entry.path);
  const other = await IndexedDBMemoryTool.init({ dbName: 'browser-build-zip' });
  const fromZip = (await other.importBundle(await tool.exportBundle({ format: 'zip' }))).added;
  // The sync entry takes the main entry's tool: the code they share is one module, not a copy in each file.
  const kept = new Map();
  const remote = {
    id: 'page:map', kind: 'map', limits: {}, concurrency: 1,
    list: async () => [...kept].map(([path, text]) => ({ path, version: text })),
    read: async (file) => ({ file, text: kept.get(file.path) ?? '' }),
    write: async (path, text) => { kept.set(path, text); return { path, version: text }; },
    delete: async (file) => { kept.delete(file.path); },
  };
  const pushed = (await createMemorySync(tool, { remote, interval: null }).syncNow()).pushed;
  document.body.dataset.result = JSON.stringify({ created: created.content, listed, fromZip, pushed });
</script>`;

/** Each built file's text, by its path under browser/. */
const code = new Map<string, string>();
const site = servedForFile(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'idb-memory-browser-build-'));
  await build({ configFile: join(root, 'vite.browser.config.ts'), root, logLevel: 'silent', build: { outDir: join(dir, 'browser') } });
  for (const file of readdirSync(join(dir, 'browser'), { recursive: true, encoding: 'utf8' })) {
    if (file.endsWith('.js')) code.set(file, readFileSync(join(dir, 'browser', file), 'utf8'));
  }
  writeFileSync(join(dir, 'index.html'), PAGE);
  return serveTemporary(dir, '/cdn/');
});

let browser: Browser | undefined;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

it('builds one minified file per entry, importing nothing but its own chunks and the optional peers', () => {
  for (const entry of Object.keys(BROWSER_ENTRIES)) expect([...code.keys()]).toContain(`${entry}.js`);
  for (const [file, text] of code) {
    const specifiers = [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*"([^"]+)"/gu)].map((match) => match[1] ?? '');
    const bare = specifiers.filter((specifier) => !specifier.startsWith('./') && !specifier.startsWith('../'));
    expect(bare.filter((specifier) => !/^(@anthropic-ai\/sdk|ai|react)(\/|$)/u.test(specifier)), file).toEqual([]);
    // Minified: a few long lines, not one statement a line.
    expect(text.split('\n').length, file).toBeLessThan(20);
  }
});

it('runs in Chromium from an import map that names only the package: commands, a lazy part, a zip, sync', async () => {
  if (!browser) throw new Error('no browser');
  const page = await (await browser.newContext()).newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const fetched: string[] = [];
  page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
  await page.goto(site.url);
  await page.waitForFunction(() => document.body.dataset.result !== undefined, undefined, { timeout: 120_000 });
  expect(errors).toEqual([]);
  expect(JSON.parse((await page.evaluate(() => document.body.dataset.result)) ?? '{}')).toEqual({
    created: 'File created successfully at: /memories/a.md',
    listed: ['/memories/a.md'],
    fromZip: 1,
    pushed: ['/memories/a.md'],
  });
  expect(fetched.filter((path) => !path.startsWith('/cdn/browser/') && !path.startsWith('/cdn/index.html') && path !== '/cdn/')).toEqual([]);
  await page.context().close();
});
