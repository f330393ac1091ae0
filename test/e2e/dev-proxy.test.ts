// `npm run dev` with ANTHROPIC_API_KEY: Vite's dev server forwards /anthropic to the API and adds the key, the
// page defaults its Proxy URL to /anthropic, and the key never reaches the page. Without the variable: no proxy.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startMessagesApiServer } from '../helpers/messages-api-server.js';
import { launchChromium, openDemo, recordRequests, startDevServer } from './harness.js';

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
      await page.getByLabel('API key').fill(typed);
      const status = page.locator('#connection-status');
      await expect.poll(() => status.textContent()).toMatch(/^Through the dev server's proxy http:\/\/[^ ]+\/anthropic, with the dev server's key: the key typed here is not sent/u);
      await page.getByLabel('Message').fill('hi');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByText('Answered with the server key.').waitFor();
      expect(api.requests.filter((request) => request.method === 'POST').map((request) => request.headers['x-api-key'])).toEqual([KEY]);
      expect(sent.some((request) => request.includes(typed))).toBe(false);

      // With the Proxy URL cleared, the typed key is the one used (the API server here stands in for api.anthropic.com).
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
      expect(await page.getByLabel('Proxy URL').inputValue()).toBe('');
      const status = await page.evaluate(async () => (await fetch('/anthropic/v1/messages', { method: 'POST', body: '{}' })).status);
      expect(status).toBe(404);
    } finally {
      await context.close();
      await dev.close();
    }
  });
});
