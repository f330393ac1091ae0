// Chromium and Firefox on a browser profile folder of their own, stopped cleanly (every file closed) and started
// again on it, with a look for bytes anywhere in that folder: for tests of what stays on disk (erase-on-disk.test.ts)
// and of pages closed part-way (atomic-history.test.ts).

import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page as ChromiumPage } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import type { Browser, Page as FirefoxPage } from 'puppeteer-core';
import { firefoxPath } from '../../vite.config.js';
import { diskProfile } from './harness.js';
import { sleep } from './tabs/driver.js';

/** A page; a function given to `evaluate` travels as source text, its argument and result as JSON. */
export interface DiskPage {
  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  close(): Promise<void>;
}

export interface DiskBrowser {
  readonly dir: string;
  /** A new page on `url`, answered once `document.body.dataset.ready` is `'true'`. */
  openPage(url: string): Promise<DiskPage>;
  /** Ends the browser as a person quitting it would: it closes its files first. */
  stop(): Promise<void>;
  /** Starts it again on the same profile. */
  start(): Promise<void>;
  /** Ends it and removes the profile. */
  remove(): Promise<void>;
}

export interface DiskEngine {
  readonly label: 'Chromium' | 'Firefox';
  launch(): Promise<DiskBrowser>;
}

const READY = () => document.body.dataset.ready === 'true';
const WAIT_MS = 120_000;

async function chromiumLaunch(): Promise<DiskBrowser> {
  const profile = await diskProfile();
  let context: BrowserContext | undefined = await profile.launch();
  const page = (p: ChromiumPage): DiskPage => ({
    evaluate: (fn, arg) => p.evaluate(fn as Parameters<ChromiumPage['evaluate']>[0], arg) as never,
    close: () => p.close(),
  });
  return {
    dir: profile.dir,
    async openPage(url) {
      if (!context) throw new Error('Chromium is stopped');
      const p = await context.newPage();
      p.setDefaultTimeout(WAIT_MS);
      await p.goto(url);
      await p.waitForFunction(READY);
      return page(p);
    },
    async stop() {
      const open = context;
      context = undefined;
      await open?.close();
    },
    async start() {
      context = await profile.launch();
    },
    remove: () => profile.close(),
  };
}

/** Puppeteer puts the profile's own prefs back once Firefox has exited, without being awaited (see tabs/firefox.ts). */
async function prefsRestored(dir: string): Promise<void> {
  const pending = () => ['user.js.puppeteer', 'prefs.js.puppeteer'].some((name) => existsSync(join(dir, name)));
  const end = Date.now() + WAIT_MS;
  while (pending() && Date.now() < end) await sleep(50);
}

async function firefoxLaunch(): Promise<DiskBrowser> {
  const dir = await mkdtemp(join(tmpdir(), 'idb-memory-firefox-disk-'));
  const launch = () =>
    puppeteer.launch({ browser: 'firefox', executablePath: firefoxPath, headless: true, userDataDir: dir, timeout: WAIT_MS, protocolTimeout: 600_000 });
  let browser: Browser | undefined = await launch();
  const page = (p: FirefoxPage): DiskPage => ({
    evaluate: (fn, arg) => p.evaluate(fn as (arg: unknown) => unknown, arg) as never,
    close: () => p.close(),
  });
  return {
    dir,
    async openPage(url) {
      if (!browser) throw new Error('Firefox is stopped');
      // A window of its own: Firefox clamps a background tab's timers.
      const p = await browser.newPage({ type: 'window' });
      p.setDefaultTimeout(WAIT_MS);
      await p.goto(url);
      await p.waitForFunction(READY);
      return page(p);
    },
    async stop() {
      const open = browser;
      browser = undefined;
      await open?.close();
      await prefsRestored(dir);
    },
    async start() {
      browser = await launch();
    },
    async remove() {
      const open = browser;
      browser = undefined;
      await open?.close().catch(() => undefined);
      await prefsRestored(dir);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export const DISK_ENGINES: readonly DiskEngine[] = [
  { label: 'Chromium', launch: chromiumLaunch },
  { label: 'Firefox', launch: firefoxLaunch },
];

async function filesBelow(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await filesBelow(path)));
    else if (entry.isFile()) found.push(path);
  }
  return found;
}

/** Where each text occurs in the files below `dir`, as Latin-1 / UTF-8 (ASCII texts) or UTF-16LE bytes. */
export async function findInFolder(dir: string, texts: readonly string[]): Promise<Map<string, string[]>> {
  const hits = new Map<string, string[]>(texts.map((text) => [text, []]));
  for (const file of await filesBelow(dir)) {
    const bytes = await readFile(file).catch(() => undefined);
    if (!bytes) continue;
    for (const text of texts) {
      for (const [encoding, needle] of [
        ['latin1', Buffer.from(text, 'latin1')],
        ['utf16le', Buffer.from(text, 'utf16le')],
      ] as const) {
        if (bytes.includes(needle)) hits.get(text)?.push(`${file.slice(dir.length)} (${encoding})`);
      }
    }
  }
  return hits;
}
