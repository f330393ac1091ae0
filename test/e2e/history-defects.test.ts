// Issue 27's history, import and expiry defects, each driven in the built demo as a person would meet it: real
// Chromium on a profile on disk, accessible locators and the keyboard. Each test fails on the demo before its fix.

import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { startMemoryStoresServer, type MemoryStoresServer } from '../servers/memory-stores-server.js';
import { builtDemoForFile, diskProfile, openDeafDemo, openDemo, runCommand, showConnection, showTool } from './harness.js';

const site = builtDemoForFile();

/** A fresh browser profile on disk with the demo open; nothing may reach the console as an uncaught error. */
async function withDemo(body: (page: Page, context: BrowserContext) => Promise<void>): Promise<void> {
  const profile = await diskProfile();
  try {
    const context = await profile.launch();
    const thrown: string[] = [];
    context.on('weberror', (error) => thrown.push(String(error.error())));
    await body(await openDemo(context, site.url), context);
    expect(thrown).toEqual([]);
  } finally {
    await profile.close();
  }
}

const historyPanel = (page: Page) => page.getByRole('tabpanel', { name: 'What Claude changed' });
const list = (page: Page) => historyPanel(page).getByRole('list', { name: 'Changes' });
const changes = (page: Page) => list(page).getByRole('listitem');
const change = (page: Page, text: string): Locator => changes(page).filter({ has: page.locator('.change-head', { hasText: text }) });
const changeNo = (page: Page, id: number): Locator => changes(page).filter({ has: page.getByText(new RegExp(`^#${id} · `, 'u')) });
const undoOf = (entry: Locator) => entry.getByRole('button', { name: 'Undo', exact: true });
const tree = (page: Page) => page.getByLabel('Memory files');
const files = (page: Page) => tree(page).locator('[data-kind="file"]');
const bundleStatus = (page: Page) => page.locator('#bundles').getByRole('status');
const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

/** The history's changes, one line each, read with the History tab shown (as a person would look). */
async function historyLines(page: Page): Promise<string[]> {
  await showTool(page, 'History');
  return (await changes(page).locator('.change-head').allTextContents()).map((text) => text.trim());
}

/** The memory as Export downloads it, as a file for the import's picker. */
async function exportedBundle(page: Page): Promise<{ name: string; mimeType: string; buffer: Buffer }> {
  await showTool(page, 'Bundles');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export', exact: true }).click()]);
  return { name: 'claude-memory.json', mimeType: 'application/json', buffer: await readFile(await download.path()) };
}

