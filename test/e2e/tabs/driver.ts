// The engine-neutral tab driver of the multi-tab e2e tests (tabs.test.ts, storm.test.ts): a browser on a profile of
// its own, its tabs, and what each engine's driver cannot do. Implemented by chromium.ts (playwright-core),
// firefox.ts (puppeteer-core over WebDriver BiDi) and webkit.ts (classic WebDriver over fetch).

import { afterAll } from 'vitest';

export type EngineName = 'chromium' | 'firefox' | 'webkit';

/** What a test may need beyond tabs: a SIGKILL of the whole browser and a relaunch on its profile, or going offline. */
export type Capability = 'kill' | 'offline';

/** How long a {@link Tab.waitFor} may take by default: it only bounds a hang, on a machine whose cores are busy. */
export const WAIT_MS = 120_000;

/**
 * One tab. A function given to `evaluate` or `waitFor` is sent as its source text, so it may use only its argument
 * and the page's globals; the argument and the result travel as JSON (WebKit's WebDriver carries nothing richer).
 * Evaluations may overlap, in one tab and across tabs: each driver makes that so.
 */
export interface Tab {
  evaluate<R>(fn: () => R | Promise<R>): Promise<R>;
  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  /** Resolves once `fn(arg)` is truthy in the page; rejects after `timeoutMs`. */
  waitFor<A>(fn: (arg: A) => unknown, arg: A, timeoutMs?: number): Promise<void>;
  /** The tab's network off or on (in Chromium the whole browser's, which is one context). */
  setOffline(offline: boolean): Promise<void>;
  close(): Promise<void>;
}

/** A browser on a profile of its own (on disk, but WebKit's: see webkit.ts). */
export interface TabBrowser {
  /** A new tab on `url`, answered once the page has loaded. */
  openTab(url: string): Promise<Tab>;
  /** Ends the browser at once, as a crash would (SIGKILL): no tab, connection or file is closed first. */
  kill(): Promise<void>;
  /** Starts the browser again on the same profile, after {@link kill}. */
  relaunch(): Promise<void>;
  /** Ends the browser and everything it started, and removes its profile; again is a no-op. */
  close(): Promise<void>;
}

export interface Engine {
  readonly name: EngineName;
  /** As the test names say it. */
  readonly label: string;
  /** What this engine's driver cannot do, and why: a test that needs it is skipped with the reason in its name. */
  readonly cannot: Partial<Record<Capability, string>>;
  launch(): Promise<TabBrowser>;
}

/** The browsers of the file that are still open: a test that timed out may not have reached its `finally`. */
const open = new Set<TabBrowser>();

afterAll(async () => {
  const left = [...open];
  open.clear();
  await Promise.all(left.map((browser) => browser.close()));
});

/** `body` on a fresh browser of `engine`, closed (its profile removed) after it whatever happens. */
export async function withBrowser(engine: Engine, body: (browser: TabBrowser) => Promise<void>): Promise<void> {
  const browser = await engine.launch();
  open.add(browser);
  try {
    await body(browser);
  } finally {
    open.delete(browser);
    await browser.close();
  }
}

/** `ms` milliseconds; for polling loops. */
export const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));
