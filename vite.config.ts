// One config for the demo (dev server, static build) and the five test projects: `node` (fake-indexeddb), the same
// suite on each engine's real IndexedDB in `chromium`, `firefox` and `webkit`, and `e2e` (the demo driven by Playwright).

import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { clearSiteData } from './test/engines/clear-site-data.js';
import { puppeteerFirefox } from './test/engines/firefox-provider.js';
import { webkitWebDriver } from './test/engines/webkit-provider.js';

/** Debian's Chromium; test tools cannot download browsers here. CHROMIUM_PATH overrides it. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/**
 * The `chromium` project's browser profile: on disk, as a user's browser keeps IndexedDB (Playwright's default
 * context is off the record, its IndexedDB in memory). Emptied before each run (test/chromium-profile.ts).
 */
export const chromiumProfile = fileURLToPath(new URL('./node_modules/.cache/idb-memory-tool-chromium-profile', import.meta.url));

/** Root needs --no-sandbox; the rest keep Chromium off a network it cannot reach. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

/** Debian's Firefox ESR, driven over WebDriver BiDi by puppeteer-core. FIREFOX_PATH overrides it. */
export const firefoxPath = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
// WebKit: Debian's MiniBrowser and WebKitWebDriver (WEBKIT_MINIBROWSER, WEBKIT_DRIVER override them), under Xvfb
// (test/engines/webkit-driver.ts).

/**
 * `npm run dev` with ANTHROPIC_API_KEY set: the dev server forwards `/anthropic/*` to the API (or to
 * ANTHROPIC_PROXY_TARGET) and adds the key there, so the page holds none. The page is told only *that* a key is
 * configured (`__DEV_PROXY__`), never the key. Nothing is proxied in a build or under vitest's own server.
 */
export function anthropicDevProxy(): Plugin {
  return {
    name: 'anthropic-dev-proxy',
    config(_config, { command, mode }) {
      const key = process.env.ANTHROPIC_API_KEY;
      const enabled = command === 'serve' && mode !== 'test' && key !== undefined && key !== '';
      const define = { __DEV_PROXY__: JSON.stringify(enabled) };
      if (!enabled) return { define };
      const target = process.env.ANTHROPIC_PROXY_TARGET ?? 'https://api.anthropic.com';
      return {
        define,
        server: {
          proxy: {
            '/anthropic': {
              target,
              changeOrigin: true,
              rewrite: (path) => path.replace(/^\/anthropic/, ''),
              configure: (proxy) => {
                proxy.on('proxyReq', (proxyReq) => {
                  // The key goes on here, server-side; whatever the page sent for auth is dropped.
                  proxyReq.removeHeader('authorization');
                  proxyReq.setHeader('x-api-key', key);
                  // Without Origin the API treats this as the server-to-server call it now is.
                  proxyReq.removeHeader('origin');
                });
              },
            },
          },
        },
      };
    },
  };
}

/** Tests that use Node APIs (the SDK's file-system tool, an HTTP server) and so cannot run in a page. */
const nodeOnly = ['test/**/*.node.test.ts'];
/** The browser providers and the reporter: not tests. */
const notTests = ['test/engines/**'];

/**
 * The browser projects run the same files, one at a time: Chromium's persistent profile is one browser context,
 * which Vitest uses only then, and the Firefox and WebKit providers keep one page.
 */
const browserSuite = {
  include: ['test/**/*.test.ts'],
  exclude: ['test/e2e/**', ...notTests, ...nodeOnly],
  fileParallelism: false,
};

export default defineConfig({
  // Relative asset URLs, so dist/demo works from any folder of any static host.
  base: './',
  plugins: [anthropicDevProxy(), clearSiteData()],
  build: { outDir: 'dist/demo', emptyOutDir: true },
  // Prebundled before the browser tests start: found mid-run, Vite reloads the page and the test with it.
  optimizeDeps: { include: ['ai', '@ai-sdk/anthropic', 'react', 'react-dom/client', 'react/jsx-runtime'] },
  test: {
    // A poll or a wait ends as soon as its condition holds: its timeout only bounds a hang, so it is long enough for a
    // machine whose cores are busy with other work (expect.poll's default is 1 s).
    expect: { poll: { timeout: 60_000 } },
    // After the run: the tests per project (engine), and every skipped test's name, which says why.
    reporters: ['default', './test/engines/engine-counts.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          provide: { engine: 'node' },
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', ...notTests],
          setupFiles: ['fake-indexeddb/auto'],
        },
      },
      {
        extends: true,
        test: {
          name: 'chromium',
          provide: { engine: 'chromium' },
          ...browserSuite,
          globalSetup: ['test/chromium-profile.ts'],
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              persistentContext: chromiumProfile,
              launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
      {
        extends: true,
        test: {
          name: 'firefox',
          provide: { engine: 'firefox' },
          ...browserSuite,
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            // Puppeteer's temporary profile, on disk, removed when the browser closes.
            provider: puppeteerFirefox({ launchOptions: { executablePath: firefoxPath } }),
            instances: [{ browser: 'firefox' }],
          },
        },
      },
      {
        extends: true,
        test: {
          name: 'webkit',
          provide: { engine: 'webkit' },
          ...browserSuite,
          browser: {
            enabled: true,
            // Xvfb is the headless part: MiniBrowser needs a display.
            headless: true,
            screenshotFailures: false,
            // MiniBrowser under automation keeps IndexedDB in memory, a fresh store for each run.
            provider: webkitWebDriver(),
            instances: [{ browser: 'webkit' }],
          },
        },
      },
      {
        extends: true,
        test: {
          // The demo driven by Playwright, built and on the dev server, with its own servers and Chromium (ports 0).
          name: 'e2e',
          environment: 'node',
          provide: { engine: 'node' },
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
          // One Chromium at a time is enough load next to the chromium project.
          fileParallelism: false,
        },
      },
    ],
  },
});
