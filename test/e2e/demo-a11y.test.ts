// The built demo's accessibility in Chromium: axe-core in each state the demo's e2e tests reach, light and dark and at
// a 390 px phone width; the skip links; the memory tree as a WAI-ARIA tree widget, driven by the keyboard alone.

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { startApacheWebdav } from '../servers/apache-webdav.js';
import { builtDemoForFile, openDeafDemo, openDemo, runCommand, showConnection, showTool, withDiskProfile } from './harness.js';

const site = builtDemoForFile();
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * WCAG 2.0–2.2 A and AA and axe's best practices. Also on: `target-size` (WCAG 2.2's 24 px minimum) and
 * `label-content-name-mismatch` (a visible label inside the accessible name), both off by default in axe 4.x.
 */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const EXTRA_RULES = { 'target-size': { enabled: true }, 'label-content-name-mismatch': { enabled: true } };

interface Found {
  id: string;
  help: string;
  nodes: Array<{ target: string; summary: string }>;
}

/** axe-core's violations on the page as it is now, each with its elements and what is wrong with them. */
async function violations(page: Page): Promise<Found[]> {
  // Evaluated, not added as a <script>: the demo's CSP (script-src 'self') refuses an inline script, rightly.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(await readFile(AXE, 'utf8'));
  return page.evaluate(
    async ({ tags, rules }) => {
      const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Array<{ id: string; help: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> }> }> } }).axe;
      const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, rules, resultTypes: ['violations'] });
      return result.violations.map((v) => ({
        id: v.id,
        help: v.help,
        nodes: v.nodes.map((node) => ({ target: node.target.map(String).join(' '), summary: (node.failureSummary ?? '').replace(/\s+/gu, ' ') })),
      }));
    },
    { tags: TAGS, rules: EXTRA_RULES },
  );
}

/** Adds to `report` the violations of `state` of the page, in light and dark, one line each. */
async function check(page: Page, state: string, report: string[]): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const found of await violations(page)) {
      for (const node of found.nodes) report.push(`${state}, ${colorScheme}: ${found.id} (${found.help}) at ${node.target}: ${node.summary}`);
    }
  }
  await page.emulateMedia({ colorScheme: null });
}

/** `check` at a desktop's width and a 390 px phone's, the page left at the size it had. */
async function checkBothWidths(page: Page, state: string, report: string[]): Promise<void> {
  const size = page.viewportSize() ?? { width: 1280, height: 900 };
  await page.setViewportSize({ width: 1280, height: 900 });
  await check(page, `${state}, desktop`, report);
  await page.setViewportSize({ width: 390, height: 844 });
  await check(page, `${state}, 390 px`, report);
  await page.setViewportSize(size);
}

async function playOffline(page: Page): Promise<void> {
  const offline = page.getByRole('button', { name: 'Offline demo' });
  await offline.click();
  await expect.poll(() => offline.isDisabled()).toBe(true);
  await expect.poll(() => offline.isEnabled(), { timeout: 120_000 }).toBe(true);
}

function bundleOf(files: Record<string, string>): { name: string; mimeType: string; buffer: Buffer } {
  const bundle = { format: 'claude-memory-bundle', version: 1, files: Object.entries(files).map(([path, content]) => ({ path, content })) };
  return { name: 'bundle.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bundle)) };
}

const tree = (page: Page) => page.getByRole('tree', { name: 'Memory files' });
const focusedPath = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.path);
const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

/**
 * Every state, in one page: each step builds on the one before, as a person's visit would. All are checked before the
 * test fails, and the failure lists every violation with its state, rule, element and what to fix.
 */
