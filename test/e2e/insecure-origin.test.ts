// Bundles on a non-secure origin in real Chromium: a page built from test/e2e/pages/insecure-origin.html, served over
// plain http:// as http://memory.test:<port>/ (the host name mapped to 127.0.0.1 inside Chromium, so no DNS), where
// `crypto.subtle` is undefined. Its exports must carry the SHA-256 Node computes, import back, and name the same files
// and hashes as on http://127.0.0.1 (a secure context, where Web Crypto hashes).

import { createHash } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, serveTemporary, servedForFile } from './harness.js';
import type { PageContext, RoundTrip } from './pages/insecure-origin.js';

const PAGES = resolve(import.meta.dirname, 'pages');
const HOST = 'memory.test';
const EXPORTED_AT = '2026-01-02T03:04:05.678Z';

/** The test page and the library, built as an app would ship them, on a plain static server. */
const site = servedForFile(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'idb-memory-insecure-'));
  await build({
    configFile: false,
    root: PAGES,
    base: './',
    mode: 'production',
    logLevel: 'silent',
    build: { outDir: dir, emptyOutDir: true, rolldownOptions: { input: join(PAGES, 'insecure-origin.html') } },
  });
  return serveTemporary(dir, '/insecure/');
});

let browser: Browser | undefined;
beforeAll(async () => {
  // Chromium resolves memory.test to the loopback server itself: the origin is http://memory.test, not localhost.
  browser = await launchChromium([`--host-resolver-rules=MAP ${HOST} 127.0.0.1`]);
});
afterAll(async () => {
  await browser?.close();
});

/** The test page on `host` (the static server's port), ready. */
async function openOn(host: string): Promise<Page> {
  if (!browser) throw new Error('no browser');
  const url = new URL('insecure-origin.html', site.url);
  url.hostname = host;
  const page = await (await browser.newContext()).newPage();
  page.setDefaultTimeout(120_000);
  await page.goto(url.href);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  return page;
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** Files that cross a hashing batch, a 16,384-unit slice of the fallback, and every UTF-8 width. */
const FILES: Record<string, string> = {
  '/memories/notes/todo.md': '- ship it\n',
  '/memories/ノート/日本語.md': 'こんにちは 👋 café\n',
  '/memories/empty.md': '',
  '/memories/big.md': 'é漢😀 line\n'.repeat(20_000),
};
// More than a hashing batch (50), with more and more ZWJ sequences.
for (let i = 0; i < 60; i++) FILES[`/memories/many/${String(i).padStart(2, '0')}.md`] = `${i} ${'👨‍💻'.repeat(i)}\n`;

/** FILES written, exported, imported elsewhere and exported again, in `page`. */
function roundTrip(page: Page): Promise<RoundTrip> {
  return page.evaluate(([files, at]) => window.insecure.roundTrip(files, at), [FILES, EXPORTED_AT] as const);
}

interface Bundle {
  files: { path: string; content: string; sha256: string }[];
}

describe('bundles on a non-secure http:// origin', () => {
  it('has no crypto.subtle, yet exports the hashes Node computes, imports back and refuses a damaged bundle', async () => {
    const page = await openOn(HOST);
    const context: PageContext = await page.evaluate(() => window.insecure.context());
    expect(context).toEqual({
      origin: expect.stringMatching(/^http:\/\/memory\.test:\d+$/u),
      isSecureContext: false,
      subtleIsUndefined: true,
    });

    const result = await roundTrip(page);
    const bundle = JSON.parse(result.exported) as Bundle;
    expect(bundle.files.map((file) => file.path).sort()).toEqual(Object.keys(FILES).sort());
    for (const file of bundle.files) {
      expect(file.content, file.path).toBe(FILES[file.path]);
      expect(file.sha256, file.path).toBe(sha256(FILES[file.path] ?? ''));
    }
    expect(result.report.addedPaths).toHaveLength(Object.keys(FILES).length);
    expect(result.reexported).toBe(result.exported);
    expect(result.damaged).toMatchObject({
      isMemoryToolError: true,
      code: 'invalid_bundle',
      name: 'MemoryToolError',
    });
    const first = bundle.files[0];
    expect(result.damaged.message).toContain(`which hashes to ${sha256(`${first?.content ?? ''} (edited)`)}`);
  });

  it('exports the same files and hashes as on http://127.0.0.1, a secure context where Web Crypto hashes', async () => {
    const insecure = await openOn(HOST);
    const secure = await openOn('127.0.0.1');
    const context = await secure.evaluate(() => window.insecure.context());
    expect(context).toMatchObject({ isSecureContext: true, subtleIsUndefined: false });
    const [onInsecure, onSecure] = await Promise.all([roundTrip(insecure), roundTrip(secure)]);
    // The times differ (each page writes its own files); the paths, contents and hashes may not.
    const files = ({ exported }: RoundTrip): string[][] =>
      (JSON.parse(exported) as Bundle).files.map((file) => [file.path, sha256(file.content), file.sha256]);
    expect(files(onInsecure)).toEqual(files(onSecure));
  });
});
