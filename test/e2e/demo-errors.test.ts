// The demo's failed messages say what to do: the URL tried; a closed port, a missing network, a CORS refusal and a
// refused key told apart; the dev server without a key never tried; and the message that was not sent stays in
// the box. The built demo (and `npm run dev` without a key) driven in Chromium.

import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startMessagesApiServer } from '../helpers/messages-api-server.js';
import { builtDemoForFile, launchChromium, openDemo, recordRequests, showConnection, startDevServer, withDiskProfile } from './harness.js';
import { startOtherOrigin } from './other-origin.js';

const site = builtDemoForFile();

/** A port on 127.0.0.1 that nothing listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

/** The alert whose heading is `title`, once its probe (if any) has told it. */
function alertTitled(page: Page, title: string) {
  return page.getByRole('alert').filter({ has: page.locator('.who', { hasText: title }) });
}

describe('a message that fails', () => {
  it('names the closed port it tried, says nothing listens there, and keeps the message', async () => {
    const port = await closedPort();
    await withDiskProfile(async (context) => {
      const page = await openDemo(context, site.url);
      await showConnection(page);
      await page.getByLabel('Proxy URL').fill(`http://127.0.0.1:${port}`);
      await send(page, 'Are you there?');
      const alert = alertTitled(page, `Nothing answers at http://127.0.0.1:${port}`);
      await alert.waitFor();
      expect(await alert.textContent()).toContain(`POST http://127.0.0.1:${port}/v1/messages got no answer`);
      expect(await alert.textContent()).toContain('no server listens there (a closed port or a wrong address)');
      expect(await alert.textContent()).not.toContain('CORS');
      expect(await page.getByLabel('Message').inputValue()).toBe('Are you there?');
    });
  });

  it('says the browser is offline, offers the Offline demo, and that plays', async () => {
    const api = await startMessagesApiServer([{ text: 'never sent' }]);
    try {
      await withDiskProfile(async (context) => {
        const page = await openDemo(context, site.url);
        await page.waitForSelector('body[data-prefetched="true"]');
        await showConnection(page);
        await page.getByLabel('Proxy URL').fill(api.url);
        await context.setOffline(true);
        await send(page, 'Hello?');
        const alert = alertTitled(page, 'No network');
        await alert.waitFor();
        expect(await alert.textContent()).toContain(`This browser is offline, so POST ${new URL('/v1/messages', api.url).href} was not reached.`);
        expect(await page.getByLabel('Message').inputValue()).toBe('Hello?');
        await alert.getByRole('button', { name: 'Play a scripted conversation offline' }).click();
        await page.getByText('Noted: green tea, no sugar.').waitFor();
      });
    } finally {
      await api.close();
    }
  });

  it('tells a server that answers but not to this page (CORS) from one that does not answer', async () => {
    const other = await startOtherOrigin();
    try {
      await withDiskProfile(async (context) => {
        const page = await openDemo(context, site.url);
        await showConnection(page);
        await page.getByLabel('Proxy URL').fill(other.url);
        await send(page, 'hi');
        const alert = alertTitled(page, 'Blocked by the browser (CORS)');
        await alert.waitFor();
        const origin = new URL(other.url).origin;
        expect(await alert.textContent()).toContain(`${origin} answers, but the browser kept its answer to POST ${origin}/v1/messages from this page`);
        expect(await alert.textContent()).toContain('Access-Control-Allow-Origin');
      });
    } finally {
      await other.close();
    }
  });

  it('names the URL that refused the key, and keeps the message to send again', async () => {
    const api = await startMessagesApiServer([{ text: 'Now it works.' }]);
    try {
      await withDiskProfile(async (context) => {
        const page = await openDemo(context, site.url);
        await showConnection(page);
        await page.getByLabel('API key').fill('sk-ant-wrong-0123456789');
        await page.getByLabel('Proxy URL').fill(api.url);
        api.failNext(401);
        await send(page, 'Remember me');
        const alert = alertTitled(page, 'Bad API key');
        await alert.waitFor();
        expect(await alert.textContent()).toContain(`POST ${new URL('/v1/messages', api.url).href} answered 401: the API did not accept the key typed in Connection.`);
        expect(await page.getByLabel('Message').inputValue()).toBe('Remember me');
        // Sent again as it stands, it goes through; the box is empty then.
        await page.getByRole('button', { name: 'Send' }).click();
        await page.getByText('Now it works.').waitFor();
        expect(await page.getByLabel('Message').inputValue()).toBe('');
      });
    } finally {
      await api.close();
    }
  });

  it('names a 404 as nothing forwarding to the API, not "Something went wrong"', async () => {
    await withDiskProfile(async (context) => {
      const page = await openDemo(context, site.url);
      // The static host serves the demo under /demo/: /anthropic there is nobody's proxy.
      await showConnection(page);
      await page.getByLabel('Proxy URL').fill('/anthropic');
      await send(page, 'hi');
      const alert = alertTitled(page, 'Not found (404)');
      await alert.waitFor();
      expect(await alert.textContent()).toContain(`POST ${new URL('/anthropic/v1/messages', site.url).href} answered 404: nothing there forwards to the Messages API.`);
      expect(await page.getByRole('alert').filter({ hasText: 'Something went wrong' }).count()).toBe(0);
    });
  });
});

describe('npm run dev without ANTHROPIC_API_KEY', () => {
  it('says the dev server has no key and how to give it one, never tries its /anthropic, and installs no service worker', async () => {
    const dev = await startDevServer({});
    const browser = await launchChromium();
    try {
      const context = await browser.newContext();
      const requests = recordRequests(context);
      const page = await openDemo(context, dev.url);
      const status = page.locator('#connection-status');
      expect(await status.textContent()).toContain('This dev server holds no key for /anthropic: stop it and start it again with a key: ANTHROPIC_API_KEY=sk-ant-… npm run dev');
      await showConnection(page);
      await page.getByLabel('Proxy URL').fill('/anthropic');
      await expect.poll(() => status.textContent()).toMatch(/^This dev server was started without ANTHROPIC_API_KEY, so \/anthropic forwards nothing/u);
      await send(page, 'hi');
      const alert = alertTitled(page, 'The dev server has no API key');
      await alert.waitFor();
      expect(await alert.textContent()).toContain('ANTHROPIC_API_KEY=sk-ant-… npm run dev');
      expect(await page.getByLabel('Message').inputValue()).toBe('hi');
      expect(requests.some((url) => new URL(url).pathname.startsWith('/anthropic'))).toBe(false);
      // The way on it offers works without a key.
      await alert.getByRole('button', { name: 'Play a scripted conversation offline' }).click();
      await page.getByText('Noted: green tea, no sugar.').waitFor();
      // The dev server stays a dev server: once the idle code is in, no service worker holds its modules.
      await page.waitForSelector('body[data-prefetched="true"]');
      expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
      expect(requests.some((url) => new URL(url).pathname.endsWith('/sw.js'))).toBe(false);
      await context.close();
    } finally {
      await browser.close();
      await dev.close();
    }
  });
});