async function walkStates(page: Page): Promise<void> {
  const report: string[] = [];
  const expectNoViolations = (state: string) => check(page, state, report);
  await expectNoViolations('fresh page');
  await showConnection(page);
  await checkBothWidths(page, 'the connection open', report);
  await page.keyboard.press('Escape');
  await page.locator('#use-it > summary').click();
  await checkBothWidths(page, 'Use it in your app unfolded', report);
  await page.locator('#use-it > summary').click();

  await playOffline(page);
  await expect.poll(() => page.locator('#viewer-path').textContent()).toBe('/memories/offline-demo.md');
  const history = page.getByRole('tabpanel', { name: 'What Claude changed' });
  // Each toggle becomes "Hide changes" once open: the first "Show changes" left is the next one.
  for (let i = 0; i < 2; i++) await history.getByRole('button', { name: 'Show changes', exact: true }).first().click();
  await expect.poll(() => history.locator('ins, del, .added, .removed, .diff').count()).toBeGreaterThan(0);
  await expectNoViolations('after the offline demo (transcript, file open, diffs expanded)');
  // On a phone the memory is one tap away, behind the switch; on a desktop the switch is not shown.
  const memoryTab = page.getByRole('tab', { name: 'Memory', exact: true });
  if (await memoryTab.isVisible()) {
    await memoryTab.click();
    await page.getByRole('tree', { name: 'Memory files' }).waitFor();
    await expectNoViolations('the memory pane on a phone');
    await page.getByRole('tab', { name: 'Conversation', exact: true }).click();
  }

  await page.getByLabel('Offline script').selectOption({ label: 'A long task: context cleared, then compacted' });
  await playOffline(page);
  await page.locator('#transcript .compacted').first().waitFor();
  await expectNoViolations('the long task played (context cleared, compacted)');
  await page.getByLabel('Offline script').selectOption({ label: 'Two sessions: a progress log in memory' });
  await playOffline(page);
  await expectNoViolations('two sessions played (a progress log, a checklist)');

  // A message that cannot be sent: a port nothing listens on. Its card names the URL and keeps the message.
  await showConnection(page);
  await page.getByLabel('Proxy URL').fill('http://127.0.0.1:9/');
  await page.getByLabel('Message').fill('Is anyone there?');
  await page.getByRole('button', { name: 'Send' }).click();
  await page.locator('#transcript .failure').waitFor();
  await expectNoViolations('a message that failed (its card, the message kept)');
  await showConnection(page);
  await page.getByLabel('Proxy URL').fill('http://127.0.0.1:9/');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect.poll(() => page.locator('#connection-state').getAttribute('data-state')).toBe('unchecked');
  await expectNoViolations('a Connect that could not check (the reason in the popover)');
  await page.getByLabel('Proxy URL').fill('');
  await page.keyboard.press('Escape');

  await showTool(page, 'Storage');
  await expectNoViolations('the storage panel');

  await showTool(page, 'Bundles');
  await page.getByLabel('Import a bundle').setInputFiles(bundleOf({ '/memories/offline-demo.md': 'other text\n', '/memories/new.md': 'new\n' }));
  await page.getByRole('button', { name: 'Apply import' }).waitFor();
  await page.locator('#bundle-mode').selectOption('replace');
  await page.locator('#bundle-replace-warning').waitFor();
  await expectNoViolations('import report with the replace warning');
  await page.locator('#bundle-cancel').click();

  await showTool(page, 'History');
  const days = page.getByLabel('Delete files not used for');
  await days.fill('0');
  await days.press('Enter');
  await page.getByRole('group', { name: /^0 days deletes every file/u }).waitFor();
  await expectNoViolations('the expiry question');
  await page.locator('#expire-no').click();

  await showTool(page, 'Sync');
  await page.getByLabel('WebDAV', { exact: true }).check();
  await page.getByLabel('WebDAV URL').waitFor();
  await expectNoViolations('the Sync panel, WebDAV chosen, not connected');
  await page.getByLabel('Encrypt end to end').check();
  await page.locator('#sync').getByLabel('Passphrase', { exact: true }).waitFor();
  await expectNoViolations('the Sync panel, WebDAV encrypted end to end, its passphrase shown');

  await runCommand(page, 'view', { path: '/memories' });
  await showTool(page, 'Console');
  await expectNoViolations('the command console with a result');
  if (report.length > 0) console.log(report.join('\n'));
  expect(report).toEqual([]);
}

