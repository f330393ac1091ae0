// The demo's Connection popover in Chromium: when it closes (Escape, a click outside, a good Connect, Send), where it
// stands (never over the Memory pane at desktop width), and what the page says of the key: not checked until a
// models call or a turn answers, then working or refused, a 401 in a conversation included.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { builtDemoForFile, openDemo, showConnection, withDiskProfile } from './harness.js';

const site = builtDemoForFile();
const GOOD_KEY = 'sk-ant-good-0123456789';

/**
 * A loopback API that knows one key: `GET /v1/models` lists one model for it and answers 401 to any other;
 * `POST /v1/messages` answers 401 to every key, as the API does once a key is revoked. CORS as the API answers it.
 */
async function startKeyApi(): Promise<{ url: string; paths: string[]; close(): Promise<void> }> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    const cors = {
      'access-control-allow-origin': req.headers.origin ?? '*',
      'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
      'access-control-allow-methods': 'GET, POST',
      'access-control-expose-headers': 'request-id',
    };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors).end();
      return;
    }
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    paths.push(`${req.method} ${path}`);
    req.resume();
    const json = { ...cors, 'content-type': 'application/json', 'request-id': 'req_test' };
    // The SDK sends the key as `x-api-key` or as a bearer token, by version.
    const good = req.headers['x-api-key'] === GOOD_KEY || req.headers.authorization === `Bearer ${GOOD_KEY}`;
    if (req.method === 'GET' && path === '/v1/models' && good) {
      const model = { type: 'model', id: 'claude-sonnet-5-5', display_name: 'Claude Sonnet', created_at: '2026-01-01T00:00:00Z' };
      res.writeHead(200, json).end(JSON.stringify({ data: [model], has_more: false, first_id: model.id, last_id: model.id }));
      return;
    }
    res.writeHead(401, json).end(JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    paths,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

const isOpen = (page: Page) => page.locator('#connection').evaluate((popover) => popover.matches(':popover-open'));
const stateOf = async (page: Page) => {
  const state = page.locator('#connection-state');
  return { text: await state.textContent(), state: await state.getAttribute('data-state') };
};
/** The dot's fill: green only once a call has said the key works. */
const dot = (page: Page) => page.locator('#connection-state').evaluate((element) => getComputedStyle(element, '::before').backgroundColor);

describe('the Connection popover', () => {
  it('closes on Escape, on a click outside and on Send, and never covers the Memory pane at desktop width', async () => {
    await withDiskProfile(async (context) => {
      const page = await openDemo(context, site.url);
      await page.setViewportSize({ width: 1280, height: 800 });
      const button = page.getByRole('button', { name: /^Connection/u });

      await button.click();
      expect(await isOpen(page)).toBe(true);
      // Opened to type into: the key's field has the focus.
      expect(await page.getByLabel('API key').evaluate((field) => field === document.activeElement)).toBe(true);
      const popover = (await page.locator('#connection').boundingBox())!;
      const memory = (await page.locator('#memory').boundingBox())!;
      expect(popover.x + popover.width).toBeLessThanOrEqual(memory.x);
      // Nor the message box and the buttons under it.
      const message = (await page.getByLabel('Message').boundingBox())!;
      expect(popover.y + popover.height).toBeLessThanOrEqual(message.y);

      await page.keyboard.press('Escape');
      expect(await isOpen(page)).toBe(false);
      // The focus goes back to the button, not to <body>.
      expect(await button.evaluate((element) => element === document.activeElement)).toBe(true);

      await button.click();
      expect(await isOpen(page)).toBe(true);
      await page.getByRole('heading', { name: 'Memory', exact: true }).click();
      expect(await isOpen(page)).toBe(false);

      // Enter in the message box sends, and the popover, left open meanwhile, closes.
      await showConnection(page);
      await page.getByLabel('Proxy URL').fill('http://127.0.0.1:9/');
      await page.getByLabel('Message').press('Enter');
      expect(await isOpen(page)).toBe(true);
      await page.getByLabel('Message').fill('hello?');
      await page.getByLabel('Message').press('Enter');
      await expect.poll(() => isOpen(page)).toBe(false);
    });
  });

  it('says the key is not checked until Connect asks the API, then working (closing), or refused (staying open)', async () => {
    const api = await startKeyApi();
    try {
      await withDiskProfile(async (context) => {
        const page = await openDemo(context, site.url);
        await page.setViewportSize({ width: 1280, height: 800 });
        expect(await stateOf(page)).toEqual({ text: 'Not connected', state: 'none' });
        const grey = await dot(page);

        await showConnection(page);
        await page.getByLabel('Proxy URL').fill(api.url);
        await page.getByLabel('API key').fill('sk-ant-wrong-0123456789');
        // Typed is not checked: no green before a call answered.
        expect(await stateOf(page)).toEqual({ text: 'your key: not checked', state: 'unchecked' });
        expect(await dot(page)).toBe(grey);

        await page.getByRole('button', { name: 'Connect', exact: true }).click();
        await expect.poll(() => stateOf(page)).toEqual({ text: 'your key: refused', state: 'refused' });
        expect(await isOpen(page)).toBe(true);
        expect(await page.locator('#connection-status').textContent()).toContain(`Refused: GET ${api.url}/v1/models answered 401.`);
        expect(api.paths).toEqual(['GET /v1/models']);

        // Another key forgets what was known of the last one.
        await page.getByLabel('API key').fill(GOOD_KEY);
        expect(await stateOf(page)).toEqual({ text: 'your key: not checked', state: 'unchecked' });
        await page.getByRole('button', { name: 'Connect', exact: true }).click();
        await expect.poll(() => stateOf(page)).toEqual({ text: 'your key: working', state: 'working' });
        await expect.poll(() => isOpen(page)).toBe(false);
        expect(await dot(page)).not.toBe(grey);
      });
    } finally {
      await api.close();
    }
  });

  it('turns a working key to refused when a conversation answers 401', async () => {
    const api = await startKeyApi();
    try {
      await withDiskProfile(async (context) => {
        const page = await openDemo(context, site.url);
        await showConnection(page);
        await page.getByLabel('Proxy URL').fill(api.url);
        await page.getByLabel('API key').fill(GOOD_KEY);
        await page.getByRole('button', { name: 'Connect', exact: true }).click();
        await expect.poll(() => stateOf(page)).toEqual({ text: 'your key: working', state: 'working' });

        await page.getByLabel('Message').fill('Remember me');
        await page.getByRole('button', { name: 'Send', exact: true }).click();
        await page.getByRole('alert').filter({ hasText: 'Bad API key' }).waitFor();
        await expect.poll(() => stateOf(page)).toEqual({ text: 'your key: refused', state: 'refused' });
        expect(api.paths).toEqual(['GET /v1/models', 'POST /v1/messages']);
      });
    } finally {
      await api.close();
    }
  });
});
