// One config for the demo (dev server, static build) and the five test projects: `node` (fake-indexeddb), the same
// suite on each engine's real IndexedDB in `chromium`, `firefox` and `webkit`, and `e2e` (the demo driven by Playwright).

import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
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
 * configured (`__DEV_PROXY__`), never the key. Nothing is proxied in a build or under vitest's own server. Only the
 * server's own pages may use it (`foreignRequest`): any other page, local or not, would spend the key.
 */
export function anthropicDevProxy(): Plugin {
  let enabled = false;
  return {
    name: 'anthropic-dev-proxy',
    config(_config, { command, mode }) {
      const key = process.env.ANTHROPIC_API_KEY;
      const on = command === 'serve' && mode !== 'test' && key !== undefined && key !== '';
      enabled = on;
      const define = { __DEV_PROXY__: JSON.stringify(on) };
      if (!on) return { define };
      const target = process.env.ANTHROPIC_PROXY_TARGET ?? 'https://api.anthropic.com';
      return {
        define,
        server: {
          proxy: {
            [PROXY_PATH]: {
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
    // Before Vite's proxy (added after these hooks); `vite preview` takes the same proxy, so it gets the same guard.
    configureServer(server) {
      if (enabled) server.middlewares.use(refuseForeignRequests);
    },
    configurePreviewServer(server) {
      if (enabled) server.middlewares.use(refuseForeignRequests);
    },
  };
}

const PROXY_PATH = '/anthropic';

/**
 * Why a request to the proxy is not from the server's own pages, or undefined when it is. `Sec-Fetch-Site` must be
 * `same-origin` (a page elsewhere sends `cross-site` or `same-site`, even in `no-cors` mode; `none`, a typed address,
 * is no page's call), and `Origin`, when sent, must be this server's as the browser addressed it (Vite refuses hosts it
 * does not know, so `Host` is not a rebound name). Browsers without Sec-Fetch-Site (Safari before 16.4) send Origin on
 * every POST; a request with neither shows nothing, and is refused.
 */
function foreignRequest(headers: IncomingHttpHeaders, encrypted: boolean): string | undefined {
  const site = headers['sec-fetch-site'];
  const origin = headers.origin;
  if (site !== undefined && site !== 'same-origin') return `Sec-Fetch-Site is ${site}, not same-origin`;
  if (origin !== undefined) {
    const own = `${encrypted ? 'https' : 'http'}://${headers.host ?? headers[':authority']}`;
    if (origin.toLowerCase() !== own.toLowerCase()) return `Origin ${origin} is not this server's`;
  } else if (site === undefined) {
    return 'neither Sec-Fetch-Site nor Origin shows it comes from this server';
  }
  return undefined;
}

/** A 403 with a short reason for a request to the proxy that is not from the server's own pages; never forwarded. */
function refuseForeignRequests(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  // Vite's proxy takes every URL that starts with its path; so does the guard.
  const why = req.url?.startsWith(PROXY_PATH) ? foreignRequest(req.headers, 'encrypted' in req.socket) : undefined;
  if (why === undefined) {
    next();
    return;
  }
  res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
  res.end(`Refused: the dev server's API proxy answers only its own pages (${why}).\n`);
}

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
  plugins: [anthropicDevProxy(), noFraming(), clearSiteData()],
  build: { outDir: 'dist/demo', emptyOutDir: true },
  // Prebundled before the browser tests start: found mid-run, Vite reloads the page and the test with it.
  optimizeDeps: { include: ['idb', 'fflate', 'ai', '@ai-sdk/anthropic', 'react', 'react-dom/client', 'react/jsx-runtime'] },
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
          // Node drives real browsers: the demo (built and on the dev server), tabs and storms in Chromium, Firefox and
          // WebKit (test/e2e/tabs/), workers; each file starts its own servers (ports 0), browsers and Xvfb.
          name: 'e2e',
          environment: 'node',
          provide: { engine: 'node' },
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 300_000,
          // One browser at a time is enough load next to the browser projects.
          fileParallelism: false,
        },
      },
    ],
  },
});
