// The dev server's API proxy (`npm run dev` with ANTHROPIC_API_KEY): what it forwards, to whom, with which headers,
// and how it answers when the API cannot be reached (the cause named in the API's error shape, not an empty 502).

import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Plugin } from 'vite';
import { upstreamFailure } from './upstream-failure.js';

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
                // Before Vite's own handler (added after `configure`), which would answer an empty 502 and leave the
                // cause in the terminal: the page is told it, as the API tells its errors. Once an answer has begun
                // nothing more can be said, and Vite's handler only logs.
                proxy.on('error', (error, _req, res) => {
                  if (!('req' in res) || res.headersSent || res.writableEnded) return;
                  const failure = upstreamFailure(error, target);
                  res.writeHead(failure.status, { 'content-type': 'application/json', 'x-content-type-options': 'nosniff' });
                  res.end(JSON.stringify(failure.body));
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
