// One config for the demo (dev server, static build) and the five test projects: `node` (fake-indexeddb), the same
// suite on each engine's real IndexedDB in `chromium`, `firefox` and `webkit`, and `e2e` (the demo driven by Playwright).

import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { anthropicDevProxy } from './demo/vite/anthropic-dev-proxy.js';
import { offlineApp } from './demo/vite/offline-app.js';
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
 * No page of another origin may frame the demo (clickjacking of Undo, Import, Expire): on the dev server and `vite
 * preview`; a host serving the build must send the same header, which a meta tag cannot carry. Not under vitest, whose
 * browser mode frames each test and applies `server.headers` to it.
 */
const FRAME_HEADERS = { 'Content-Security-Policy': "frame-ancestors 'none'", 'X-Frame-Options': 'DENY' };

function noFraming(): Plugin {
  return {
    name: 'no-framing',
    config: (_config, { mode }) =>
      mode === 'test' ? {} : { server: { headers: FRAME_HEADERS }, preview: { headers: FRAME_HEADERS } },
  };
}

/** Tests that use Node APIs (the SDK's file-system tool, an HTTP server) and so cannot run in a page. */
const nodeOnly = ['test/**/*.node.test.ts'];
/** The browser providers and the reporter: not tests. */
const notTests = ['test/engines/**'];

/**
 * Test files in Node (the `node` and `e2e` projects) run two at a time, from one queue. Every project names the same
 * number: Vitest runs projects of different worker counts (or with file parallelism off) one after another, and on
 * two cores its default, one, would run all of `node` before `e2e` starts, and the engines only after `node`.
 */
const WORKERS = 2;

/**
 * The browser projects run the same files, one at a time (`browser.fileParallelism`): Chromium's persistent profile
 * is one browser context, which Vitest uses only then, and the Firefox and WebKit providers keep one page.
 * `maxWorkers` only puts them in the same run as `node` and `e2e` (see WORKERS).
 */
const browserSuite = {
  include: ['test/**/*.test.ts'],
  exclude: ['test/e2e/**', ...notTests, ...nodeOnly],
  maxWorkers: WORKERS,
  // The files run one after another in one frame, not each in a fresh one: a fresh frame cost about 2 s a file in
  // Chromium and Firefox (about 5 minutes of a CI run), its modules loaded again. So a file restores what it changes
  // (stubbed globals: vi.unstubAllGlobals) and names its databases apart (test/helpers/fresh-tool.ts); the node project
  // still isolates each file, so a test that needs fresh modules (a part loaded on first use) runs there.
  isolate: false,
};

export default defineConfig({
  // Relative asset URLs, so dist/demo works from any folder of any static host.
  base: './',
  plugins: [
    anthropicDevProxy(),
    noFraming(),
    clearSiteData(),
    // The build as an installable offline app: manifest tags, and sw.js from this worker (demo/pwa/README.md).
    offlineApp({ worker: fileURLToPath(new URL('./demo/pwa/service-worker.ts', import.meta.url)) }),
  ],
  // The manifest and icons (offline-app.ts): the demo's, so the library's browser build never copies them.
  publicDir: 'demo/public',
  build: {
    outDir: 'dist/demo',
    emptyOutDir: true,
    // Every browser the demo supports preloads modules but Safari before 17, where a missing preload is a wait, not a
    // failure: the polyfill's half kilobyte stays out of the first load.
    modulePreload: { polyfill: false },
    // The page opens the tool at once, init() loads the write path beside the database, and the page lists the tree and
    // the history: for the demo those parts and what they share with the main entry are one chunk, not a handful.
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'memory-tool', test: /\/src\/(tool\/write-part|storage\/tree-reads|history\/read-history)\.ts$/ }] } } },
  },
  // Prebundled before the browser tests start: found mid-run, Vite reloads the page and the test with it.
  optimizeDeps: { include: ['idb', 'fflate', 'ai', '@ai-sdk/anthropic', 'react', 'react-dom/client', 'react/jsx-runtime'] },
  test: {
    // A poll or a wait ends as soon as its condition holds: its timeout only bounds a hang, so it is long enough for a
    // machine whose cores are busy with other work (expect.poll's default is 1 s).
    expect: { poll: { timeout: 60_000 } },
    // The same for tests and hooks in `node` and the three engines (`e2e` sets its own 300 s): Vitest's 5 s (Node)
    // and 15 s (browser mode) fail a test that is only slow, when other work holds the cores (a 500-file journal
    // test did, in Chromium and in Node). A hung test still fails, two minutes on; the heaviest name their own bound.
    testTimeout: 120_000,
    hookTimeout: 120_000,
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
          maxWorkers: WORKERS,
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
            fileParallelism: false,
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
            fileParallelism: false,
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
            fileParallelism: false,
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
          // Node drives real browsers: the demo (built and on the dev server), tabs and storms in Chromium, Firefox and
          // WebKit (test/e2e/tabs/), workers; each file starts its own servers (ports 0), browsers and Xvfb.
          name: 'e2e',
          environment: 'node',
          provide: { engine: 'node' },
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
          // Two files at once (WORKERS, shared with `node`): each starts its own servers (port 0), browsers on
          // temporary profiles and Xvfb (-displayfd), and no test bounds how long anything takes but a hang.
          maxWorkers: WORKERS,
        },
      },
    ],
  },
});
