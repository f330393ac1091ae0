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
 * `npm run dev` with ANTHROPIC_API_KEY set: the dev server forwards the demo's API calls under `/anthropic/` to the API
 * (or to ANTHROPIC_PROXY_TARGET) and adds the key there, so the page holds none. The page is told only *that* a key is
 * configured (`__DEV_PROXY__`), never the key. Nothing is proxied in a build or under vitest's own server. Only the
 * server's own pages may use it (`foreignRequest`): any other page, local or not, would spend the key. Only the calls
 * the demo makes go through (`PROXY_ROUTES`), with only the headers the API needs (`FORWARDED_HEADERS`): never the
 * page's cookies for the dev host, nor a cookie back.
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
                  // Cookies, the page's own auth, Origin (without it the API sees the server-to-server call this now
                  // is), Referer, the browser's fetch metadata: none of it goes on.
                  for (const name of proxyReq.getHeaderNames()) {
                    if (!FORWARDED_HEADERS.has(name.toLowerCase())) proxyReq.removeHeader(name);
                  }
                  // The key goes on here, server-side.
                  proxyReq.setHeader('x-api-key', key);
                });
                proxy.on('proxyRes', (proxyRes) => {
                  delete proxyRes.headers['set-cookie'];
                });
              },
            },
          },
        },
      };
    },
    // Before Vite's proxy (added after these hooks); `vite preview` takes the same proxy, so it gets the same guard.
    configureServer(server) {
      if (enabled) server.middlewares.use(guardProxy);
    },
    configurePreviewServer(server) {
      if (enabled) server.middlewares.use(guardProxy);
    },
  };
}

const PROXY_PATH = '/anthropic';

/**
 * The calls the demo makes, and all the proxy forwards: chat (`POST /v1/messages`), the model list, and the Memory
 * Stores calls of its sync (the SDK's `beta.memoryStores.memories`: list, create, retrieve, update, delete; and
 * `memoryVersions` list and redact, which a forget under sync sends). Ids are
 * the API's (`memstore_…`, `mem_…`), letters, digits, `_` and `-`, so no `..` or encoded `/` passes. Another path
 * gets a 404, another method a 405.
 */
const PROXY_ROUTES: readonly { path: RegExp; methods: readonly string[] }[] = [
  { path: /^\/v1\/messages$/u, methods: ['POST'] },
  { path: /^\/v1\/models$/u, methods: ['GET'] },
  { path: /^\/v1\/memory_stores\/[\w-]+\/memories$/u, methods: ['GET', 'POST'] },
  { path: /^\/v1\/memory_stores\/[\w-]+\/memories\/[\w-]+$/u, methods: ['GET', 'POST', 'DELETE'] },
  { path: /^\/v1\/memory_stores\/[\w-]+\/memory_versions$/u, methods: ['GET'] },
  { path: /^\/v1\/memory_stores\/[\w-]+\/memory_versions\/[\w-]+\/redact$/u, methods: ['POST'] },
];

/** The request headers the API needs; every other is dropped before forwarding (the proxy adds `x-api-key`). */
const FORWARDED_HEADERS = new Set([
  'host',
  'connection',
  'content-type',
  'content-length',
  'transfer-encoding',
  'accept',
  'accept-encoding',
  'anthropic-version',
  'anthropic-beta',
]);

/** Why a request under the proxy's path is not a call the demo makes: a 404, or a 405 with the methods allowed. */
function unknownCall(url: string, method = ''): { status: 404 } | { status: 405; allow: string } | undefined {
  const path = url.slice(PROXY_PATH.length).split('?')[0] ?? '';
  const route = url.startsWith(`${PROXY_PATH}/`) ? PROXY_ROUTES.find((known) => known.path.test(path)) : undefined;
  if (route === undefined) return { status: 404 };
  return route.methods.includes(method) ? undefined : { status: 405, allow: route.methods.join(', ') };
}

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

/**
 * A 403 with a short reason for a request to the proxy that is not from the server's own pages, a 404 or 405 for one
 * that is not a call the demo makes; none of them is forwarded.
 */
function guardProxy(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  // Vite's proxy takes every URL that starts with its path; so does the guard.
  const url = req.url ?? '';
  if (!url.startsWith(PROXY_PATH)) {
    next();
    return;
  }
  const foreign = foreignRequest(req.headers, 'encrypted' in req.socket);
  const unknown = foreign === undefined ? unknownCall(url, req.method) : undefined;
  if (foreign === undefined && unknown === undefined) {
    next();
    return;
  }
  const headers = { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' };
  if (foreign !== undefined) {
    res.writeHead(403, headers);
    res.end(`Refused: the dev server's API proxy answers only its own pages (${foreign}).\n`);
  } else if (unknown?.status === 404) {
    res.writeHead(404, headers);
    res.end("Refused: the dev server's API proxy forwards only the API calls the demo makes.\n");
  } else if (unknown?.status === 405) {
    res.writeHead(405, { ...headers, allow: unknown.allow });
    res.end(`Refused: the dev server's API proxy forwards only ${unknown.allow} there.\n`);
  }
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
