// The demo's history, undo, expiry, hidden files and a full quota, driven like a person would drive them: the
// built demo served statically, real Chromium, accessible locators and the keyboard. The quota is made small
// with Chromium's own DevTools override, so the browser itself refuses the write.

import { describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { startMessagesApiServer } from '../helpers/messages-api-server.js';
import { builtDemoForFile, diskProfile, dumpIndexedDB, openDemo, orShowPage, runCommand, showConnection, showTool } from './harness.js';

const NOTE = '/memories/offline-demo.md';
const FIRST_TEXT = '# About the user\n- Drinks tea\n';
const FINAL_TEXT = '# About the user\n- Drinks green tea, no sugar\n';

const site = builtDemoForFile();

/** A fresh browser profile on disk (its own IndexedDB) with the demo open, closed and removed after `body`. */
async function withDemo(body: (page: Page, context: BrowserContext) => Promise<void>): Promise<void> {
  const profile = await diskProfile();
  try {
    const context = await profile.launch();
    await body(await openDemo(context, site.url), context);
  } finally {
    await profile.close();
  }
}

const historyPanel = (page: Page) => page.getByRole('tabpanel', { name: 'What Claude changed' });
const changes = (page: Page) => historyPanel(page).getByRole('list', { name: 'Changes' }).getByRole('listitem');
const tree = (page: Page) => page.getByLabel('Memory files');
const viewer = (page: Page) => page.getByLabel('File content');

/** The change whose line reads `who what` (e.g. "Claude edited a file"); exactly one must match. */
function change(page: Page, text: string): Locator {
  return changes(page).filter({ has: page.locator('.change-head', { hasText: text }) });
}

/** Each change's first line, newest first: "Claude wrote a file", "You undid change 3 undone", … */
async function historyLines(page: Page): Promise<string[]> {
  return (await changes(page).locator('.change-head').allTextContents()).map((text) => text.trim());
}

async function runOfflineDemo(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Offline demo' }).click();
  await page.getByText('Noted: green tea, no sugar.').waitFor();
  await expect.poll(() => page.getByRole('button', { name: 'Offline demo' }).isEnabled()).toBe(true);
}

async function openFile(page: Page, name: string): Promise<void> {
  await tree(page).getByRole('treeitem', { name, exact: true }).click();
}

describe('the history panel', () => {
  it('lists the Offline demo’s changes as Claude’s and console commands as yours, newest first', async () => {
    await withDemo(async (page) => {
      await historyPanel(page).getByText('No changes yet.').waitFor();
      await runOfflineDemo(page);
      // `view` changes nothing, so it is not in the history.
      await expect.poll(() => historyLines(page)).toEqual(['Claude edited a file', 'Claude wrote a file']);
      await expect.poll(() => change(page, 'Claude edited a file').locator('.change-paths').textContent()).toContain(NOTE);

      expect(await runCommand(page, 'create', { path: '/memories/todo.md', file_text: 'buy tea' })).toBe(
        'File created successfully at: /memories/todo.md',
      );
      await expect.poll(() => historyLines(page)).toEqual(['You wrote a file', 'Claude edited a file', 'Claude wrote a file']);
      await expect.poll(() => changes(page).first().locator('.change-paths').textContent()).toContain('/memories/todo.md');
      await expect.poll(() => changes(page).first().locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);

      // Only Claude's, then only yours.
      await showTool(page, 'History');
      await historyPanel(page).getByLabel('Show', { exact: true }).selectOption({ label: "Claude's" });
      await expect.poll(() => historyLines(page)).toEqual(['Claude edited a file', 'Claude wrote a file']);
      await historyPanel(page).getByLabel('Show', { exact: true }).selectOption({ label: 'yours' });
      await expect.poll(() => historyLines(page)).toEqual(['You wrote a file']);
      expect(await historyPanel(page).getByText(/^No changes/u).isHidden()).toBe(true);
      // None by expiry: the empty note says whose changes there are none of, not that the history is empty.
      await historyPanel(page).getByLabel('Show', { exact: true }).selectOption({ label: "expiry's" });
      await expect.poll(() => historyLines(page)).toEqual([]);
      await historyPanel(page).getByText('No changes by expiry yet.', { exact: true }).waitFor();
    });
  });

  it('expands a change to the lines it removed and added, from the keyboard too', async () => {
    await withDemo(async (page) => {
      await runOfflineDemo(page);
      const edit = change(page, 'Claude edited a file');
      // The toggle says what it does next: "Show changes", then "Hide changes".
      const toggle = edit.locator('[data-focus-key^="toggle-"]');
      expect(await toggle.textContent()).toBe('Show changes');
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      expect(await toggle.textContent()).toBe('Hide changes');
      const diff = edit.getByLabel(`Diff of ${NOTE}`);
      await expect.poll(() => diff.locator('del').allTextContents()).toEqual(['- - Drinks tea\n']);
      expect(await diff.locator('ins').allTextContents()).toEqual(['+ - Drinks green tea, no sugar\n']);
      expect(await diff.locator('pre').textContent()).toBe('  # About the user\n- - Drinks tea\n+ - Drinks green tea, no sugar\n');
      await edit.getByText(`${NOTE} — changed`).waitFor();

      // The create: every line added. Opened with Enter on the focused button.
      const create = change(page, 'Claude wrote a file');
      await create.getByRole('button', { name: 'Show changes' }).focus();
      await page.keyboard.press('Enter');
      await expect
        .poll(() => create.getByLabel(`Diff of ${NOTE}`).locator('ins').allTextContents())
        .toEqual(['+ # About the user\n', '+ - Drinks tea\n']);
      await create.getByText(`${NOTE} — new file`).waitFor();

      // A new change redraws the list live; what was open stays open.
      await runCommand(page, 'insert', { path: NOTE, insert_line: '2', insert_text: '- Lives in Lyon' });
      await expect.poll(() => historyLines(page)).toEqual(['You inserted lines', 'Claude edited a file', 'Claude wrote a file']);
      await expect.poll(() => change(page, 'Claude edited a file').locator('del').allTextContents()).toEqual(['- - Drinks tea\n']);
      await change(page, 'You inserted lines').getByRole('button', { name: 'Show changes' }).click();
      await expect
        .poll(() => change(page, 'You inserted lines').locator('ins').allTextContents())
        .toEqual(['+ - Lives in Lyon\n']);

      // Diff lines are text: the markup of a memory file is not made into elements.
      await runCommand(page, 'create', { path: '/memories/x.md', file_text: '<img src=x onerror="window.__pwned=1">' });
      await change(page, 'You wrote a file').getByRole('button', { name: 'Show changes' }).click();
      await expect
        .poll(() => change(page, 'You wrote a file').locator('ins').allTextContents())
        .toEqual(['+ <img src=x onerror="window.__pwned=1">\n']);
      expect(await page.locator('main img').count()).toBe(0);
      expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
    });
  });

  it('undoes a change: the viewer and the tree follow, and a change whose files changed since offers no Undo and says why', async () => {
    await withDemo(async (page) => {
      await runOfflineDemo(page);
      await openFile(page, 'offline-demo.md');
      await expect.poll(() => viewer(page).textContent()).toBe(FINAL_TEXT);

      // You edit the file after Claude: undoing Claude's edit would clobber yours, so it is not offered, and the
      // entry says which change to undo first. Claude's create was changed since by its edit too.
      await runCommand(page, 'str_replace', { path: NOTE, old_str: 'no sugar', new_str: 'with honey' });
      await expect.poll(() => viewer(page).textContent()).toBe('# About the user\n- Drinks green tea, with honey\n');
      await expect.poll(() => historyLines(page)).toEqual(['You edited a file', 'Claude edited a file', 'Claude wrote a file']);
      const undoOf = (text: string) => change(page, text).getByRole('button', { name: 'Undo', exact: true });
      const noteOf = (text: string) => change(page, text).locator('.undo-note');
      await expect
        .poll(() => noteOf('Claude edited a file').textContent())
        .toBe('Cannot be undone yet: a later change (#3) changed its files since. Undo that first.');
      expect(await undoOf('Claude edited a file').count()).toBe(0);
      expect(await noteOf('Claude wrote a file').textContent()).toBe(
        'Cannot be undone yet: later changes (#2 and #3) changed its files since. Undo those first.',
      );
      expect(await undoOf('Claude wrote a file').count()).toBe(0);
      expect(await undoOf('You edited a file').count()).toBe(1);
      await showTool(page, 'History');
      const alert = historyPanel(page).getByRole('alert');

      // Undo yours first (from the keyboard), then Claude's applies.
      await change(page, 'You edited a file').getByRole('button', { name: 'Undo', exact: true }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => viewer(page).textContent()).toBe(FINAL_TEXT);
      await expect
        .poll(() => historyLines(page))
        .toEqual(['You undid change 3', 'You edited a file undone', 'Claude edited a file', 'Claude wrote a file']);
      expect(await alert.isHidden()).toBe(true);
      await historyPanel(page).getByRole('status').filter({ hasText: 'Undid change 3.' }).waitFor();
      expect(await change(page, 'You edited a file undone').getByRole('button', { name: 'Undo', exact: true }).count()).toBe(0);

      // With yours undone, Claude's edit is as Claude left it: its Undo is back.
      await expect.poll(() => noteOf('Claude edited a file').count()).toBe(0);
      await undoOf('Claude edited a file').click();
      await expect.poll(() => viewer(page).textContent()).toBe(FIRST_TEXT);
      await expect.poll(() => historyLines(page)).toContain('Claude edited a file undone');

      // "Undo last change" takes back the latest change not yet undone: Claude's create. The file goes.
      await historyPanel(page).getByRole('button', { name: 'Undo last change' }).click();
      await expect.poll(() => tree(page).getByRole('treeitem', { name: 'offline-demo.md' }).count()).toBe(0);
      await expect.poll(() => viewer(page).textContent()).toBe('');
      expect(await page.getByText('Choose a file in /memories.', { exact: true }).count()).toBe(1);
      await expect.poll(() => historyLines(page)).toContain('Claude wrote a file undone');

      // An undo is a change too: undoing it brings the file back.
      await changes(page).first().getByRole('button', { name: 'Undo', exact: true }).click();
      await openFile(page, 'offline-demo.md');
      await expect.poll(() => viewer(page).textContent()).toBe(FIRST_TEXT);
    });
  });

  it('shows an undo done in another tab, live', async () => {
    await withDemo(async (page, context) => {
      const other = await openDemo(context, site.url);
      await runCommand(page, 'create', { path: '/memories/shared.md', file_text: 'from tab one' });
      await expect.poll(() => historyLines(other)).toEqual(['You wrote a file']);
      await change(other, 'You wrote a file').getByRole('button', { name: 'Undo', exact: true }).click();
      await expect.poll(() => historyLines(page)).toEqual(['You undid change 1', 'You wrote a file undone']);
      await expect.poll(() => tree(page).getByRole('treeitem', { name: 'shared.md' }).count()).toBe(0);
    });
  });
});

describe('forget for good', () => {
  it('forgets a file and every copy of it after a confirmation, then clears the history, live in another tab', async () => {
    const marker = 'ORCHID-5501-marker';
    await withDemo(async (page, context) => {
      await runCommand(page, 'create', { path: '/memories/secret.md', file_text: `pin ${marker}` });
      await runCommand(page, 'str_replace', { path: '/memories/secret.md', old_str: 'pin', new_str: 'PIN' });
      await runCommand(page, 'create', { path: '/memories/keep.md', file_text: 'keep me' });
      const other = await openDemo(context, site.url);
      await expect.poll(() => historyLines(other)).toEqual(['You wrote a file', 'You edited a file', 'You wrote a file']);

      // Opening the file in the tree puts its path in the field; the confirmation has the keyboard on Cancel.
      await openFile(page, 'secret.md');
      const path = historyPanel(page).getByLabel('Path', { exact: true });
      await expect.poll(() => path.inputValue()).toBe('/memories/secret.md');
      const status = page.locator('#forget-status');
      await historyPanel(page).getByRole('button', { name: 'Forget…' }).click();
      const confirmation = historyPanel(page).getByRole('group', { name: /^Forget \/memories\/secret\.md for good\?/u });
      await expect.poll(() => confirmation.textContent()).toContain('This cannot be undone.');
      await expect.poll(() => confirmation.getByRole('button', { name: 'Cancel' }).evaluate((button) => button === document.activeElement)).toBe(true);
      await page.keyboard.press('Enter');
      await expect.poll(() => status.textContent()).toBe('Cancelled; nothing was changed.');
      expect(await confirmation.isHidden()).toBe(true);
      expect(await tree(page).getByRole('treeitem', { name: 'secret.md' }).count()).toBe(1);

      await historyPanel(page).getByRole('button', { name: 'Forget…' }).click();
      await confirmation.getByRole('button', { name: 'Forget for good' }).click();
      await expect.poll(() => status.textContent()).toBe('Forgot /memories/secret.md for good: deleted 1 file or folder; erased 2 changes from the history.');
      await expect.poll(() => tree(page).getByRole('treeitem', { name: 'secret.md' }).count()).toBe(0);
      await expect.poll(() => historyLines(page)).toEqual(['You wrote a file']);
      await expect.poll(() => historyLines(other)).toEqual(['You wrote a file']);
      expect(await dumpIndexedDB(page)).not.toContain(marker);

      // Clear history: the files stay, every change goes, here and in the other tab.
      await historyPanel(page).getByRole('button', { name: 'Clear history…' }).click();
      const clearing = historyPanel(page).getByRole('group', { name: /^Clear the whole history for good\?/u });
      await clearing.getByRole('button', { name: 'Clear history for good' }).click();
      await expect.poll(() => status.textContent()).toBe('Cleared the history: 1 change erased for good.');
      await expect.poll(() => historyLines(page)).toEqual([]);
      await historyPanel(page).getByText('No changes yet.').waitFor();
      await expect.poll(() => historyLines(other)).toEqual([]);
      expect(await tree(page).getByRole('treeitem', { name: 'keep.md' }).count()).toBe(1);

      // A path nothing knows is refused in the tool's words.
      await path.fill('/memories/never.md');
      await historyPanel(page).getByRole('button', { name: 'Forget…' }).click();
      const refusing = historyPanel(page).getByRole('group', { name: /^Forget \/memories\/never\.md for good\?/u });
      await refusing.getByRole('button', { name: 'Forget for good' }).click();
      await expect
        .poll(() => status.textContent())
        .toBe('There is nothing at /memories/never.md, in the memory or in its history, to forget. Nothing was changed.');
    });
  });
});

describe('expiry and hidden files', () => {
  it('shows a hidden file made in the console, which Claude’s view leaves out', async () => {
    await withDemo(async (page) => {
      await runCommand(page, 'create', { path: '/memories/.scratch.md', file_text: 'only for me' });
      const item = tree(page).getByRole('treeitem', { name: '.scratch.md', exact: true });
      await item.waitFor();
      await expect.poll(() => item.textContent()).toContain('hidden');
      await item.click();
      await expect.poll(() => viewer(page).textContent()).toBe('only for me');
      const listing = await runCommand(page, 'view', { path: '/memories' });
      expect(listing).not.toContain('.scratch.md');
      expect(await historyLines(page)).toEqual(['You wrote a file']);
    });
  });

  it('expires files not used for 0 days: the tree empties, and one Undo brings them back', async () => {
    await withDemo(async (page) => {
      await runCommand(page, 'create', { path: '/memories/projects/plan.md', file_text: 'step one' });
      await runCommand(page, 'create', { path: '/memories/.hidden.md', file_text: 'hidden' });
      await tree(page).getByRole('treeitem', { name: 'plan.md' }).waitFor();
      await tree(page).getByRole('treeitem', { name: '.hidden.md' }).waitFor();

      await showTool(page, 'History');
      const days = page.getByLabel('Delete files not used for');
      const status = page.getByRole('status').filter({ hasText: /deleted/i });
      await days.fill('30');
      await page.getByRole('button', { name: 'Expire', exact: true }).click();
      await expect.poll(() => status.textContent()).toBe('No file has gone unused for 30 days; nothing was deleted.');
      expect(await tree(page).locator('[data-kind="file"]').count()).toBe(2);

      await days.fill('0');
      await page.getByRole('button', { name: 'Expire', exact: true }).click();
      // 0 days deletes every file, so it is asked first.
      await page.getByRole('group', { name: /^0 days deletes every file/u }).getByRole('button', { name: 'Delete all 2 files' }).click();
      await expect.poll(() => status.textContent()).toMatch(/^Deleted 2 files not used for 0 days\. .*Undo there brings them all back\.$/);
      await expect.poll(() => tree(page).locator('[data-kind="file"]').count()).toBe(0);
      // Folders stay.
      await tree(page).getByRole('treeitem', { name: 'projects' }).waitFor();
      await expect.poll(() => historyLines(page)).toEqual(['Expiry deleted 2 unused files', 'You wrote a file', 'You wrote a file']);

      const expiry = change(page, 'Expiry deleted 2 unused files');
      await expiry.getByRole('button', { name: 'Show changes' }).click();
      await expiry.getByText('/memories/projects/plan.md — deleted').waitFor();
      await expect.poll(() => expiry.getByLabel('Diff of /memories/projects/plan.md').locator('del').allTextContents()).toEqual(['- step one\n']);

      await expiry.getByRole('button', { name: 'Undo', exact: true }).click();
      await tree(page).getByRole('treeitem', { name: 'plan.md' }).click();
      await expect.poll(() => viewer(page).textContent()).toBe('step one');
      await tree(page).getByRole('treeitem', { name: '.hidden.md' }).waitFor();
    });
  });

  it('refuses a negative number of days in plain words', async () => {
    await withDemo(async (page) => {
      await page.getByLabel('Delete files not used for').fill('-1');
      await page.getByRole('button', { name: 'Expire', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Enter a number of days, 0 or more.' }).waitFor();
    });
  });
});

describe('a full quota', () => {
  it('says in the console, the transcript and the storage panel that the browser’s storage is full', async () => {
    // Random hex, so that it stays big on disk: Chromium compresses large values ('x' × 400,000 takes a few KB).
    const big = Array.from({ length: 400_000 / 64 }, () => crypto.getRandomValues(new Uint8Array(32)).reduce((hex, byte) => hex + byte.toString(16).padStart(2, '0'), '')).join('');
    const api = await startMessagesApiServer([
      { toolUses: [{ input: { command: 'create', path: '/memories/claude-big.md', file_text: big } }] },
      { text: 'That did not fit.' },
    ]);
    try {
      await withDemo(async (page, context) => {
        // Chromium's own quota override (DevTools "custom storage quota"): a little more than is used now.
        const cdp = await context.newCDPSession(page);
        const used = await page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
        await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(site.url).origin, quotaSize: used + 64 * 1024 });

        const result = await runCommand(page, 'create', { path: '/memories/big.md', file_text: big });
        expect(result).toBe(
          'Error: The browser refused to store this change because its storage quota for this site is full. Nothing was written.',
        );
        // The console said so where the command ran; the Storage tab, not shown, is marked until it is looked at.
        await expect.poll(() => page.getByRole('tab', { name: 'Storage', exact: true }).getAttribute('data-attention')).toBe('');
        await showTool(page, 'Console');
        await page.getByText('is_error: true').waitFor();
        await page.getByRole('tabpanel', { name: 'Command console' }).getByRole('alert').filter({ hasText: 'Storage is full.' }).waitFor();
        await showTool(page, 'Storage');
        const storageAlert = page.getByRole('tabpanel', { name: 'Storage' }).getByRole('alert');
        await expect.poll(() => storageAlert.textContent()).toContain('storage quota for this site is full');
        expect(await tree(page).getByRole('treeitem').count()).toBe(0);
        expect(await historyLines(page)).toEqual([]);

        // The same refusal reaching Claude through the chat is shown as loudly in the transcript.
        await showConnection(page);
        await page.getByLabel('Proxy URL').fill(api.url);
        await page.getByLabel('Message').fill('remember this big thing');
        await page.getByRole('button', { name: 'Send' }).click();
        // Timed out once in CI (120 s, not reproduced): say where the conversation stopped.
        await orShowPage(page, page.getByText('That did not fit.').waitFor(), api);
        const transcript = page.getByRole('log', { name: 'Transcript' });
        await transcript.getByRole('alert').filter({ hasText: 'Storage is full' }).waitFor();
        await expect.poll(() => transcript.getByLabel('Error result').textContent()).toContain('storage quota for this site is full');
        expect(api.toolResults().map((r) => r.is_error)).toEqual([true]);

        // A later write that fits clears the storage alert.
        await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(site.url).origin });
        await runCommand(page, 'create', { path: '/memories/small.md', file_text: 'fits' });
        await expect.poll(() => storageAlert.count()).toBe(0);
      });
    } finally {
      await api.close();
    }
  });
});
