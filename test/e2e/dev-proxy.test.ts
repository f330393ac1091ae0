// `npm run dev` with ANTHROPIC_API_KEY: Vite's dev server forwards /anthropic to the API and adds the key, the
// page defaults its Proxy URL to /anthropic, and the key never reaches the page. Without the variable: no proxy.
// Only the server's own pages may use it: another local page or site, and a request showing no origin, get a 403
// and nothing reaches the API; `vite preview` guards the proxy it takes over the same way. Only the calls the demo
// makes are forwarded (other paths 404, other methods 405), with none of the page's cookies or credentials.

import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startMessagesApiServer } from '../helpers/messages-api-server.js';
import { launchChromium, openDemo, recordRequests, showConnection, startDevServer } from './harness.js';
import { startOtherOrigin } from './other-origin.js';
import { startPreview } from './preview-server.js';

const KEY = 'sk-ant-dev-proxy-KEY-9876543210';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('the dev server proxy', () => {
  it('adds the key server-side; the page sends none and never sees it', async () => {
    const api = await startMessagesApiServer([{ text: 'Hello from behind the proxy.' }]);
    const dev = await startDevServer({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_PROXY_TARGET: api.url });
    const context = await browser.newContext();
    const requests = recordRequests(context);
    const bodies: Promise<string>[] = [];
    context.on('response', (response) => {
      if (response.request().resourceType() !== 'preflight') bodies.push(response.text().catch(() => ''));
    });
    try {
      const page = await openDemo(context, dev.url);
      await showConnection(page);
      expect(await page.getByLabel('Proxy URL').inputValue()).toBe('/anthropic');
      expect(await page.getByLabel('API key').inputValue()).toBe('');

      await page.getByLabel('Message').fill('hi');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByText('Hello from behind the proxy.').waitFor();

      const posts = api.requests.filter((request) => request.method === 'POST');
      expect(posts).toHaveLength(1);
      expect(posts[0]?.url).toMatch(/^\/v1\/messages(\?|$)/);
      expect(posts[0]?.headers['x-api-key']).toBe(KEY);
      expect(posts[0]?.headers['authorization']).toBeUndefined();
      expect(posts[0]?.headers['origin']).toBeUndefined();

      const origin = new URL(dev.url).origin;
      expect(requests.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
      expect(requests.some((url) => url.startsWith(`${origin}/anthropic/v1/messages`))).toBe(true);
      expect(requests.some((url) => url.includes(KEY))).toBe(false);
      // No page, script or answer the browser received holds the key.
      const received = await Promise.all(bodies);
      expect(received.length).toBeGreaterThan(3);
      expect(received.some((body) => body.includes(KEY))).toBe(false);
    } finally {
      await context.close();
      await dev.close();
      await api.close();
    }
  });

  it('says that the dev server’s key is used when a key is typed with its proxy, and sends the typed one nowhere', async () => {
    const typed = 'sk-ant-typed-by-the-user-0123456789';
    const api = await startMessagesApiServer([{ text: 'Answered with the server key.' }, { text: 'Answered with the typed key.' }]);
    const dev = await startDevServer({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_PROXY_TARGET: api.url });
    const context = await browser.newContext();
    const sent: string[] = [];
    context.on('request', (request) => sent.push(JSON.stringify([request.url(), request.headers(), request.postData()])));
    try {
      const page = await openDemo(context, dev.url);
      await showConnection(page);
      await page.getByLabel('API key').fill(typed);
      const status = page.locator('#connection-status');
      await expect.poll(() => status.textContent()).toMatch(/^Through the dev server's proxy http:\/\/[^ ]+\/anthropic, with the dev server's key: the key typed here is not sent/u);
      await page.getByLabel('Message').fill('hi');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByText('Answered with the server key.').waitFor();
      expect(api.requests.filter((request) => request.method === 'POST').map((request) => request.headers['x-api-key'])).toEqual([KEY]);
      expect(sent.some((request) => request.includes(typed))).toBe(false);

      // With the Proxy URL cleared, the typed key is the one used (the API server here stands in for api.anthropic.com).
      // Send closed the Connection popover: it is opened again.
      await showConnection(page);
      await page.getByLabel('Proxy URL').fill(api.url);
      await page.getByLabel('Proxy URL').dispatchEvent('change');
      await expect.poll(() => status.textContent()).toMatch(/^Direct to .*, with your key/u);
      await page.getByLabel('Message').fill('again');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByText('Answered with the typed key.').waitFor();
      const last = api.requests.filter((request) => request.method === 'POST').at(-1);
      expect(last?.headers['x-api-key'] ?? last?.headers['authorization']).toContain(typed);
    } finally {
      await context.close();
      await dev.close();
      await api.close();
    }
  });

  it('proxies nothing and leaves the Proxy URL empty without ANTHROPIC_API_KEY', async () => {
    const dev = await startDevServer({});
    const context = await browser.newContext();
    try {
      const page = await openDemo(context, dev.url);
      await showConnection(page);
      expect(await page.getByLabel('Proxy URL').inputValue()).toBe('');
      const status = await page.evaluate(async () => (await fetch('/anthropic/v1/messages', { method: 'POST', body: '{}' })).status);
      expect(status).toBe(404);
    } finally {
      await context.close();
      await dev.close();
    }
  });

  it('answers the demo page\'s own fetch, and refuses a page on another localhost port, no-cors or CORS, forwarding none of it', async () => {
    const api = await startMessagesApiServer([{ text: 'Own page.' }]);
    const dev = await startDevServer({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_PROXY_TARGET: api.url });
    const other = await startOtherOrigin();
    const context = await browser.newContext();
    const statuses = new Map<string, number>();
    context.on('response', (response) => {
      const request = response.request();
      if (request.method() === 'POST') statuses.set(`${request.frame().url()} ${request.url()}`, response.status());
    });
    try {
      const demo = await openDemo(context, dev.url);
      const own = await demo.evaluate(postMessage, { url: '/anthropic/v1/messages', mode: 'cors' as const, body: MESSAGE });
      expect(own).toMatchObject({ status: 200 });
      expect(own.text).toContain('Own page.');
      expect(api.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
      const seen = api.requests.length;

      const target = new URL('anthropic/v1/messages', dev.url).href;
      // The same port number on 127.0.0.1 is same-site; on localhost it is another site. Both are other origins.
      for (const origin of [`http://127.0.0.1:${other.port}/`, `http://localhost:${other.port}/`]) {
        const page = await context.newPage();
        await page.goto(origin);
        // A no-cors POST is sent and its answer hidden from the page: only the network shows the refusal.
        await page.evaluate(postMessage, { url: target, mode: 'no-cors' as const, body: MESSAGE });
        await expect.poll(() => statuses.get(`${page.url()} ${target}`)).toBe(403);
        // A CORS fetch, which Vite's CORS rules let a localhost page read: the refusal and its reason.
        statuses.delete(`${page.url()} ${target}`);
        const cors = await page.evaluate(postMessage, { url: target, mode: 'cors' as const, body: MESSAGE });
        expect(cors.status).toBe(403);
        expect(cors.text).toMatch(/^Refused: the dev server's API proxy answers only its own pages \(Sec-Fetch-Site is (same|cross)-site/u);
        await expect.poll(() => statuses.get(`${page.url()} ${target}`)).toBe(403);
        await page.close();
      }
      expect(api.requests.slice(seen)).toEqual([]);
    } finally {
      await context.close();
      await other.close();
      await dev.close();
      await api.close();
    }
  });

  it('refuses a request from outside a browser that forges another Origin, or shows none, and forwards none of it', async () => {
    const api = await startMessagesApiServer([{ text: 'Reached.' }]);
    const dev = await startDevServer({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_PROXY_TARGET: api.url });
    const own = new URL(dev.url).origin;
    try {
      for (const headers of [
        { origin: 'https://evil.example' },
        { origin: 'http://localhost:1' },
        { origin: 'null' },
        { origin: own, 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'same-site' },
        { 'sec-fetch-site': 'none' },
        {},
      ]) {
        const answer = await postFromNode(new URL('anthropic/v1/messages', dev.url), headers);
        expect(answer.status, JSON.stringify(headers)).toBe(403);
        expect(answer.text).toMatch(/^Refused: the dev server's API proxy answers only its own pages \(/u);
      }
      expect(api.requests).toEqual([]);
      // A client outside a browser that says it is the server's own page is believed: the check is the browser's word.
      expect((await postFromNode(new URL('anthropic/v1/messages', dev.url), { origin: own })).status).toBe(200);
      expect(api.requests).toHaveLength(1);
    } finally {
      await dev.close();
      await api.close();
    }
  });

  it('guards the proxy vite preview takes over from the dev server the same way', async () => {
    const api = await startMessagesApiServer([{ text: 'Reached through preview.' }]);
    const dir = await mkdtemp(join(tmpdir(), 'idb-memory-preview-'));
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>preview</title>');
    const served = await startPreview(dir, { ANTHROPIC_API_KEY: KEY, ANTHROPIC_PROXY_TARGET: api.url });
    try {
      const url = new URL('anthropic/v1/messages', served.url);
      expect((await postFromNode(url, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).status).toBe(403);
      expect(api.requests).toEqual([]);
      const own = await postFromNode(url, { origin: new URL(served.url).origin, 'sec-fetch-site': 'same-origin' });
      expect(own.status).toBe(200);
      expect(api.requests.map((request) => request.headers['x-api-key'])).toEqual([KEY]);
    } finally {
      await served.close();
      await rm(dir, { recursive: true, force: true });
      await api.close();
    }
  });
});

describe('the dev server proxy when the API is out of reach', () => {
  it('answers in the API\'s error shape naming the cause: a refused connection, a name that does not resolve', async () => {
    const refused = await closedPort();
    for (const [target, cause] of [
      [`http://127.0.0.1:${refused}`, /^Could not reach 127\.0\.0\.1:\d+: the connection was refused \(nothing listens at that address\) — .*ECONNREFUSED/u],
      // `.invalid` never resolves (RFC 2606); with no DNS at all the lookup fails too (EAI_AGAIN), said the same way.
      ['https://api.idb-memory-tool.invalid', /^Could not reach api\.idb-memory-tool\.invalid: its name does not resolve \(no network, or DNS fails here\) — .*(ENOTFOUND|EAI_AGAIN)/u],
    ] as const) {
      const dev = await startDevServer({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_PROXY_TARGET: target });
      try {
        const own = { origin: new URL(dev.url).origin, 'sec-fetch-site': 'same-origin' };
        const answer = await requestFromNode(dev.url, 'POST', '/anthropic/v1/messages', own);
        expect(answer.status, target).toBe(502);
        const body: unknown = JSON.parse(answer.text);
        expect(body, target).toMatchObject({ type: 'error', error: { type: 'proxy_error' } });
        expect((body as { error: { message: string } }).error.message, target).toMatch(cause);
        expect(answer.text).not.toContain(KEY);
      } finally {
        await dev.close();
      }
    }
  });

  it('shows the page the cause it named, not an empty 502, and offers the Offline demo', async () => {
    const dev = await startDevServer({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_PROXY_TARGET: `http://127.0.0.1:${await closedPort()}` });
    const context = await browser.newContext();
    try {
      const page = await openDemo(context, dev.url);
      await page.getByLabel('Message').fill('hi');
      await page.getByRole('button', { name: 'Send' }).click();
      // The SDK retries a 502 twice before it gives up; then the card says what the proxy said.
      const card = page.locator('#transcript').getByText('The proxy could not reach the API');
      await card.waitFor();
      const text = await page.locator('#transcript').textContent();
      expect(text).toMatch(/answered 502 from the proxy: Could not reach 127\.0\.0\.1:\d+: the connection was refused/u);
      expect(text).toContain('ECONNREFUSED');
      expect(text).toContain("Check this machine's network (and ANTHROPIC_PROXY_TARGET, if set)");
      expect(text).not.toContain('check that it is running');
      expect(await page.locator('#transcript').getByRole('button', { name: 'Play a scripted conversation offline' }).count()).toBe(1);
    } finally {
      await context.close();
      await dev.close();
    }
  });
});

describe('what the dev server proxy forwards', () => {
  it('forwards only the calls the demo makes: another path gets a 404, another method a 405, and the API sees neither', async () => {
    const upstream = await startRecordingUpstream();
    const dev = await startDevServer({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_PROXY_TARGET: upstream.url });
    const own = { origin: new URL(dev.url).origin, 'sec-fetch-site': 'same-origin' };
    try {
      const refused: [string, string, 404 | 405][] = [
        ['GET', '/anthropic/v1/messages', 405],
        ['DELETE', '/anthropic/v1/messages', 405],
        ['POST', '/anthropic/v1/models', 405],
        ['PATCH', '/anthropic/v1/memory_stores/memstore_1/memories', 405],
        ['PUT', '/anthropic/v1/memory_stores/memstore_1/memories/mem_1', 405],
        ['DELETE', '/anthropic/v1/memory_stores/memstore_1/memory_versions/memver_3/redact', 405],
        ['GET', '/anthropic/v1/memory_stores/memstore_1/memory_versions/memver_3', 404],
        ['POST', '/anthropic/v1/messages/batches', 404],
        ['POST', '/anthropic/v1/messages/count_tokens', 404],
        ['GET', '/anthropic/v1/files', 404],
        ['POST', '/anthropic/v1/memory_stores', 404],
        ['GET', '/anthropic/v1/organizations/api_keys', 404],
        ['GET', '/anthropic/v1/memory_stores/memstore_1/memories/../../../files', 404],
        ['GET', '/anthropic/v1/memory_stores/memstore_1%2F..%2F..%2Ffiles/memories', 404],
        ['POST', '/anthropic/v1/messages/', 404],
        ['POST', '/anthropic//v1/messages', 404],
        ['POST', '/anthropicv1/messages', 404],
        ['POST', '/anthropic', 404],
      ];
      for (const [method, path, status] of refused) {
        const answer = await requestFromNode(dev.url, method, path, own);
        expect(answer.status, `${method} ${path}`).toBe(status);
        expect(answer.text).toMatch(/^Refused: the dev server's API proxy forwards only /u);
        if (status === 405) expect(answer.allow, `${method} ${path}`).toMatch(/^[A-Z, ]+$/u);
      }
      expect(upstream.requests).toEqual([]);

      const allowed = [
        ['POST', '/anthropic/v1/messages?beta=true'],
        ['GET', '/anthropic/v1/models?limit=100'],
        ['GET', '/anthropic/v1/memory_stores/memstore_1/memories?depth=0&view=basic'],
        ['POST', '/anthropic/v1/memory_stores/memstore_1/memories'],
        ['GET', '/anthropic/v1/memory_stores/memstore_1/memories/mem_2?view=full'],
        ['POST', '/anthropic/v1/memory_stores/memstore_1/memories/mem_2'],
        ['DELETE', '/anthropic/v1/memory_stores/memstore_1/memories/mem_2'],
        ['GET', '/anthropic/v1/memory_stores/memstore_1/memory_versions?memory_id=mem_2&limit=100'],
        ['POST', '/anthropic/v1/memory_stores/memstore_1/memory_versions/memver_3/redact'],
      ] as const;
      for (const [method, path] of allowed) {
        expect((await requestFromNode(dev.url, method, path, own)).status, `${method} ${path}`).toBe(200);
      }
      expect(upstream.requests.map(({ method, url }) => `${method} ${url}`)).toEqual(
        allowed.map(([method, path]) => `${method} ${path.slice('/anthropic'.length)}`),
      );
    } finally {
      await dev.close();
      await upstream.close();
    }
  });

  it('sends the API none of the page\'s cookies or credentials, only the headers it needs, and passes no cookie back', async () => {
    const upstream = await startRecordingUpstream();
    const dev = await startDevServer({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_PROXY_TARGET: upstream.url });
    const context = await browser.newContext();
    try {
      await context.addCookies([{ name: 'dev_session', value: 'cookie-of-the-dev-host', url: dev.url }]);
      const page = await openDemo(context, dev.url);
      const statuses = await page.evaluate(async (body) => {
        const sent = { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'anthropic-beta': 'test-beta' };
        const page = { authorization: 'Bearer page-token', 'x-api-key': 'page-key', 'x-custom': 'page-header' };
        const calls = [
          fetch('/anthropic/v1/messages', { method: 'POST', headers: { ...sent, ...page }, body }),
          fetch('/anthropic/v1/memory_stores/memstore_1/memories?depth=0', { headers: { ...sent, ...page } }),
          fetch('/anthropic/v1/memory_stores/memstore_1/memories/mem_1', { method: 'DELETE', headers: { ...sent, ...page }, credentials: 'include' }),
        ];
        return (await Promise.all(calls)).map((response) => response.status);
      }, MESSAGE);
      expect(statuses).toEqual([200, 200, 200]);
      expect(upstream.requests).toHaveLength(3);
      const needed = ['host', 'connection', 'content-type', 'content-length', 'transfer-encoding', 'accept', 'accept-encoding', 'anthropic-version', 'anthropic-beta', 'x-api-key'];
      for (const { method, headers } of upstream.requests) {
        expect(headers['cookie'], method).toBeUndefined();
        expect(headers['x-api-key'], method).toBe(KEY);
        expect(headers['anthropic-beta'], method).toBe('test-beta');
        expect(Object.keys(headers).filter((name) => !needed.includes(name)), method).toEqual([]);
      }
      expect(JSON.stringify(upstream.requests)).not.toContain('cookie-of-the-dev-host');
      // The API's Set-Cookie is dropped on the way back: the dev host holds only the cookie it had.
      expect((await context.cookies(dev.url)).map((cookie) => cookie.name)).toEqual(['dev_session']);
    } finally {
      await context.close();
      await dev.close();
      await upstream.close();
    }
  });
});

/** A loopback port nothing listens on (a server's, closed again): a connection to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((closed) => server.close(() => closed()));
  return port;
}

/** A loopback stand-in for the API: records every request and answers 200 with a JSON body and a Set-Cookie. */
async function startRecordingUpstream(): Promise<{
  url: string;
  requests: { method: string; url: string; headers: Record<string, string | string[] | undefined> }[];
  close(): Promise<void>;
}> {
  const requests: { method: string; url: string; headers: Record<string, string | string[] | undefined> }[] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: { ...req.headers } });
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'upstream_session=from-the-api; Path=/' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((closed) => {
      server.closeAllConnections();
      server.close(() => closed());
    }),
  };
}

/** A request from Node with exactly this method, raw path (not normalized) and headers, and an empty JSON body. */
function requestFromNode(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; text: string; allow: string | undefined }> {
  const { hostname, port } = new URL(base);
  return new Promise((done, fail) => {
    const request = httpRequest({ hostname, port, method, path, headers: { 'content-type': 'application/json', ...headers } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => done({ status: response.statusCode ?? 0, text, allow: response.headers.allow }));
    });
    request.on('error', fail);
    request.end(method === 'GET' || method === 'DELETE' ? undefined : '{}');
  });
}

const MESSAGE = JSON.stringify({ model: 'claude-sonnet-5-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });

/** Runs in a page: a POST of a one-message request; a no-cors answer is opaque (status 0, no text). */
async function postMessage(sent: { url: string; mode: 'cors' | 'no-cors'; body: string }): Promise<{ status: number; text: string }> {
  const { url, mode, body } = sent;
  // no-cors may send only a simple request (text/plain, no custom header); a CORS one with JSON is asked about first.
  const headers: Record<string, string> =
    mode === 'no-cors' ? { 'content-type': 'text/plain' } : { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' };
  const response = await fetch(url, { method: 'POST', mode, headers, body });
  return { status: response.status, text: mode === 'no-cors' ? '' : await response.text() };
}

/** A POST from Node with exactly `headers` (node:http adds Host and Content-Length, nothing else). */
function postFromNode(url: URL, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((done, fail) => {
    const request = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => done({ status: response.statusCode ?? 0, text }));
    });
    request.on('error', fail);
    request.end(MESSAGE);
  });
}
