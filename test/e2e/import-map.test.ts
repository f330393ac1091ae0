// The package with no bundler, as a page loads it from an npm CDN: the published files (dist/, built as `npm pack`
// builds them) and idb's, served as they are, named by an import map. The README's "Without a bundler" says so.

import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium, serveTemporary, servedForFile } from './harness.js';

const root = resolve(import.meta.dirname, '../..');

const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>import map</title>
<script type="importmap">
  {
    "imports": {
      "idb-memory-tool": "./idb-memory-tool/dist/index.js",
      "idb": "./idb/build/index.js",
      "fflate": "./fflate/esm/browser.js"
    }
  }
</script>
<script type="module">
  import { IndexedDBMemoryTool, isMemoryToolError } from 'idb-memory-tool';
  const tool = await IndexedDBMemoryTool.init({ dbName: 'import-map' });
  const created = await tool.run({ command: 'create', path: '/memories/notes.md', file_text: 'from a CDN\\n' });
  const view = await tool.run({ command: 'view', path: '/memories' });
  // Parts loaded on first use: fetched from the package's own folder, next to index.js.
  const listed = (await tool.list()).map((entry) => entry.path);
  const history = (await tool.history()).map((entry) => entry.command);
  const bundle = JSON.parse(await (await tool.exportBundle()).text());
  // A zip, read back: fflate comes through the import map too.
  const zipped = await tool.exportBundle({ format: 'zip' });
  const other = await IndexedDBMemoryTool.init({ dbName: 'import-map-zip' });
  const fromZip = (await other.importBundle(zipped)).added;
  let refused = false;
  try { await tool.view({ command: 'view', path: '/etc/passwd' }); } catch (error) { refused = isMemoryToolError(error) && error.code; }
  document.body.dataset.result = JSON.stringify({ created, view, listed, history, files: bundle.files.length, fromZip, refused });
</script>`;

const site = servedForFile(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'idb-memory-import-map-'));
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', root, '--outDir', join(dir, 'idb-memory-tool/dist')], { stdio: 'pipe' });
  cpSync(join(root, 'node_modules/idb/build'), join(dir, 'idb/build'), { recursive: true });
  cpSync(join(root, 'node_modules/fflate/esm'), join(dir, 'fflate/esm'), { recursive: true });
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

it('runs from the published files and an import map, no build: commands, the parts loaded on first use, bundles', async () => {
  if (!browser) throw new Error('no browser');
  const page = await (await browser.newContext()).newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const fetched: string[] = [];
  page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
  await page.goto(site.url);
  await page.waitForFunction(() => document.body.dataset.result !== undefined, undefined, { timeout: 120_000 });
  const result = JSON.parse((await page.evaluate(() => document.body.dataset.result)) ?? '{}') as unknown;
  expect(errors).toEqual([]);
  expect(result).toEqual({
    created: { content: 'File created successfully at: /memories/notes.md', is_error: false },
    view: {
      content: "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n4K\t/memories\n11B\t/memories/notes.md",
      is_error: false,
    },
    listed: ['/memories/notes.md'],
    history: ['create'],
    files: 1,
    fromZip: 1,
    refused: 'invalid_path',
  });
  expect(fetched).toContain('/cdn/idb-memory-tool/dist/storage/tree-reads.js');
  expect(fetched).toContain('/cdn/idb/build/index.js');
  expect(fetched).toContain('/cdn/fflate/esm/browser.js');
  await page.context().close();
});
