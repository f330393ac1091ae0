// No page of another origin may frame the demo (clickjacking of Undo, Import, Expire): the dev server and
// `vite preview` send `Content-Security-Policy: frame-ancestors 'none'` and `X-Frame-Options: DENY` with every page
// and file, and Chromium then loads nothing of the demo in a frame on another local origin.

import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Frame } from 'playwright-core';
import { buildDemo, launchChromium, startDevServer } from './harness.js';
import type { Served } from './harness.js';
import { startOtherOrigin } from './other-origin.js';
import { startPreview } from './preview-server.js';

let browser: Browser;
let built: Awaited<ReturnType<typeof buildDemo>>;
let dev: Served;
let preview: Served;
let other: Served;
/** A script of each server's demo: `demo/main.ts` on the dev server, the built entry under preview. */
const scripts = new Map<Served, string>();

beforeAll(async () => {
  browser = await launchChromium();
  built = await buildDemo();
  dev = await startDevServer({});
  preview = await startPreview(built.dir);
  other = await startOtherOrigin();
  const entry = (await readdir(join(built.dir, 'assets'))).find((name) => name.endsWith('.js'));
  if (!entry) throw new Error('the build wrote no script');
  scripts.set(dev, 'demo/main.ts').set(preview, `assets/${entry}`);
});
afterAll(async () => {
  await browser?.close();
  await Promise.all([dev?.close(), preview?.close(), other?.close()]);
  await built?.remove();
});

const SERVERS = ['the dev server', 'vite preview'] as const;
/** The server a test names (they start before the tests, after the names are read). */
const named = (name: (typeof SERVERS)[number]): Served => (name === 'the dev server' ? dev : preview);

describe('the demo refuses to be framed', () => {
  it.each(SERVERS)('%s sends frame-ancestors none and X-Frame-Options DENY with the page and its files', async (name) => {
    const served = named(name);
    for (const path of ['', 'index.html', scripts.get(served) ?? '']) {
      const response = await fetch(new URL(path, served.url));
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-security-policy'), path).toBe("frame-ancestors 'none'");
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      await response.arrayBuffer();
    }
  });

  it.each(SERVERS)('Chromium loads nothing of the demo in a frame on another origin, from %s', async (name) => {
    const served = named(name);
    const context = await browser.newContext();
    try {
      // The frame itself works: the other origin's own page loads in it.
      const own = await frameIn(context, other.url, other.url);
      expect(own.frame.url()).toBe(other.url);
      expect(await own.frame.textContent('p')).toBe('elsewhere');

      const framed = await frameIn(context, other.url, served.url);
      expect(framed.frame.url()).toBe('chrome-error://chromewebdata/');
      // The page was fetched (its headers said no); nothing it would load was asked for, so none of it ran.
      const origin = new URL(served.url).origin;
      expect(framed.requests.filter((url) => url.startsWith(origin))).toEqual([served.url]);
    } finally {
      await context.close();
    }
  });
});

/** A page at `framer` that frames `target` and waits for the frame's load event (fired for a refused frame too). */
async function frameIn(context: BrowserContext, framer: string, target: string): Promise<{ frame: Frame; requests: string[] }> {
  const page = await context.newPage();
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(framer);
  await page.evaluate(
    (src) =>
      new Promise<void>((done) => {
        const frame = document.createElement('iframe');
        frame.addEventListener('load', () => done(), { once: true });
        frame.src = src;
        document.body.append(frame);
      }),
    target,
  );
  const frame = page.frames().find((one) => one !== page.mainFrame());
  if (!frame) throw new Error('no frame');
  return { frame, requests };
}
