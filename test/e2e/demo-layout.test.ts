// The demo's layout in the built demo, in Chromium: the conversation and the memory side by side as the page's heart,
// the connection folded in the header, the developer tools as tabs, the Offline demo leading until a connection
// exists, and on a phone the memory one tap from the conversation.

import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { builtDemoForFile, openDemo, runCommand, showConnection, showTool, withDiskProfile } from './harness.js';

const site = builtDemoForFile();

/** Which developer tools' panels show. */
const shownTools = (page: Page) =>
  page.locator('#tools [role="tabpanel"]').evaluateAll((panels) => panels.filter((panel) => !(panel as HTMLElement).hidden).map((panel) => panel.id));

/** The button's background, to tell the primary action (the accent colour) from the others. */
const background = (page: Page, name: string) =>
  page.getByRole('button', { name, exact: true }).evaluate((button) => getComputedStyle(button).backgroundColor);

/** Left and top of an element on the page. */
const box = async (page: Page, selector: string) => (await page.locator(selector).boundingBox())!;

describe('the demo’s layout', () => {
  it('puts the conversation and the memory side by side, the connection folded, the tools one tab at a time', async () => {
    await withDiskProfile(async (context) => {
      const page = await openDemo(context, site.url);
      await page.setViewportSize({ width: 1280, height: 900 });
      const [chat, memory] = [await box(page, '#chat'), await box(page, '#memory')];
      expect(memory.x).toBeGreaterThan(chat.x + chat.width - 1);
      expect(Math.abs(memory.y - chat.y)).toBeLessThan(2);
      // The phone's switch is not shown; the connection's fields are folded away.
      expect(await page.locator('#heart-switch').isVisible()).toBe(false);
      expect(await page.getByLabel('API key').isVisible()).toBe(false);
      expect(await page.locator('#connection-state').textContent()).toBe('Not connected');

      // One tool shows, History first; a tab shows another, and the arrow keys, Home and End move along them.
      expect(await shownTools(page)).toEqual(['history']);
      await showTool(page, 'Bundles');
      expect(await shownTools(page)).toEqual(['bundles']);
      await page.getByRole('tab', { name: 'Bundles' }).press('ArrowRight');
      expect(await shownTools(page)).toEqual(['storage']);
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Storage');
      await page.keyboard.press('End');
      expect(await shownTools(page)).toEqual(['sync']);
      await page.keyboard.press('ArrowRight');
      expect(await shownTools(page)).toEqual(['history']);
      await page.keyboard.press('ArrowLeft');
      expect(await shownTools(page)).toEqual(['sync']);
      await page.keyboard.press('Home');
      expect(await shownTools(page)).toEqual(['history']);
      // Only the chosen tab is in the Tab order.
      const tabStops = await page.locator('#tool-tabs [role="tab"]').evaluateAll((tabs) => tabs.map((tab) => (tab as HTMLElement).tabIndex));
      expect(tabStops).toEqual([0, -1, -1, -1, -1]);

      // An address naming a tool opens its tab.
      await page.goto(`${site.url}#console`);
      await page.waitForSelector('body[data-ready="true"]');
      expect(await shownTools(page)).toEqual(['console']);
    });
  });

  it('keeps a tool’s scroll place while another tool shows', async () => {
    await withDiskProfile(async (context) => {
      const page = await openDemo(context, site.url);
      for (let i = 1; i <= 12; i++) await runCommand(page, 'create', { path: `/memories/n${i}.md`, file_text: `${i}` });
      const list = page.getByRole('list', { name: 'Changes' });
      await expect.poll(() => list.getByRole('listitem').count()).toBe(12);
      await list.evaluate((element) => element.scrollTo(0, element.scrollHeight));
      const place = await list.evaluate((element) => element.scrollTop);
      expect(place).toBeGreaterThan(0);
      await showTool(page, 'Console');
      await showTool(page, 'History');
      expect(await list.evaluate((element) => element.scrollTop)).toBe(place);
    });
  });

  it('leads with the Offline demo until a key or proxy is given, then with Send', async () => {
    await withDiskProfile(async (context) => {
      const page = await openDemo(context, site.url);
      await page.setViewportSize({ width: 1280, height: 900 });
      const accent = await background(page, 'Offline demo');
      expect(await background(page, 'Send')).not.toBe(accent);
      // First of the buttons, before Send.
      expect((await box(page, '#offline-demo')).x).toBeLessThan((await box(page, '#send')).x);
      // The intro says what to press, until the transcript has anything.
      expect(await page.locator('#chat-intro').isVisible()).toBe(true);

      await showConnection(page);
      await page.getByLabel('Proxy URL').fill('http://127.0.0.1:9/');
      expect(await page.locator('#connection-state').textContent()).toBe('through a proxy');
      expect(await background(page, 'Send')).toBe(accent);
      expect(await background(page, 'Offline demo')).not.toBe(accent);
      expect((await box(page, '#send')).x).toBeLessThan((await box(page, '#offline-demo')).x);
      await page.getByLabel('API key').fill('sk-ant-typed');
      expect(await page.locator('#connection-state').textContent()).toBe('your key');
    });
  });

  it('marks a file just written in the tree as it happens, for a few seconds', async () => {
    await withDiskProfile(async (context) => {
      const page = await openDemo(context, site.url);
      const item = page.getByRole('tree', { name: 'Memory files' }).getByRole('treeitem', { name: 'fresh.md' });
      await runCommand(page, 'create', { path: '/memories/fresh.md', file_text: 'just written' });
      await expect.poll(() => item.getAttribute('class')).toContain('fresh');
      // It fades: a few seconds on, nothing is marked (polled: no test waits on a clock it assumes).
      await expect.poll(() => item.getAttribute('class'), { timeout: 30_000 }).not.toContain('fresh');

    });
  });

  it('on a phone shows the conversation first and the memory one tap away, marked when Claude wrote to it', async () => {
    await withDiskProfile(async (context) => {
      const page = await openDemo(context, site.url);
      await page.setViewportSize({ width: 390, height: 844 });
      const memoryTab = page.getByRole('tab', { name: 'Memory', exact: true });
      expect(await page.locator('#chat').isVisible()).toBe(true);
      expect(await page.locator('#memory').isVisible()).toBe(false);
      // The Offline demo, the one thing that works without a key, is on the first screen.
      const offline = await box(page, '#offline-demo');
      expect(offline.y + offline.height).toBeLessThanOrEqual(844);

      await page.getByRole('button', { name: 'Offline demo' }).click();
      await expect.poll(() => memoryTab.getAttribute('data-attention'), { timeout: 120_000 }).toBe('');
      expect(await memoryTab.getAttribute('aria-description')).toBe('changed since you last looked');
      await memoryTab.click();
      expect(await page.locator('#memory').isVisible()).toBe(true);
      expect(await page.locator('#chat').isVisible()).toBe(false);
      expect(await memoryTab.getAttribute('data-attention')).toBeNull();
      expect(await page.locator('#memory').getAttribute('role')).toBe('tabpanel');

      // Back to the conversation; then the skip link to the memory brings the memory forward.
      await page.getByRole('tab', { name: 'Conversation', exact: true }).click();
      expect(await page.locator('#chat').isVisible()).toBe(true);
      await page.getByRole('link', { name: 'Skip to the memory' }).focus();
      await page.keyboard.press('Enter');
      expect(await page.locator('#memory').isVisible()).toBe(true);

      // Wider again, both stand side by side and are plain regions.
      await page.setViewportSize({ width: 1280, height: 900 });
      expect(await page.locator('#chat').isVisible()).toBe(true);
      expect(await page.locator('#memory').isVisible()).toBe(true);
      await expect.poll(() => page.locator('#memory').getAttribute('role')).toBeNull();
    });
  });
});