/** A JSON bundle of `files` (path → text), as the import reads it. */
function bundleOf(files: Record<string, string>): { name: string; mimeType: string; buffer: Buffer } {
  const bundle = { format: 'claude-memory-bundle', version: 1, files: Object.entries(files).map(([path, content]) => ({ path, content })) };
  return { name: 'bundle.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bundle)) };
}

describe('the history panel', () => {
  it('retires a refused undo’s alert at the next export, import or expiry', async () => {
    await withDemo(async (other, context) => {
      const page = await openDeafDemo(context, site.url);
      const alert = historyPanel(page).getByRole('alert');
      await runCommand(page, 'create', { path: '/memories/x.md', file_text: 'v1' });
      const bundle = await exportedBundle(page);

      /** Another tab edits x.md; this one, not hearing it, still offers Undo on change `id`, which is refused. */
      const refuseUndoOf = async (id: number) => {
        await runCommand(other, 'str_replace', { path: '/memories/x.md', old_str: `v${id}`, new_str: `v${id + 1}` });
        await showTool(page, 'History');
        await undoOf(changeNo(page, id)).click();
        await expect
          .poll(() => alert.textContent())
          .toBe(`Change ${id} cannot be undone cleanly: /memories/x.md has changed since. Nothing was changed.`);
      };

      await refuseUndoOf(1);
      await exportedBundle(page);
      // Looked for where it was: an alert out of sight would not count as gone.
      await showTool(page, 'History');
      await expect.poll(() => alert.count()).toBe(0);

      await refuseUndoOf(2);
      await showTool(page, 'Bundles');
      await page.getByLabel('Import a bundle').setInputFiles(bundle);
      await bundleStatus(page).filter({ hasText: 'is a valid bundle' }).waitFor();
      await showTool(page, 'History');
      await expect.poll(() => alert.count()).toBe(0);
      await showTool(page, 'Bundles');
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();

      await refuseUndoOf(3);
      await showTool(page, 'History');
      await page.getByRole('button', { name: 'Expire', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'nothing was deleted' }).waitFor();
      await expect.poll(() => alert.count()).toBe(0);
    });
  });

  it('offers the changes that arrive above a scrolled list with a button, and keeps the change being read in place', async () => {
    await withDemo(async (page, context) => {
      // The changes come from another tab, as Claude's would from a conversation there, while this one reads on.
      const writer = await openDemo(context, site.url);
      for (let i = 1; i <= 12; i++) await runCommand(page, 'create', { path: `/memories/n${i}.md`, file_text: `${i}` });
      await expect.poll(() => changes(page).count()).toBe(12);
      const box = list(page);
      await box.evaluate((element) => element.scrollTo(0, element.scrollHeight));
      expect(await box.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);
      /** The id of the first change in the list's view, and how far below the list's top edge it is. */
      const firstInView = () =>
        box.evaluate((element) => {
          const top = element.getBoundingClientRect().top;
          const item = [...element.children].find((child) => child.getBoundingClientRect().bottom > top) as HTMLElement;
          return { id: item.dataset.id, offset: Math.round(item.getBoundingClientRect().top - top) };
        });
      /** The same change first in view, within a pixel (scrollTop rounds a restored place to the device's pixels). */
      const expectInView = async (expected: { id: string | undefined; offset: number }) => {
        const now = await firstInView();
        expect(now.id).toBe(expected.id);
        expect(Math.abs(now.offset - expected.offset)).toBeLessThanOrEqual(1);
      };
      const reading = await firstInView();
      const newButton = historyPanel(page).getByRole('button', { name: /^Show \d+ new changes?$/u });
      expect(await newButton.count()).toBe(0);

      await runCommand(writer, 'create', { path: '/memories/n13.md', file_text: '13' });
      await expect.poll(() => changes(page).count()).toBe(13);
      await expect.poll(() => newButton.textContent()).toBe('Show 1 new change');
      await expectInView(reading);
      await runCommand(writer, 'create', { path: '/memories/n14.md', file_text: '14' });
      await expect.poll(() => newButton.textContent()).toBe('Show 2 new changes');
      await expectInView(reading);

      // From the keyboard: the list goes to its top and the newest change has the focus.
      await newButton.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => box.evaluate((element) => element.scrollTop)).toBe(0);
      expect(await newButton.count()).toBe(0);
      await expect.poll(() => isFocused(changeNo(page, 14).getByRole('button', { name: 'Show changes' }))).toBe(true);

      // Scrolled down again, the keyboard still on #14 (now out of view): a redraw keeps the place read, and does not
      // scroll to the focused button, which would take the list to its top and drop the new change's button.
      await box.evaluate((element) => element.scrollTo(0, element.scrollHeight));
      const readingAgain = await firstInView();
      await runCommand(writer, 'create', { path: '/memories/n15.md', file_text: '15' });
      await expect.poll(() => changes(page).count()).toBe(15);
      await expect.poll(() => newButton.textContent()).toBe('Show 1 new change');
      await expectInView(readingAgain);
      expect(await isFocused(changeNo(page, 14).getByRole('button', { name: 'Show changes' }))).toBe(true);
      // Scrolling back to the top by hand also sees them.
      await box.evaluate((element) => element.scrollTo(0, 0));
      await expect.poll(() => newButton.count()).toBe(0);
    });
  });

  it('offers Undo only where it applies, Undo last change included', async () => {
    await withDemo(async (page) => {
      const undoLast = historyPanel(page).getByRole('button', { name: 'Undo last change' });
      // Nothing to undo yet.
      expect(await undoLast.isDisabled()).toBe(true);
      await showTool(page, 'Bundles');
      await page.getByLabel('Import a bundle').setInputFiles(bundleOf({ '/memories/a.md': 'a', '/memories/b.md': 'b' }));
      await page.getByRole('button', { name: 'Apply import' }).click();
      await expect.poll(() => historyLines(page)).toEqual(['You imported a bundle (2 paths)']);
      await expect.poll(() => undoLast.isEnabled()).toBe(true);
      await runCommand(page, 'str_replace', { path: '/memories/a.md', old_str: 'a', new_str: 'A' });
      const imported = change(page, 'You imported a bundle');
      await expect
        .poll(() => imported.locator('.undo-note').textContent())
        .toBe('Cannot be undone yet: a later change (#2) changed its files since. Undo that first.');
      expect(await undoOf(imported).count()).toBe(0);

      // Forgetting a.md for good leaves the import partly forgotten: it can never be undone, so Undo last change,
      // which would take it back once the edit is gone, is not offered either.
      await showTool(page, 'History');
      await historyPanel(page).getByLabel('Path', { exact: true }).fill('/memories/a.md');
      await historyPanel(page).getByRole('button', { name: 'Forget…' }).click();
      await historyPanel(page).getByRole('button', { name: 'Forget for good' }).click();
      await expect.poll(() => historyLines(page)).toEqual(['You imported a bundle (1 path) partly forgotten']);
      expect(await undoOf(imported).count()).toBe(0);
      await expect.poll(() => undoLast.isDisabled()).toBe(true);
    });
  });

  it('names the diff toggle for what it does next: Show changes, then Hide changes', async () => {
    await withDemo(async (page) => {
      await runCommand(page, 'create', { path: '/memories/a.md', file_text: 'a' });
      const entry = change(page, 'You wrote a file');
      await entry.getByRole('button', { name: 'Show changes', exact: true }).focus();
      await page.keyboard.press('Enter');
      const hide = entry.getByRole('button', { name: 'Hide changes', exact: true });
      await expect.poll(() => hide.getAttribute('aria-expanded')).toBe('true');
      expect(await isFocused(hide)).toBe(true);
      await entry.getByLabel('Diff of /memories/a.md').waitFor();
      await page.keyboard.press('Enter');
      const show = entry.getByRole('button', { name: 'Show changes', exact: true });
      await expect.poll(() => show.getAttribute('aria-expanded')).toBe('false');
      expect(await entry.getByLabel('Diff of /memories/a.md').isHidden()).toBe(true);
    });
  });

  it('shows a change that wrote a 500,000-line file as its first lines and a count of the rest', async () => {
    await withDemo(async (page) => {
      const big = `${'x\n'.repeat(499_999)}x`;
      await showTool(page, 'Bundles');
      await page.getByLabel('Import a bundle').setInputFiles(bundleOf({ '/memories/big.md': big }));
      await page.getByRole('button', { name: 'Apply import' }).click();
      await showTool(page, 'History');
      const entry = change(page, 'You imported a bundle (1 path)');
      await entry.getByRole('button', { name: 'Show changes' }).click();
      const diff = entry.getByLabel('Diff of /memories/big.md');
      await diff.getByText('… and 499,800 more lines not shown (499,800 added).', { exact: true }).waitFor();
      expect(await diff.locator('.line').count()).toBe(200);
      expect(await entry.locator('*').count()).toBeLessThan(300);
    });
  });

  it('shows changes pulled by sync as Sync’s, and filters them', async () => {
    const stores: MemoryStoresServer = await startMemoryStoresServer({ apiKey: 'sk-ant-loopback' });
    try {
      await withDemo(async (page) => {
        const store = stores.createStore('history');
        stores.api.createMemory(store.id, { path: '/pulled.md', content: 'from the store\n' });
        await showConnection(page);
        await page.getByLabel('API key').fill('sk-ant-loopback');
        await page.getByLabel('Proxy URL').fill(stores.url);
        await showTool(page, 'Sync');
        const sync = page.getByRole('tabpanel', { name: 'Sync', exact: true });
        await sync.getByLabel('Memory Store', { exact: true }).check();
        await sync.getByLabel('Store id').fill(store.id);
        await sync.getByRole('button', { name: 'Connect', exact: true }).click();
        await tree(page).getByRole('treeitem', { name: 'pulled.md', exact: true }).waitFor();
        await runCommand(page, 'create', { path: '/memories/mine.md', file_text: 'mine' });
        await showTool(page, 'History');

        const pulled = change(page, 'Sync pulled changes to 1 path from the remote');
        await expect.poll(() => pulled.locator('.who').textContent()).toBe('Sync');
        expect(await pulled.locator('.change-paths').textContent()).toBe('#1 · /memories/pulled.md');
        await showTool(page, 'History');
        await historyPanel(page).getByLabel('Show', { exact: true }).selectOption({ label: "sync's" });
        await expect.poll(() => historyLines(page)).toEqual(['Sync pulled changes to 1 path from the remote']);
        await showTool(page, 'Sync');
        await sync.getByRole('button', { name: 'Disconnect', exact: true }).click();
      });
    } finally {
      await stores.close();
    }
  });
});

