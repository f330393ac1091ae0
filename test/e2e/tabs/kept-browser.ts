// One browser per engine kept across a file's tests (storm.test.ts), in place of driver.ts's browser per test: a launch
// and a close cost more than a test's page loads on a busy machine. Each test gets it with no tabs open, and a test
// that failed never hands it on.

import { afterAll } from 'vitest';
import type { Engine, Tab, TabBrowser } from './driver.js';

export interface KeptBrowsers {
  /**
   * `body` on `engine`'s kept browser (launched if there is none), the tabs it opens closed after it. The browser is
   * kept for the next test only if `passed(result)`; if `body` threw, failed or timed out it is closed instead, so a
   * broken browser cannot fail the next test, nor can a test that timed out share it with the next one.
   */
  run<T>(engine: Engine, body: (browser: TabBrowser) => Promise<T>, passed: (result: T) => boolean): Promise<T>;
}

/** `browser`, and the tabs opened through it, all closed by `closeAll`. */
function tabsClosedAfter(browser: TabBrowser): { browser: TabBrowser; closeAll(): Promise<void> } {
  const opened: Tab[] = [];
  return {
    browser: {
      openTab: async (url) => {
        const tab = await browser.openTab(url);
        opened.push(tab);
        return tab;
      },
      kill: () => browser.kill(),
      relaunch: () => browser.relaunch(),
      close: () => browser.close(),
    },
    // A tab the test closed itself may refuse a second close.
    closeAll: async () => {
      for (const tab of opened) await tab.close().catch(() => undefined);
    },
  };
}

/** Kept browsers for the tests of the file it is called in, all closed after them. */
export function keptBrowsersForFile(): KeptBrowsers {
  /** Between tests: a test takes its engine's out while it runs and puts it back only if it passed. */
  const idle = new Map<Engine, TabBrowser>();
  /** Every browser launched and not yet closed, idle or in a test (one that timed out may never close its own). */
  const launched = new Set<TabBrowser>();
  afterAll(async () => {
    const left = [...launched];
    launched.clear();
    idle.clear();
    await Promise.all(left.map((browser) => browser.close()));
  });
  return {
    async run(engine, body, passed) {
      let browser = idle.get(engine);
      idle.delete(engine);
      if (!browser) {
        browser = await engine.launch();
        launched.add(browser);
      }
      const tabs = tabsClosedAfter(browser);
      let kept = false;
      try {
        const result = await body(tabs.browser);
        kept = passed(result);
        return result;
      } finally {
        await tabs.closeAll();
        // Not if afterAll closed it already (the file ended while this test still ran).
        if (kept && launched.has(browser)) idle.set(engine, browser);
        else {
          launched.delete(browser);
          await browser.close();
        }
      }
    },
  };
}
