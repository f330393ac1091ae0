// The demo's review of Claude's writes in Chromium, driven as a person would: with review on, the Offline demo's
// scripted writes come as cards with their diff; Deny (with a reason) stores nothing and Claude is told, Allow
// stores, "Allow for this conversation" lets the next write through unasked; Stop withdraws an open card; the blame
// gutter names who wrote each line, says "forgotten" where forget() erased it, and is one tab stop that Up and Down
// move along; axe finds nothing on the card or the gutter.

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { builtDemoForFile, openDemo, runCommand, showTool, withDiskProfile } from './harness.js';

const site = builtDemoForFile();
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
/** As test/e2e/demo-a11y.test.ts: WCAG 2.0–2.2 A and AA, best practices, 24 px targets, visible label in the name. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const EXTRA_RULES = { 'target-size': { enabled: true }, 'label-content-name-mismatch': { enabled: true } };
const NOTE = '/memories/offline-demo.md';

/** axe-core's violations within `selector`, light and dark, one line per element. */
async function violations(page: Page, selector: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(await readFile(AXE, 'utf8'));
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const lines = await page.evaluate(
      async ({ tags, rules, selector }) => {
        const axe = (window as unknown as { axe: { run(context: string, options: object): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> }> }> } }).axe;
        const result = await axe.run(selector, { runOnly: { type: 'tag', values: tags }, rules, resultTypes: ['violations'] });
        return result.violations.flatMap((v) => v.nodes.map((node) => `${v.id} at ${node.target.map(String).join(' ')}: ${node.failureSummary ?? ''}`));
      },
      { tags: TAGS, rules: EXTRA_RULES, selector },
    );
    found.push(...lines.map((line) => `${colorScheme}: ${line}`));
  }
  await page.emulateMedia({ colorScheme: null });
  return found;
}

/** Turns review on in the Memory pane and reloads, as the setting asks. */
async function turnReviewOn(page: Page): Promise<void> {
  await page.getByLabel("Review Claude's writes").check();
  await page.getByRole('button', { name: 'Reload now' }).click();
  await page.waitForSelector('body[data-ready="true"]');
  expect(await page.getByLabel("Review Claude's writes").isChecked()).toBe(true);
}

/** The `n`-th review card (1-based) in the transcript, once it has appeared. */
async function card(page: Page, n: number): Promise<Locator> {
  const found = page.locator('#transcript .msg.review').nth(n - 1);
  await found.waitFor();
  return found;
}

/** Plays the first Offline demo script to its end (its buttons come back). */
async function playToEnd(page: Page, answer: (page: Page) => Promise<void>): Promise<void> {
  await page.getByRole('button', { name: 'Offline demo' }).click();
  await answer(page);
  await page.waitForFunction(() => (document.getElementById('offline-demo') as HTMLButtonElement | null)?.disabled === false);
}

describe('the demo’s review of Claude’s writes', () => {
  it('asks with a diff; Deny tells Claude and stores nothing, Allow stores, Allow for this conversation stops asking; the gutter names the writer', async () => {
    await withDiskProfile(async (context) => {
      const page = await openDemo(context, site.url);
      await turnReviewOn(page);

      // Deny with a reason: the create is not stored, and Claude reads the reason.
      await playToEnd(page, async () => {
        const first = await card(page, 1);
        expect(await first.getByText(`Claude asks to create ${NOTE}`).count()).toBe(1);
        expect(await first.textContent()).toContain('A new file: 2 lines added, 0 lines removed.');
        // The diff marks its lines by sign and in words, not by colour alone.
        const added = first.locator('ins.line.added');
        expect(await added.allTextContents()).toEqual(['+ added: # About the user\n', '+ added: - Drinks tea\n']);
        // It took focus as it appeared; Tab reaches its field and buttons; Escape does not deny.
        expect(await page.evaluate(() => document.activeElement?.classList.contains('review') ?? false)).toBe(true);
        await page.keyboard.press('Escape');
        expect(await first.getAttribute('data-outcome')).toBeNull();
        expect(await violations(page, '#transcript .msg.review')).toEqual([]);
        await first.getByLabel('Reason to deny (optional, Claude reads it)').fill('not on a shared computer');
        await first.getByRole('button', { name: 'Deny' }).click();
        expect(await first.textContent()).toContain('Denied: not on a shared computer. Nothing was written.');
        expect(await first.getByRole('button').count()).toBe(0);
      });
      const told = page.locator('#transcript pre.result.error').filter({ hasText: 'The person declined this write' });
      expect(await told.first().textContent()).toContain('not on a shared computer');
      expect(await page.locator('#memory-tree [role="treeitem"]', { hasText: 'offline-demo.md' }).count()).toBe(0);

      // Allow, then Allow again: both writes are stored.
      await page.getByRole('button', { name: 'New conversation' }).click();
      await playToEnd(page, async () => {
        await (await card(page, 1)).getByRole('button', { name: 'Allow', exact: true }).click();
        const second = await card(page, 2);
        expect(await second.getByText(`Claude asks to str_replace ${NOTE}`).count()).toBe(1);
        expect(await second.locator('del.line.removed').allTextContents()).toEqual(['− removed: - Drinks tea\n']);
        await second.getByRole('button', { name: 'Allow', exact: true }).click();
        expect(await second.textContent()).toContain('Allowed.');
      });
      await page.getByText('My note from our last conversation says: “Drinks green tea, no sugar”.', { exact: false }).waitFor();

      // Allow for this conversation: the second write of the conversation is not asked.
      await page.getByRole('button', { name: 'New conversation' }).click();
      await playToEnd(page, async () => {
        await (await card(page, 1)).getByRole('button', { name: 'Allow for this conversation' }).click();
      });
      expect(await page.locator('#transcript .msg.review').count()).toBe(1);
      expect(await page.locator('#transcript pre.result.ok').filter({ hasText: 'has been edited' }).count()).toBe(1);

      // The blame gutter: every line of the note written by claude, its conversation on focus.
      await page.getByLabel('Show who wrote each line').check();
      const gutter = page.locator('#blame table.blame');
      await gutter.waitFor();
      const cells = gutter.locator('.blame-who');
      expect(await cells.count()).toBeGreaterThan(1);
      for (const text of await cells.allTextContents()) expect(text).toMatch(/^claude, .*conversation /u);
      await cells.first().focus();
      expect(await cells.first().locator('.blame-tip').isVisible()).toBe(true);
      expect(await violations(page, '#blame')).toEqual([]);
    });
  });

  it('withdraws the open card when the turn is stopped, and asks nothing with review off', async () => {
    await withDiskProfile(async (context) => {
      const page = await openDemo(context, site.url);
      await turnReviewOn(page);
      await page.getByRole('button', { name: 'Offline demo' }).click();
      const open = await card(page, 1);
      await page.getByRole('button', { name: 'Stop' }).click();
      expect(await open.textContent()).toContain('Withdrawn: the turn was stopped. Nothing was written.');
      expect(await open.getByRole('button').count()).toBe(0);
      await page.waitForFunction(() => (document.getElementById('offline-demo') as HTMLButtonElement | null)?.disabled === false);
      expect(await page.locator('#memory-tree [role="treeitem"]', { hasText: 'offline-demo.md' }).count()).toBe(0);

      // Off: Claude writes without asking (the tool keeps its hook until a reload, and the hook allows).
      await page.getByLabel("Review Claude's writes").uncheck();
      await page.getByRole('button', { name: 'New conversation' }).click();
      await playToEnd(page, async () => undefined);
      expect(await page.locator('#transcript .msg.review').count()).toBe(0);
      await page.getByText('My note from our last conversation says: “Drinks green tea, no sugar”.', { exact: false }).waitFor();
    });
  });
});

