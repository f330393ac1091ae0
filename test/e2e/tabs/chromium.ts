// Chromium's tabs through playwright-core: pages of one persistent context on a profile on disk (harness.ts's
// diskProfile, which also kills it by the browser process's id).

import type { BrowserContext, Page } from 'playwright-core';
import { diskProfile } from '../harness.js';
import type { Engine, Tab, TabBrowser } from './driver.js';
import { WAIT_MS } from './driver.js';

/** Playwright's page function type, which these plain functions satisfy. */
type PlaywrightFn = Parameters<Page['evaluate']>[0];

class ChromiumTab implements Tab {
  constructor(
    private readonly page: Page,
    private readonly context: BrowserContext,
  ) {}

  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    return this.page.evaluate(fn as PlaywrightFn, arg) as Promise<R>;
  }

  async waitFor<A>(fn: (arg: A) => unknown, arg: A, timeoutMs = WAIT_MS): Promise<void> {
    await this.page.waitForFunction(fn as PlaywrightFn, arg, { timeout: timeoutMs });
  }

  setOffline(offline: boolean): Promise<void> {
    return this.context.setOffline(offline);
  }

  close(): Promise<void> {
    return this.page.close();
  }
}

async function launch(): Promise<TabBrowser> {
  const profile = await diskProfile();
  let context: BrowserContext;
  try {
    context = await profile.launch();
  } catch (error) {
    await profile.close();
    throw error;
  }
  return {
    async openTab(url) {
      const page = await context.newPage();
      page.setDefaultTimeout(WAIT_MS);
      await page.goto(url);
      return new ChromiumTab(page, context);
    },
    kill: () => profile.kill(),
    async relaunch() {
      context = await profile.launch();
    },
    close: () => profile.close(),
  };
}

export const chromiumEngine: Engine = { name: 'chromium', label: 'Chromium', cannot: {}, launch };
