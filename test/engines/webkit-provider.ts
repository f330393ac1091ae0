// A Vitest browser provider for WebKit (WebKitGTK's MiniBrowser) with three classic WebDriver calls over fetch: new
// session, navigate, delete session. It starts Xvfb and WebKitWebDriver itself (./webkit-driver.ts) and stops them
// when Vitest closes. Vitest's runner in the page talks to Vitest over its own WebSocket, so navigating is enough.

import { defineBrowserProvider } from '@vitest/browser';
import type { BrowserProvider, BrowserProviderOption } from 'vitest/node';
import { startWebKitDriver, webkitCapabilities } from './webkit-driver.js';
import type { WebKitDriver } from './webkit-driver.js';

async function webDriver(driver: WebKitDriver, method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${driver.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    // Closing must end even if the driver no longer answers: the driver and Xvfb are stopped after it.
    ...(method === 'DELETE' ? { signal: AbortSignal.timeout(15_000) } : {}),
  });
  const { value } = (await response.json()) as { value: { error?: string; message?: string } | null };
  if (!response.ok) throw new Error(`WebKitWebDriver ${method} ${path}: ${value?.error}: ${value?.message}`);
  return value;
}

class WebKitProvider implements BrowserProvider {
  readonly name = 'webkit-webdriver';
  readonly supportsParallelism = false;
  #driver: Promise<WebKitDriver> | undefined;
  #session: Promise<string> | undefined;
  #closed = false;

  getCommandsContext(): Record<string, unknown> {
    return {};
  }

  async openPage(_sessionId: string, url: string): Promise<void> {
    if (this.#closed) throw new Error('[vitest] The WebKit provider was closed.');
    this.#driver ??= startWebKitDriver();
    const driver = await this.#driver;
    this.#session ??= webDriver(driver, 'POST', '/session', { capabilities: { alwaysMatch: webkitCapabilities } }).then(
      (value) => (value as { sessionId: string }).sessionId,
    );
    const session = await this.#session;
    await webDriver(driver, 'POST', `/session/${session}/url`, { url });
  }

  async close(): Promise<void> {
    this.#closed = true;
    const driver = await this.#driver?.catch(() => undefined);
    const session = await this.#session?.catch(() => undefined);
    this.#driver = this.#session = undefined;
    if (!driver) return;
    try {
      if (session !== undefined) await webDriver(driver, 'DELETE', `/session/${session}`);
    } finally {
      await driver.stop();
    }
  }
}

export function webkitWebDriver(): BrowserProviderOption {
  return defineBrowserProvider({
    name: 'webkit-webdriver',
    supportedBrowser: ['webkit'],
    options: {},
    providerFactory: () => new WebKitProvider(),
  });
}
