// Firefox ESR's tabs through puppeteer-core over WebDriver BiDi (no geckodriver): pages of one browser on a profile
// folder on disk, killed with SIGKILL and launched again on that folder.

import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
import type { Browser, Page } from 'puppeteer-core';
import { firefoxPath } from '../../../vite.config.js';
import type { Engine, Tab, TabBrowser } from './driver.js';
import { WAIT_MS, sleep } from './driver.js';

class FirefoxTab implements Tab {
  constructor(private readonly page: Page) {}

  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    return this.page.evaluate(fn as (arg: unknown) => unknown, arg) as Promise<R>;
  }

  async waitFor<A>(fn: (arg: A) => unknown, arg: A, timeoutMs = WAIT_MS): Promise<void> {
    await this.page.waitForFunction(fn as (arg: unknown) => unknown, { timeout: timeoutMs }, arg);
  }

  setOffline(offline: boolean): Promise<void> {
    return this.page.setOfflineMode(offline);
  }

  close(): Promise<void> {
    return this.page.close();
  }
}

function start(dir: string): Promise<Browser> {
  return puppeteer.launch({
    browser: 'firefox',
    executablePath: firefoxPath,
    headless: true,
    userDataDir: dir,
    timeout: WAIT_MS,
    // A storm is one evaluate that runs for minutes on a busy machine; puppeteer's default gives up after 3.
    protocolTimeout: 900_000,
  });
}

/**
 * Puppeteer puts the profile's own prefs back (`*.puppeteer` renamed over them) once the process has exited, without
 * being awaited: a launch on the folder before that fails copying them.
 */
async function prefsRestored(dir: string): Promise<void> {
  const pending = () => ['user.js.puppeteer', 'prefs.js.puppeteer'].some((name) => existsSync(join(dir, name)));
  const end = Date.now() + WAIT_MS;
  while (pending() && Date.now() < end) await sleep(50);
}

async function launch(): Promise<TabBrowser> {
  const dir = await mkdtemp(join(tmpdir(), 'idb-memory-firefox-profile-'));
  let browser: Browser | undefined;
  const stop = async (): Promise<void> => {
    const running = browser;
    browser = undefined;
    await running?.close().catch(() => undefined);
  };
  try {
    browser = await start(dir);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    async openTab(url) {
      if (!browser) throw new Error('Firefox is not running (killed and not relaunched?)');
      // A window of its own, not a background tab: Firefox clamps a background tab's timers to one a second.
      const page = await browser.newPage({ type: 'window' });
      page.setDefaultTimeout(WAIT_MS);
      await page.goto(url);
      return new FirefoxTab(page);
    },
    async kill() {
      const killed = browser;
      const child = killed?.process();
      if (!killed || !child) throw new Error('no Firefox process to kill');
      const alive = child.exitCode === null && child.signalCode === null;
      const exited = alive ? new Promise<void>((done) => child.once('exit', () => done())) : Promise.resolve();
      child.kill('SIGKILL');
      await exited;
      browser = undefined;
      await killed.disconnect().catch(() => undefined);
      await prefsRestored(dir);
    },
    async relaunch() {
      await stop();
      browser = await start(dir);
    },
    async close() {
      await stop();
      await prefsRestored(dir);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export const firefoxEngine: Engine = { name: 'firefox', label: 'Firefox', cannot: {}, launch };