describe('the demo’s blame gutter', () => {
  it('says forgotten for lines whose change was forgotten, and is one tab stop that Up, Down, Home and End move along', async () => {
    await withDiskProfile(async (context) => {
      const page = await openDemo(context, site.url);
      // a.md written, renamed to b.md, and a.md forgotten: b.md keeps the text, the change that wrote it is erased.
      await runCommand(page, 'create', { path: '/memories/a.md', file_text: 'one\ntwo\nthree' });
      await runCommand(page, 'rename', { old_path: '/memories/a.md', new_path: '/memories/b.md' });
      await showTool(page, 'History');
      const history = page.getByRole('tabpanel', { name: 'What Claude changed' });
      await history.getByLabel('Path', { exact: true }).fill('/memories/a.md');
      await history.getByRole('button', { name: 'Forget…' }).click();
      await history.getByRole('button', { name: 'Forget for good' }).click();
      await expect.poll(() => page.locator('#forget-status').textContent()).toMatch(/^Forgot \/memories\/a\.md for good/u);
      await runCommand(page, 'insert', { path: '/memories/b.md', insert_line: '3', insert_text: 'four' });

      await page.getByLabel('Memory files').getByRole('treeitem', { name: 'b.md', exact: true }).click();
      await page.getByLabel('Show who wrote each line').check();
      const cells = page.locator('#blame table.blame .blame-who');
      await expect.poll(() => cells.count()).toBe(4);
      const texts = await cells.allTextContents();
      for (const text of texts.slice(0, 3)) expect(text).toMatch(/^forgotten, the change that wrote it was forgotten for good/u);
      expect(texts[3]).toMatch(/^user, .*change \d+/u);
      expect(await page.locator('#blame .blame-who.forgotten').count()).toBe(3);

      // One tab stop: only the first cell is in the tab order until the keys move it.
      const stops = () => cells.evaluateAll((all) => all.map((cell) => (cell as HTMLElement).tabIndex));
      expect(await stops()).toEqual([0, -1, -1, -1]);
      const focusedLine = () =>
        page.evaluate(() => [...document.querySelectorAll('#blame .blame-who')].indexOf(document.activeElement as Element));
      await cells.first().focus();
      await page.keyboard.press('ArrowDown');
      expect(await focusedLine()).toBe(1);
      expect(await cells.nth(1).locator('.blame-tip').isVisible()).toBe(true);
      await page.keyboard.press('End');
      expect(await focusedLine()).toBe(3);
      await page.keyboard.press('ArrowDown');
      expect(await focusedLine()).toBe(3);
      await page.keyboard.press('ArrowUp');
      expect(await focusedLine()).toBe(2);
      expect(await stops()).toEqual([-1, -1, 0, -1]);
      await page.keyboard.press('Home');
      expect(await focusedLine()).toBe(0);
      await page.keyboard.press('ArrowDown');
      // Tab leaves the gutter in one press; Shift+Tab comes back to the line it left.
      await page.keyboard.press('Tab');
      expect(await focusedLine()).toBe(-1);
      await page.keyboard.press('Shift+Tab');
      expect(await focusedLine()).toBe(1);
      expect(await violations(page, '#blame')).toEqual([]);
    });
  });
});
