// The built demo as an offline app: on the first visit its service worker caches the page and every chunk of the
// build; with the server gone, a reload opens the page and the Offline demo plays to its end (Chromium and Firefox).
// A newer build is offered ("A new version is ready" with Reload, keyboard reachable, axe clean), never forced.

import { appendFile, cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { firefoxPath } from '../../vite.config.js';
import { buildDemo, openDemo, recordRequests, serveStatic, serveTemporary, withDiskProfile } from './harness.js';
import type { Served } from './harness.js';

/** The last words of the Offline demo's first script: the new conversation answered from the memory. */
const STORY_END = 'My note from our last conversation says: “Drinks green tea, no sugar”.';
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

let built: { dir: string; remove(): Promise<void> };
/** The files the built worker caches, as its PRECACHE says. */
let precached: string[];
beforeAll(async () => {
  built = await buildDemo();
  const worker = await readFile(join(built.dir, 'sw.js'), 'utf8');
  const json = /^const PRECACHE = (\{.*\});$/mu.exec(worker)?.[1];
  precached = (JSON.parse(json ?? '{}') as { files?: string[] }).files ?? [];
});
afterAll(async () => {
  await built?.remove();
});

/** Waits until the demo's idle work is done: its code prefetched and the service worker active, holding the build. */
async function offlineReady(page: Page): Promise<void> {
  await page.waitForSelector('body[data-prefetched="true"]');
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? 'none')).toBe('activated');
}

/** Every URL in the page's caches. */
function cachedUrls(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) urls.push(...(await (await caches.open(name)).keys()).map((request) => request.url));
    return urls.sort();
  });
}

describe('the built demo as an offline app, in Chromium', () => {
  it('caches the page and every chunk on the first visit; with the server gone a reload opens it and the Offline demo plays', async () => {
    let site: Served | undefined = await serveStatic(built.dir);
    try {
      await withDiskProfile(async (context) => {
        const requests = recordRequests(context);
        const page = await openDemo(context, site?.url ?? '');
        expect(await page.locator('link[rel="manifest"]').getAttribute('href')).toBe('./manifest.webmanifest');
        await offlineReady(page);
        // Every file of the build, the lazy chunks (the Offline demo's, the SDK's) and the manifest's icons among them.
        const base = site?.url ?? '';
        expect(precached.some((file) => /^assets\/play-.*\.js$/u.test(file))).toBe(true);
        expect(precached).toContain('manifest.webmanifest');
        expect(await cachedUrls(page)).toEqual(precached.map((file) => new URL(file, base).href).sort());
        const manifest = await page.evaluate(async () => (await fetch('manifest.webmanifest')).json() as Promise<{ display?: string; icons?: unknown[] }>);
        expect(manifest).toMatchObject({ display: 'standalone' });
        expect(manifest.icons?.length).toBeGreaterThan(2);

        // The network is cut: the server is gone, its port closed.
        await site?.close();
        site = undefined;
        await page.reload();
        await page.waitForSelector('body[data-ready="true"]');
        await page.getByRole('button', { name: 'Offline demo' }).click();
        await page.getByText(STORY_END, { exact: false }).waitFor();
        await expect.poll(() => page.getByRole('button', { name: 'Send' }).isEnabled()).toBe(true);
        // Nothing but the demo's own files was asked for, and nothing of an API.
        expect(requests.filter((url) => !url.startsWith(new URL(base).origin))).toEqual([]);
        expect(requests.filter((url) => url.includes('/anthropic') || url.includes('/v1/'))).toEqual([]);
      });
    } finally {
      await site?.close();
    }
  });

  it('offers a newer build with a Reload the keyboard reaches, reloads only when pressed, and then runs it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'idb-memory-demo-update-'));
    await cp(built.dir, dir, { recursive: true });
    const site = await serveTemporary(dir, '/demo/');
    try {
      await withDiskProfile(async (context) => {
        const page = await openDemo(context, site.url);
        await offlineReady(page);
        expect(await page.locator('#update-notice').count()).toBe(0);
        // A new build: another worker script (its files are the same here; its bytes are not).
        await appendFile(join(dir, 'sw.js'), '\n// the next build\n');
        await page.reload();
        await page.waitForSelector('body[data-ready="true"]');
        // Half a message typed: the notice waits for the person, it reloads nothing by itself.
        await page.getByLabel('Message').fill('half a thought');
        await page.evaluate(() => Reflect.set(window, '__samePage', true));
        const notice = page.locator('#update-notice');
        await expect.poll(() => notice.getByRole('status').textContent()).toBe('A new version is ready.');
        expect(await page.evaluate(() => Reflect.get(window, '__samePage'))).toBe(true);
        expect(await page.getByLabel('Message').inputValue()).toBe('half a thought');
        expect(await violations(page)).toEqual([]);

        // Reached by Tab from where the person was typing (it is the page's last tab stop), then pressed with Enter.
        const onReload = () => page.evaluate(() => document.activeElement?.closest('#update-notice') != null && document.activeElement.textContent === 'Reload');
        await page.getByLabel('Message').focus();
        for (let presses = 0; presses < 300 && !(await onReload()); presses++) await page.keyboard.press('Tab');
        expect(await onReload()).toBe(true);
        await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
        await page.waitForSelector('body[data-ready="true"]');
        expect(await page.evaluate(() => Reflect.get(window, '__samePage'))).toBeUndefined();
        // The new worker controls the page; nothing waits, nothing is offered.
        await expect.poll(() => page.evaluate(async () => ((await navigator.serviceWorker.getRegistration())?.waiting ?? null) === null)).toBe(true);
        expect(await page.locator('#update-notice').count()).toBe(0);
        expect(await page.evaluate(async () => (await (await fetch('sw.js')).text()).includes('the next build'))).toBe(true);
      });
    } finally {
      await site.close();
    }
  });
});

