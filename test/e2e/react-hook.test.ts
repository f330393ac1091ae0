// useMemoryTree and useMemoryFile across tabs in real Chromium: one tab renders them in a React app, another tab
// writes through its own tool, and the first tab's DOM must show each change. Same origin, one browser profile on
// disk; the tabs run test/e2e/pages/react-hook.html.

import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { servedForFile, startDevServer, withDiskProfile } from './harness.js';

const PAGE = 'test/e2e/pages/react-hook.html';
const server = servedForFile(startDevServer);

/** A new tab on the test page; React's warnings and any uncaught error go to `problems`. */
async function openTab(context: BrowserContext, query: string, problems: string[]): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(120_000);
  page.on('console', (message) => {
    // The browser's own request for /favicon.ico, which the dev server does not have, is no problem of the page.
    if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) {
      problems.push(`${message.text()} (${message.location().url})`);
    }
  });
  page.on('pageerror', (error) => problems.push(String(error)));
  await page.goto(`${server.url}${PAGE}?${query}`);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  return page;
}

/** What the viewing tab shows: the tree's status and paths, and the notes file's status and text. */
function shown(page: Page): Promise<{ tree: string; paths: string[]; notes: string; text: string }> {
  return page.evaluate(() => {
    const tree = document.querySelector<HTMLElement>('#tree');
    const notes = document.querySelector<HTMLElement>('#notes');
    return {
      tree: tree?.dataset.status ?? '',
      paths: [...(tree?.querySelectorAll('li') ?? [])].map((item) => item.textContent ?? ''),
      notes: notes?.dataset.status ?? '',
      text: notes?.textContent ?? '',
    };
  });
}

async function run(page: Page, input: unknown): Promise<void> {
  const result = await page.evaluate((command) => window.reactHook.run(command), input);
  expect(result.is_error, result.content).toBe(false);
}

describe('the React hooks across tabs', () => {
  it("re-renders the tree and the file's text in one tab when another tab writes, renames and deletes", async () => {
    await withDiskProfile(async (context) => {
      const db = `react-hook-${Date.now()}`;
      const problems: string[] = [];
      const viewer = await openTab(context, `db=${db}&view`, problems);
      await expect.poll(() => shown(viewer)).toEqual({ tree: 'ready', paths: [], notes: 'missing', text: '' });

      const writer = await openTab(context, `db=${db}`, problems);
      await run(writer, { command: 'create', path: '/memories/notes.md', file_text: 'hello from the other tab\n' });
      await expect.poll(() => shown(viewer)).toEqual({
        tree: 'ready',
        paths: ['/memories/notes.md'],
        notes: 'ready',
        text: 'hello from the other tab\n',
      });

      await run(writer, { command: 'str_replace', path: '/memories/notes.md', old_str: 'hello', new_str: 'edited' });
      await expect.poll(async () => (await shown(viewer)).text).toBe('edited from the other tab\n');

      await run(writer, { command: 'create', path: '/memories/projects/plan.md', file_text: '- ship\n' });
      await run(writer, { command: 'rename', old_path: '/memories/notes.md', new_path: '/memories/projects/notes.md' });
      await expect.poll(() => shown(viewer)).toEqual({
        tree: 'ready',
        paths: ['/memories/projects', '/memories/projects/notes.md', '/memories/projects/plan.md'],
        notes: 'missing',
        text: '',
      });

      await run(writer, { command: 'rename', old_path: '/memories/projects/notes.md', new_path: '/memories/notes.md' });
      await run(writer, { command: 'delete', path: '/memories/projects' });
      await expect.poll(() => shown(viewer)).toEqual({
        tree: 'ready',
        paths: ['/memories/notes.md'],
        notes: 'ready',
        text: 'edited from the other tab\n',
      });
      expect(problems).toEqual([]);
    });
  });
});