describe('the import', () => {
  it('counts a file whose text is already here as unchanged, not replaced', async () => {
    await withDemo(async (page) => {
      await runCommand(page, 'create', { path: '/memories/same.md', file_text: 'same text' });
      const bundle = await exportedBundle(page);
      await showTool(page, 'Bundles');
      await page.getByLabel('Import a bundle').setInputFiles(bundle);
      const report = page.getByLabel('Import report');
      await expect.poll(() => report.textContent()).toContain('1 file would be unchanged');
      expect(await report.textContent()).not.toContain('replaced');
      await page.getByRole('button', { name: 'Apply import' }).click();
      await bundleStatus(page).filter({ hasText: 'Imported claude-memory.json.' }).waitFor();
      // Nothing changed, so nothing was journaled.
      expect(await historyLines(page)).toEqual(['You wrote a file']);
    });
  });

  it('marks "replace" as deleting while it is chosen, names what Apply deletes, and goes back to merge after', async () => {
    await withDemo(async (page) => {
      await runCommand(page, 'create', { path: '/memories/keep.md', file_text: 'keep' });
      const bundle = await exportedBundle(page);
      await runCommand(page, 'create', { path: '/memories/extra.md', file_text: 'not in the bundle' });
      await showTool(page, 'Bundles');
      const mode = page.getByLabel('Mode', { exact: true });
      const warning = page.locator('#bundles').getByText(/^\s*Replace deletes every file and folder/u);
      expect(await warning.isHidden()).toBe(true);

      await mode.selectOption('replace');
      await warning.waitFor();
      expect(await mode.getAttribute('aria-describedby')).toBe(await warning.getAttribute('id'));
      await page.getByLabel('Import a bundle').setInputFiles(bundle);
      await expect.poll(() => page.getByLabel('Import report').textContent()).toContain('1 file would be removed');
      const apply = page.getByRole('button', { name: 'Apply import and delete 1 file', exact: true });
      await apply.click();
      await bundleStatus(page).filter({ hasText: 'Imported claude-memory.json.' }).waitFor();
      await expect.poll(() => tree(page).getByRole('treeitem', { name: 'extra.md' }).count()).toBe(0);
      expect(await mode.inputValue()).toBe('merge');
      expect(await warning.isHidden()).toBe(true);
      expect(await mode.getAttribute('aria-describedby')).toBeNull();

      // Cancel goes back to merge too.
      await mode.selectOption('replace');
      await page.getByLabel('Import a bundle').setInputFiles(bundle);
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();
      await bundleStatus(page).filter({ hasText: 'Import cancelled' }).waitFor();
      expect(await mode.inputValue()).toBe('merge');
    });
  });
});