describe('the built demo as an offline app, in Firefox', () => {
  it('reloads with the server gone and plays the Offline demo to its end', async () => {
    let site: Served | undefined = await serveStatic(built.dir);
    const profile = await mkdtemp(join(tmpdir(), 'idb-memory-firefox-offline-'));
    const browser = await puppeteer.launch({ browser: 'firefox', executablePath: firefoxPath, headless: true, userDataDir: profile, timeout: 120_000, protocolTimeout: 600_000 });
    try {
      // A window of its own: Firefox clamps a background tab's timers.
      const page = await browser.newPage({ type: 'window' });
      page.setDefaultTimeout(120_000);
      await page.goto(site.url);
      await page.waitForSelector('body[data-prefetched="true"]');
      await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated');
      await site.close();
      site = undefined;
      await page.reload();
      await page.waitForSelector('body[data-ready="true"]');
      await page.evaluate(() => document.getElementById('offline-demo')?.click());
      await page.waitForFunction((end: string) => document.getElementById('transcript')?.textContent?.includes(end) === true, {}, STORY_END);
    } finally {
      await browser.close();
      await site?.close();
      await rm(profile, { recursive: true, force: true }).catch(() => undefined);
    }
  });
});

/** axe-core's violations on the page (WCAG A and AA, best practices), in light and dark, as `rule at target` lines. */
async function violations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(await readFile(AXE, 'utf8'));
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    found.push(
      ...(await page.evaluate(async () => {
        const axe = Reflect.get(window, 'axe') as { run(context: Document, options: object): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown[] }> }> }> };
        const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
        const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, rules: { 'target-size': { enabled: true } }, resultTypes: ['violations'] });
        return result.violations.flatMap((v) => v.nodes.map((node) => `${v.id} at ${node.target.map(String).join(' ')}`));
      })).map((line) => `${colorScheme}: ${line}`),
    );
  }
  await page.emulateMedia({ colorScheme: null });
  return found;
}
