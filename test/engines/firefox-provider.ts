// A Vitest browser provider for Firefox on puppeteer-core, over WebDriver BiDi (Firefox speaks it itself: no
// geckodriver). Vitest's runner in the page talks to Vitest over its own WebSocket, so the provider only opens the
// page at Vitest's URL and closes the browser at the end. No `userEvent`, locators or module mocking: the suite uses none.

import { defineBrowserProvider } from '@vitest/browser';
import type { Browser, LaunchOptions, Page } from 'puppeteer-core';
import type { BrowserProvider, BrowserProviderOption, TestProject } from 'vitest/node';

export interface FirefoxProviderOptions {
  launchOptions?: LaunchOptions;
}

export function puppeteerFirefox(options: FirefoxProviderOptions = {}): BrowserProviderOption<FirefoxProviderOptions> {
  return defineBrowserProvider({
    name: 'puppeteer-firefox',
    supportedBrowser: ['firefox'],
    options,
    providerFactory: (project) => new FirefoxProvider(project, options),
  });
}

class FirefoxProvider implements BrowserProvider {
  readonly name = 'puppeteer-firefox';
  // Vitest then runs the project's files one after another in one page.
  readonly supportsParallelism = false;
  #browser: Promise<Browser> | undefined;
  readonly #pages = new Map<string, Page>();
  #closed = false;

  constructor(
    private readonly project: TestProject,
    private readonly options: FirefoxProviderOptions,
  ) {}

  #launch(): Promise<Browser> {
    // Puppeteer's own temporary profile, on disk (as a user's browser keeps IndexedDB), removed on close.
    this.#browser ??= import('puppeteer-core').then(({ default: puppeteer }) =>
      puppeteer.launch({ browser: 'firefox', headless: this.project.config.browser.headless, ...this.options.launchOptions }),
    );
    return this.#browser;
  }

  getCommandsContext(sessionId: string): Record<string, unknown> {
    return { page: this.#pages.get(sessionId) };
  }

  async openPage(sessionId: string, url: string): Promise<void> {
    if (this.#closed) throw new Error('[vitest] The Firefox provider was closed.');
    const browser = await this.#launch();
    await this.#pages.get(sessionId)?.close();
    const page = await browser.newPage();
    this.#pages.set(sessionId, page);
    await page.goto(url, { timeout: 0 });
  }

  async close(): Promise<void> {
    this.#closed = true;
    const browser = this.#browser;
    this.#browser = undefined;
    this.#pages.clear();
    await (await browser?.catch(() => undefined))?.close();
  }
}