describe('the demo’s accessibility', () => {
  it('has no axe-core violations in any state, light or dark, on a desktop', async () => {
    await withDiskProfile(async (context) => {
      const page = await openDemo(context, site.url);
      await page.setViewportSize({ width: 1280, height: 900 });
      await walkStates(page);
    });
  });

  it('has no axe-core violations, touch targets included, on a 390 px wide phone', async () => {
    await withDiskProfile(async (context) => {
      const page = await openDemo(context, site.url);
      await page.setViewportSize({ width: 390, height: 844 });
      await walkStates(page);
    });
  });

  it('has no axe-core violations with the Sync panel’s lists: a conflict, a skipped file, deletes held back', async () => {
    // As sync-panel.test.ts reaches them: a real Apache WebDAV folder that refuses big bodies; while syncing is
    // stopped, a file changed on both sides and more files deleted on the server than a sync deletes unasked.
    const limit = 4096;
    const dav = await startApacheWebdav({ limitRequestBody: limit });
    try {
      await withDiskProfile(async (context) => {
        const page = await openDemo(context, site.url);
        const sync = page.getByRole('tabpanel', { name: 'Sync', exact: true });
        const button = (name: string) => sync.getByRole('button', { name, exact: true });
        const items = (name: string) => sync.getByRole('list', { name, exact: true }).getByRole('listitem');
        const notes = Array.from({ length: 11 }, (_, i) => `note-${String(i).padStart(2, '0')}.md`);
        const files = Object.fromEntries(notes.map((name) => [`/memories/${name}`, `${name}\n`]));
        await showTool(page, 'Bundles');
        await page.getByLabel('Import a bundle').setInputFiles(bundleOf({ ...files, '/memories/plan.md': 'plan: tea\n', '/memories/big.md': 'x'.repeat(limit + 1) }));
        await page.getByRole('button', { name: 'Apply import' }).click();
        await expect.poll(() => tree(page).getByRole('treeitem').count()).toBe(13);

        await showTool(page, 'Sync');
        await sync.getByLabel('WebDAV', { exact: true }).check();
        await sync.getByLabel('WebDAV URL').fill(dav.url);
        await sync.getByLabel('Username', { exact: true }).fill(dav.username);
        await sync.getByLabel('Password', { exact: true }).fill(dav.password);
        await button('Connect').click();
        await expect.poll(() => items('Skipped files').count()).toBe(1);
        await button('Stop syncing').click();
        await button('Start syncing').waitFor();
        const authorization = `Basic ${Buffer.from(`${dav.username}:${dav.password}`).toString('base64')}`;
        expect((await fetch(new URL('plan.md', dav.url), { method: 'PUT', headers: { authorization }, body: 'plan: coffee\n' })).ok).toBe(true);
        for (const name of notes) expect((await fetch(new URL(name, dav.url), { method: 'DELETE', headers: { authorization } })).ok).toBe(true);
        await runCommand(page, 'str_replace', { path: '/memories/plan.md', old_str: 'tea', new_str: 'green tea' });
        await showTool(page, 'Sync');
        await button('Sync now').click();
        await expect.poll(() => items('Conflicts').count()).toBe(1);
        await expect.poll(() => items('Deletes held back').count()).toBe(notes.length);
        expect(await items('Skipped files').count()).toBe(1);

        const report: string[] = [];
        await checkBothWidths(page, 'a sync conflict, a skipped file and held deletes listed', report);
        if (report.length > 0) console.log(report.join('\n'));
        expect(report).toEqual([]);
      });
    } finally {
      await dav.stop();
    }
  });

  it('has no axe-core violations in the alerts a person meets: a full quota, a refused undo, new changes above the list, a capped diff', async () => {
    await withDiskProfile(async (context) => {
      const report: string[] = [];
      const page = await openDemo(context, site.url);
      // First, on a fresh page as history.test.ts reaches it: a write the browser's quota refuses (Chromium's own
      // override, a little over what is used). Its alerts stay up through the states after.
      const cdp = await context.newCDPSession(page);
      const origin = new URL(site.url).origin;
      const used = await page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
      await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: used + 64 * 1024 });
      // Random hex, so that it stays big on disk: Chromium compresses large values.
      const big = Array.from({ length: 400_000 / 64 }, () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex')).join('');
      expect(await runCommand(page, 'create', { path: '/memories/big.md', file_text: big })).toMatch(/storage quota for this site is full/u);
      await showTool(page, 'Storage');
      await page.getByRole('tabpanel', { name: 'Storage' }).getByRole('alert').waitFor();
      await checkBothWidths(page, 'the storage-full alert', report);
      await showTool(page, 'Console');
      await checkBothWidths(page, 'the console’s storage-full alert', report);
      await cdp.send('Storage.overrideQuotaForOrigin', { origin });

      const history = (tab: Page) => tab.getByRole('tabpanel', { name: 'What Claude changed' });
      const changes = (tab: Page) => history(tab).getByRole('list', { name: 'Changes' }).getByRole('listitem');

      // A tab that does not hear the others offers an Undo another tab has made stale; pressing it is refused.
      const deaf = await openDeafDemo(context, site.url);
      await runCommand(deaf, 'create', { path: '/memories/x.md', file_text: 'v1' });
      await runCommand(page, 'str_replace', { path: '/memories/x.md', old_str: 'v1', new_str: 'v2' });
      await showTool(deaf, 'History');
      await changes(deaf).filter({ has: deaf.getByText(/^#1 · /u) }).getByRole('button', { name: 'Undo', exact: true }).click();
      await history(deaf).getByRole('alert').filter({ hasText: 'cannot be undone cleanly' }).waitFor();
      await checkBothWidths(deaf, 'a refused undo’s alert', report);
      await deaf.close();

      // Changes that arrive above a list scrolled down are offered with a button.
      for (let i = 1; i <= 12; i++) await runCommand(page, 'create', { path: `/memories/n${i}.md`, file_text: `${i}` });
      await showTool(page, 'History');
      await expect.poll(() => changes(page).count()).toBe(14);
      const box = history(page).getByRole('list', { name: 'Changes' });
      await box.evaluate((element) => element.scrollTo(0, element.scrollHeight));
      const writer = await openDemo(context, site.url);
      await runCommand(writer, 'create', { path: '/memories/n13.md', file_text: '13' });
      await history(page).getByRole('button', { name: 'Show 1 new change' }).waitFor();
      await check(page, 'new changes offered above the history list, desktop', report);
      await writer.close();

      // A change too long to show whole: its diff shows the first lines and counts the rest.
      await history(page).getByRole('button', { name: 'Show 1 new change' }).click();
      const lines = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join('\n');
      await runCommand(page, 'create', { path: '/memories/long.md', file_text: lines });
      await expect.poll(() => changes(page).count()).toBe(16);
      const newest = changes(page).first();
      await newest.getByRole('button', { name: 'Show changes', exact: true }).click();
      await newest.getByText(/more lines not shown/u).waitFor();
      await checkBothWidths(page, 'a capped diff', report);

      if (report.length > 0) console.log(report.join('\n'));
      expect(report).toEqual([]);
    });
  });

  it('reaches the conversation and the memory tree from the top in a few Tab presses, through skip links', async () => {
    await withDiskProfile(async (context) => {
      const page = await openDemo(context, site.url);
      await runCommand(page, 'create', { path: '/memories/a.md', file_text: 'a\n' });
      // From the top of a freshly loaded page, as a keyboard user arrives.
      const reload = async () => {
        await page.goto(site.url);
        await page.waitForSelector('body[data-ready="true"]');
      };
      await reload();
      await page.keyboard.press('Tab');
      const toChat = page.getByRole('link', { name: 'Skip to the conversation' });
      expect(await isFocused(toChat)).toBe(true);
      expect(await toChat.isVisible()).toBe(true);
      await page.keyboard.press('Tab');
      const toMemory = page.getByRole('link', { name: 'Skip to the memory' });
      expect(await isFocused(toMemory)).toBe(true);
      await page.keyboard.press('Enter');
      // The memory's search box first, then (its results list hidden while empty) the tree.
      await page.keyboard.press('Tab');
      expect(await isFocused(page.getByRole('searchbox', { name: 'Search' }))).toBe(true);
      await page.keyboard.press('Tab');
      expect(await focusedPath(page)).toBe('/memories/a.md');

      // The conversation: its Connection button beside the title, then the transcript.
      await reload();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      expect(await isFocused(page.getByRole('button', { name: /^Connection/u }))).toBe(true);
      await page.keyboard.press('Tab');
      expect(await isFocused(page.locator('#transcript'))).toBe(true);
    });
  });

  it('is a tree widget: one tab stop, arrows, Home and End, Right and Left on folders, Enter opens a file', async () => {
    await withDiskProfile(async (context) => {
      const page = await openDemo(context, site.url);
      await runCommand(page, 'create', { path: '/memories/notes/b.md', file_text: 'b\n' });
      await runCommand(page, 'create', { path: '/memories/notes/c.md', file_text: 'c\n' });
      await runCommand(page, 'create', { path: '/memories/z.md', file_text: 'z\n' });
      const items = tree(page).getByRole('treeitem');
      await expect.poll(() => items.count()).toBe(4);
      // One tab stop: exactly one item is in the tab order.
      expect(await tree(page).locator('[role="treeitem"][tabindex="0"]').count()).toBe(1);
      const folder = tree(page).getByRole('treeitem', { name: 'notes/', exact: true });
      expect(await folder.getAttribute('aria-expanded')).toBe('true');
      expect(await folder.getAttribute('aria-level')).toBe('1');
      expect(await folder.getAttribute('aria-posinset')).toBe('1');
      expect(await folder.getAttribute('aria-setsize')).toBe('2');
      const c = tree(page).getByRole('treeitem', { name: 'c.md', exact: true });
      expect(await c.getAttribute('aria-level')).toBe('2');
      expect(await c.getAttribute('aria-posinset')).toBe('2');
      expect(await c.getAttribute('aria-setsize')).toBe('2');

      await folder.focus();
      await page.keyboard.press('ArrowDown');
      expect(await focusedPath(page)).toBe('/memories/notes/b.md');
      await page.keyboard.press('End');
      expect(await focusedPath(page)).toBe('/memories/z.md');
      await page.keyboard.press('ArrowUp');
      expect(await focusedPath(page)).toBe('/memories/notes/c.md');
      await page.keyboard.press('ArrowLeft');
      expect(await focusedPath(page)).toBe('/memories/notes');
      await page.keyboard.press('ArrowLeft');
      expect(await folder.getAttribute('aria-expanded')).toBe('false');
      await page.keyboard.press('ArrowDown');
      expect(await focusedPath(page)).toBe('/memories/z.md');
      await page.keyboard.press('Home');
      await page.keyboard.press('ArrowRight');
      expect(await folder.getAttribute('aria-expanded')).toBe('true');
      await page.keyboard.press('ArrowRight');
      expect(await focusedPath(page)).toBe('/memories/notes/b.md');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('#viewer-path').textContent()).toBe('/memories/notes/b.md');
      expect(await tree(page).getByRole('treeitem', { name: 'b.md', exact: true }).getAttribute('aria-selected')).toBe('true');
      // The tab stop followed the focus: Shift+Tab leaves the tree, Tab comes back to b.md.
      expect(await tree(page).locator('[role="treeitem"][tabindex="0"]').count()).toBe(1);
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      expect(await focusedPath(page)).toBe('/memories/notes/b.md');
    });
  });
});
