// The demo's search box in Chromium, driven as a person would: its code loads when the box is reached, results come
// as the words are typed with the matched words marked, the arrow keys go through them, Enter opens the file at the
// line (scrolled to, marked), Escape clears; a write from another tab updates the results; axe finds nothing.

import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { violations } from './axe.js';
import { builtDemoForFile, openDemo, runCommand, withDiskProfile } from './harness.js';

const site = builtDemoForFile();

/** What the results show: the status line, and per option its file, line and marked words. */
function shown(page: Page): Promise<{ count: string; options: Array<{ path: string; line: string; marks: string[]; active: boolean }> }> {
  return page.evaluate(() => ({
    count: document.querySelector('#search-count')?.textContent ?? '',
    options: [...document.querySelectorAll<HTMLElement>('#search-results:not([hidden]) [role="option"]')].map((option) => ({
      path: option.dataset.path ?? '',
      line: option.dataset.line ?? '',
      marks: [...option.querySelectorAll('mark')].map((mark) => mark.textContent ?? ''),
      active: option.getAttribute('aria-selected') === 'true',
    })),
  }));
}

const LONG = Array.from({ length: 200 }, (_, i) => (i === 149 ? 'The greenest line of all.' : `Line ${i + 1} of filler.`)).join('\n');

describe('the demo’s memory search', () => {
  it('finds as you type with marks, goes by keyboard, opens the file at the line, follows another tab, and passes axe', async () => {
    await withDiskProfile(async (context) => {
      const scripts: string[] = [];
      context.on('response', (response) => {
        if (new URL(response.url()).pathname.endsWith('.js')) scripts.push(response.url());
      });
      const page = await openDemo(context, `${site.url}?prefetch=off`);
      await runCommand(page, 'create', { path: '/memories/prefs.md', file_text: '# Drinks\nLikes coffee.\nLikes green tea.\n' });
      await runCommand(page, 'create', { path: '/memories/garden.md', file_text: 'Roses\nA greenhouse by the wall.\n' });
      await runCommand(page, 'create', { path: '/memories/long.md', file_text: LONG });
      await runCommand(page, 'create', { path: '/memories/other.md', file_text: 'Nothing to see.\n' });

      // The search's code comes only when the box is reached.
      const before = scripts.length;
      const box = page.getByRole('searchbox', { name: 'Search' });
      await box.focus();
      await box.pressSequentially('gree');
      await expect.poll(async () => (await shown(page)).count).toBe('3 files match.');
      expect(scripts.length).toBeGreaterThan(before);
      const found = await shown(page);
      expect(found.options.map((o) => `${o.path}#${o.line}`).sort()).toEqual(['/memories/garden.md#2', '/memories/long.md#150', '/memories/prefs.md#3']);
      expect(found.options.map((o) => o.marks.join()).sort()).toEqual(['green', 'greenest', 'greenhouse']);
      expect(await violations(page)).toEqual([]);
      // On a phone the memory takes turns with the conversation: its tab shows it.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByRole('tab', { name: 'Memory' }).click();
      await expect.poll(() => box.isVisible()).toBe(true);
      expect(await violations(page)).toEqual([]);
      await page.setViewportSize({ width: 1280, height: 900 });
      await box.focus();

      // Down into the list, Down to the last and no further; Up from the first goes back to the box.
      await page.keyboard.press('ArrowDown');
      const list = page.getByRole('listbox', { name: 'Search results' });
      await expect.poll(() => list.evaluate((el) => el === document.activeElement)).toBe(true);
      expect((await shown(page)).options.map((o) => o.active)).toEqual([true, false, false]);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      expect((await shown(page)).options.map((o) => o.active)).toEqual([false, false, true]);
      await page.keyboard.press('Home');
      await page.keyboard.press('ArrowUp');
      await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.press('ArrowDown');
      let target = (await shown(page)).options.findIndex((o) => o.path === '/memories/long.md');
      while (target-- > 0) await page.keyboard.press('ArrowDown');
      expect((await shown(page)).options.find((o) => o.active)?.path).toBe('/memories/long.md');

      // Enter opens long.md at line 150, marked and scrolled into the viewer's view.
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('#viewer-path').textContent()).toBe('/memories/long.md');
      const mark = page.locator('#viewer mark.found');
      await expect.poll(() => mark.textContent()).toBe('The greenest line of all.\n');
      const inView = await mark.evaluate((el) => {
        const viewer = el.closest('#viewer')?.getBoundingClientRect();
        const line = el.getBoundingClientRect();
        return viewer !== undefined && line.top >= viewer.top && line.bottom <= viewer.bottom;
      });
      expect(inView).toBe(true);
      expect(await page.locator('#memory-status').textContent()).toBe('Opened /memories/long.md at line 150.');
      expect(await violations(page)).toEqual([]);

      // A write in another tab, while the results show, updates them.
      const other = await openDemo(context, `${site.url}?prefetch=off`);
      await runCommand(other, 'create', { path: '/memories/new.md', file_text: 'Green beans.\n' });
      await expect.poll(async () => (await shown(page)).count).toBe('4 files match.');
      expect((await shown(page)).options.find((o) => o.path === '/memories/new.md')?.marks).toEqual(['Green']);
      await runCommand(other, 'delete', { path: '/memories/garden.md' });
      await expect.poll(async () => (await shown(page)).options.map((o) => o.path)).not.toContain('/memories/garden.md');
      await other.close();

      // Escape goes back to the box; Escape there clears it and the results.
      await list.focus();
      await page.keyboard.press('Escape');
      await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.press('Escape');
      expect(await box.inputValue()).toBe('');
      await expect.poll(() => shown(page)).toEqual({ count: '', options: [] });

      // No match, and a bad query, say so in the live region.
      await box.pressSequentially('zebra');
      await expect.poll(async () => (await shown(page)).count).toBe('No file matches “zebra”.');
      await box.fill('"');
      await expect.poll(async () => (await shown(page)).count).toMatch(/^Cannot search: /u);
      expect(await violations(page)).toEqual([]);
    });
  });
});