describe('the expiry', () => {
  it('asks before 0 days deletes every file, with Cancel focused', async () => {
    await withDemo(async (page) => {
      const days = page.getByLabel('Delete files not used for');
      const expireStatus = page.locator('#expire-status');
      // An empty memory has nothing to ask about.
      await days.fill('0');
      await days.press('Enter');
      await expect.poll(() => expireStatus.textContent()).toBe('No file has gone unused for 0 days; nothing was deleted.');

      await runCommand(page, 'create', { path: '/memories/a.md', file_text: 'a' });
      await runCommand(page, 'create', { path: '/memories/b.md', file_text: 'b' });
      await expect.poll(() => files(page).count()).toBe(2);
      await days.press('Enter');
      const question = page.getByRole('group', { name: /^0 days deletes every file in the memory: all 2 files/u });
      await question.waitFor();
      const cancel = question.getByRole('button', { name: 'Cancel' });
      await expect.poll(() => isFocused(cancel)).toBe(true);
      await page.keyboard.press('Enter');
      await expect.poll(() => expireStatus.textContent()).toBe('Cancelled; nothing was deleted.');
      expect(await question.count()).toBe(0);
      expect(await files(page).count()).toBe(2);
      expect(await isFocused(page.getByRole('button', { name: 'Expire', exact: true }))).toBe(true);

      await page.getByRole('button', { name: 'Expire', exact: true }).click();
      await question.getByRole('button', { name: 'Delete all 2 files' }).click();
      await expect.poll(() => expireStatus.textContent()).toMatch(/^Deleted 2 files not used for 0 days\./u);
      await expect.poll(() => files(page).count()).toBe(0);
    });
  });
});
