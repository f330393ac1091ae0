// The Offline demo's story in the built demo, as a person plays it: the default script over two conversations (the
// second starts by viewing /memories and answers from what the first wrote, and the file opens with what the script
// changed marked), and the long task's compaction in the transcript.

import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { builtDemoForFile, openDemo, runCommand, withDiskProfile } from './harness.js';

const NOTE = '/memories/offline-demo.md';
const site = builtDemoForFile();

/** Plays the script chosen in the picker, and waits until it is over (the buttons are back). */
async function play(page: Page, label?: string): Promise<void> {
  if (label !== undefined) await page.getByLabel('Offline script').selectOption({ label });
  await page.getByRole('button', { name: 'Offline demo' }).click();
  await expect.poll(() => page.getByRole('button', { name: 'Offline demo' }).isDisabled()).toBe(true);
  await expect.poll(() => page.getByRole('button', { name: 'Offline demo' }).isEnabled(), { timeout: 120_000 }).toBe(true);
}

/** The transcript, item by item: its kind (user, claude, tool, note) and its text (a tool call's heading). */
function transcript(page: Page): Promise<Array<{ kind: string; text: string }>> {
  return page.locator('#transcript > *').evaluateAll((items) =>
    items.map((item) => {
      const kind = ['user', 'claude', 'tool', 'failure', 'note'].find((name) => item.classList.contains(name)) ?? '?';
      const who = kind === 'tool' ? item.querySelector('.who')?.textContent : undefined;
      const body = kind === 'user' || kind === 'claude' ? item.querySelector('p')?.textContent : undefined;
      return { kind, text: (who ?? body ?? item.textContent ?? '').trim() };
    }),
  );
}

describe('the Offline demo’s story', () => {
  it('remembers across conversations: the new one views /memories first and answers from what the first wrote', async () => {
    await withDiskProfile(async (context) => {
      const page = await openDemo(context, site.url);
      // The two-conversation story is the default.
      expect(await page.getByLabel('Offline script').inputValue()).toBe('remember');
      await play(page);

      const items = await transcript(page);
      const split = items.findIndex((item) => item.text === 'New conversation: Claude knows only what /memories holds.');
      expect(split).toBeGreaterThan(0);
      const [first, second] = [items.slice(0, split), items.slice(split + 1)];
      // The first learns and writes; the second only reads, starting with the memory directory.
      expect(first.filter((item) => item.kind === 'tool').map((item) => item.text)).toEqual([
        'memory · view /memories',
        `memory · create ${NOTE}`,
        `memory · str_replace ${NOTE}`,
      ]);
      expect(second.find((item) => item.kind === 'user')?.text).toBe('What do I like to drink?');
      expect(second.filter((item) => item.kind === 'tool').map((item) => item.text)).toEqual([
        'memory · view /memories',
        `memory · view ${NOTE}`,
      ]);
      // Its answer is what the first conversation wrote, read back from the file.
      const answer = second.filter((item) => item.kind === 'claude').at(-1)?.text;
      expect(answer).toBe('My note from our last conversation says: “Drinks green tea, no sugar”. That is what I will go by.');

      // The file the script wrote is open, every line of it new (the memory was empty), and chosen in the tree.
      await expect.poll(() => page.locator('#viewer-path').textContent()).toBe(NOTE);
      expect(await page.getByLabel('File content').textContent()).toBe('# About the user\n- Drinks green tea, no sugar\n');
      expect(await page.locator('#viewer mark').allTextContents()).toEqual(['# About the user\n', '- Drinks green tea, no sugar\n']);
      expect(await page.getByLabel('Memory files').getByRole('treeitem', { name: 'offline-demo.md' }).getAttribute('aria-selected')).toBe('true');
      await page.getByText(`Opened ${NOTE} in the Memory panel, the lines the script wrote marked.`).waitFor();
    });
  });

  it('marks only the lines the script changed in a file that was there before', async () => {
    await withDiskProfile(async (context) => {
      const page = await openDemo(context, site.url);
      await runCommand(page, 'create', { path: NOTE, file_text: '# About the user\n- Lives in Lyon\n' });
      await play(page);
      await expect.poll(() => page.locator('#viewer mark').allTextContents()).toEqual(['- Drinks green tea, no sugar\n']);
      expect(await page.getByLabel('File content').textContent()).toBe('# About the user\n- Drinks green tea, no sugar\n');
      // Opened again by hand, the file is plain text.
      await page.getByLabel('Memory files').getByRole('treeitem', { name: 'offline-demo.md' }).click();
      await expect.poll(() => page.locator('#viewer mark').count()).toBe(0);
    });
  });

  it('shows a long task’s context cleared, then compacted, and the conversation going on from the summary', async () => {
    await withDiskProfile(async (context) => {
      const page = await openDemo(context, site.url);
      await play(page, 'A long task: context cleared, then compacted');
      const log = page.getByRole('log', { name: 'Transcript' });
      await log.getByText('Context cleared by the API: 2 old tool uses, 3,100 tokens.').waitFor();
      const compacted = log.locator('.compacted');
      expect(await compacted.locator('p').first().textContent()).toMatch(
        /^The API compacted the conversation: a summary of [\d,]+ characters now stands for the 9 messages before it\.$/u,
      );
      await compacted.getByText('Summary', { exact: true }).click();
      expect(await compacted.locator('details p').textContent()).toContain('The route (six stages, Chamonix to Zermatt) and the gear are done');
      // After the summary, Claude reads its checklist and finishes; the usage line counts the compaction apart.
      const items = await transcript(page);
      const at = items.findIndex((item) => item.text.startsWith('The API compacted the conversation'));
      expect(items.slice(at).find((item) => item.kind === 'tool')?.text).toBe('memory · view /memories/checklist.md');
      expect(items.at(-2)?.text).toBe('The plan is complete: route, gear, food and budget, each ticked in /memories/checklist.md.');
      expect(await page.locator('#usage').textContent()).toMatch(/; 1 compaction: \d+ in, \d+ out\.$/u);
      // The file it wrote last opens.
      await expect.poll(() => page.locator('#viewer-path').textContent()).toBe('/memories/progress.md');
    });
  });
});
