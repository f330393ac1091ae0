// Every reply Claude reads stays within the reply bound (16,000 characters by default, `Error: ` included), is cut at
// a line or entry boundary, and its last line names the view_range that reads on: so every byte of every file and
// every entry of every folder can be read. Runs on fake-indexeddb and in each browser project.

import { describe, expect, it } from 'vitest';
import { IndexedDBMemoryTool } from '../../src/index.js';
import { bundleOf } from '../helpers/bundles.js';
import { followFile, followFolder } from '../helpers/follow-views.js';
import { freshToolEach } from '../helpers/fresh-tool.js';
import { callsOn } from '../helpers/tool-calls.js';

const BOUND = 16_000;
const fresh = freshToolEach('bounds');
const { run, ok, fails, create } = fresh;
const lastLine = (text: string): string => text.slice(text.lastIndexOf('\n') + 1);

/** Reads `path` by following the notes: every line as stored, every reply within the bound but one-line ranges. */
async function expectWholeReadable(path: string, content: string): Promise<string[]> {
  const seen = await followFile(run, path);
  const lines = content.split('\n');
  expect(seen.lines.size).toBe(lines.length);
  lines.forEach((line, i) => {
    if (seen.lines.get(i + 1) !== line) expect.fail(`line ${i + 1} read back differs (${line.length} characters stored)`);
  });
  return seen.replies;
}

describe('a file view', () => {
  it('shows a one-line view_range whole, however long the line, as the official tool does (R-cut-line)', async () => {
    const long = 'y'.repeat(20_000);
    await create('/memories/f.txt', `short\n${long}\nafter`);
    const reply = await ok({ command: 'view', path: '/memories/f.txt', view_range: [2, 2] });
    expect(reply).toBe(`Here's the content of /memories/f.txt with line numbers:\n     2\t${long}`);
  });

  it('cuts a plain view after the last whole line that fits and names the exact view_range that reads on (R-cut-view)', async () => {
    await create('/memories/f.txt', `short\n${'y'.repeat(20_000)}\nafter`);
    const reply = await ok({ command: 'view', path: '/memories/f.txt' });
    expect(reply).toBe(
      "Here's the content of /memories/f.txt with line numbers:\n     1\tshort\n" +
        '[Output cut at 16000 characters: showing lines 1-1 of 3. Use view_range [2, 3] to see the rest.]',
    );
    const next = await ok({ command: 'view', path: '/memories/f.txt', view_range: [2, 3] });
    expect(next.length).toBeLessThanOrEqual(BOUND);
    expect(lastLine(next)).toMatch(
      /^\[Output cut at 16000 characters: line 2 is 20000 characters long and only its first \d+ are shown\. Use view_range \[2, 2\] to see the whole line, then view_range \[3, 3\] for the rest\.\]$/,
    );
    await expectWholeReadable('/memories/f.txt', `short\n${'y'.repeat(20_000)}\nafter`);
  });

  it('lets every byte of files of any shape be read, each reply within the bound unless it names one line (R-cut-view, R-cut-line)', async () => {
    const shapes: Record<string, string> = {
      'many short lines': Array.from({ length: 5000 }, (_, i) => `line ${i + 1} ${'x'.repeat(i % 50)}`).join('\n'),
      'one line of a megabyte less a little': 'j'.repeat(1024 * 1024 - 16),
      'long lines among short ones': Array.from({ length: 40 }, (_, i) => (i % 7 === 3 ? 'L'.repeat(17_000 + i) : `s${i}`)).join('\n'),
      'lines of emoji across every cut': Array.from({ length: 30 }, (_, i) => 'x'.repeat(i % 2) + '\u{1f600}'.repeat(3000 + i)).join('\n'),
      'lines that just fit and just do not': ['a'.repeat(15_900), 'b'.repeat(15_930), 'c'.repeat(15_950), 'd'].join('\n'),
    };
    for (const [name, content] of Object.entries(shapes)) {
      const path = `/memories/${name.replaceAll(' ', '-')}.txt`;
      await create(path, content);
      const replies = await expectWholeReadable(path, content);
      for (const reply of replies) {
        const numbered = reply.split('\n').length === 2;
        if (!numbered) expect(reply.length, name).toBeLessThanOrEqual(BOUND);
        // Never half of a surrogate pair at a cut.
        expect(/[\ud800-\udfff]/u.test(reply), name).toBe(false);
      }
    }
  });

  it('keeps a view that fits exactly as the official tool shows it, with no note (R-bound)', async () => {
    const content = Array.from({ length: 100 }, (_, i) => `row ${i}`).join('\n');
    await create('/memories/a.md', content);
    const reply = await ok({ command: 'view', path: '/memories/a.md' });
    expect(reply.split('\n').length).toBe(101);
    expect(reply).not.toContain('[Output cut');
  });
});

describe('a folder view', () => {
  it('cuts a listing of 20,000 files at an entry, and the view_ranges its notes name list each entry once (R-cut-listing)', async () => {
    const files = Array.from({ length: 20_000 }, (_, i) => ({ path: `/memories/n${String(i).padStart(5, '0')}.md`, content: 'x' }));
    await fresh.tool.importBundle(await bundleOf(Object.fromEntries(files.map((file) => [file.path, file.content]))));
    const first = await ok({ command: 'view', path: '/memories' });
    expect(first.length).toBeLessThanOrEqual(BOUND);
    expect(lastLine(first)).toMatch(
      /^\[Listing cut at 16000 characters: showing entries 1-\d+ of 20000\. Use view_range \[\d+, 20000\] on this folder to see the next ones, or view one of its folders\.\]$/,
    );
    const seen = await followFolder(run, '/memories');
    for (const reply of seen.replies) expect(reply.length).toBeLessThanOrEqual(BOUND);
    expect(seen.entries).toEqual(files.map((file) => `1B\t${file.path}`));
  }, 300_000);

  it('pages with view_range, numbering entries in the listed order, and says when a range names none (R-view-range-folder)', async () => {
    for (const path of ['/memories/a/1.md', '/memories/a/2.md', '/memories/b.md']) await create(path, '');
    const head = "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n4K\t/memories";
    expect(await ok({ command: 'view', path: '/memories', view_range: [2, 3] })).toBe(
      `${head}\n0B\t/memories/a/1.md\n0B\t/memories/a/2.md\n[Showing entries 2-3 of 4.]`,
    );
    expect(await ok({ command: 'view', path: '/memories', view_range: [1, -1] })).toBe(
      `${head}\n4K\t/memories/a/\n0B\t/memories/a/1.md\n0B\t/memories/a/2.md\n0B\t/memories/b.md`,
    );
    expect(await ok({ command: 'view', path: '/memories', view_range: [9, 12] })).toBe(
      `${head}\n[view_range [9, 12] names no entries: this folder lists 4 (view_range [1, 4]).]`,
    );
  });
});

describe('str_replace', () => {
  it('lists the lines of many matches within the bound, saying how many were left out (R-cut-refusals)', async () => {
    await create('/memories/x.md', 'x\n'.repeat(500_000));
    const reply = await fails({ command: 'str_replace', path: '/memories/x.md', old_str: 'x' });
    expect(reply.length).toBeLessThanOrEqual(BOUND);
    expect(reply).toMatch(/^Error: No replacement was performed\. Multiple occurrences of old_str `x` in lines: 1, 2, 3, /u);
    expect(lastLine(reply)).toMatch(/^\[\d+ of the 500000 lines with a match are listed\. Add the text around old_str that makes it unique\.\]$/);
  });

  it('echoes a long old_str cut to the bound, in both refusals (R-cut-refusals)', async () => {
    await create('/memories/a.md', `${'A'.repeat(200_000)}\n${'A'.repeat(200_000)}`);
    const none = await fails({ command: 'str_replace', path: '/memories/a.md', old_str: `${'A'.repeat(199_999)}B` });
    expect(none.length).toBeLessThanOrEqual(BOUND);
    expect(none.startsWith('Error: No replacement was performed, old_str `AAAA')).toBe(true);
    expect(lastLine(none)).toMatch(/^\[old_str is 200000 characters long; only its first \d+ are shown above\.\]$/);
    const many = await fails({ command: 'str_replace', path: '/memories/a.md', old_str: 'A'.repeat(150_000) });
    expect(many.length).toBeLessThanOrEqual(BOUND);
    expect(many).toContain('in lines: 1, 2. Please ensure it is unique');
    expect(lastLine(many)).toMatch(/^\[2 of the 2 lines with a match are listed, and the first \d{4} of the 150000 characters of old_str\. Add the text around old_str that makes it unique\.\]$/u);
  });

  it('cuts the snippet of an edit on a long line and names the lines to view (R-cut-snippet)', async () => {
    await create('/memories/one.md', `${'q'.repeat(500_000)}TARGET${'q'.repeat(100)}`);
    const reply = await ok({ command: 'str_replace', path: '/memories/one.md', old_str: 'TARGET', new_str: 'DONE' });
    expect(reply.length).toBeLessThanOrEqual(BOUND);
    expect(lastLine(reply)).toBe('[Snippet cut at 16000 characters. View lines 1-1 with view_range to see them; a range of one line shows it whole.]');
  });

  it('keeps the official wording whole when it fits (R-replace-many)', async () => {
    await create('/memories/a.md', 'x x\ny\nx');
    expect(await fails({ command: 'str_replace', path: '/memories/a.md', old_str: 'x' })).toBe(
      'Error: No replacement was performed. Multiple occurrences of old_str `x` in lines: 1, 3. Please ensure it is unique',
    );
  });
});

describe('the maxReplyChars limit', () => {
  it('bounds every reply at what it says (R-bound)', async () => {
    const small = callsOn(await fresh.another({ limits: { maxReplyChars: 10_000 } }));
    await small.create('/memories/a.md', Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n'));
    const reply = await small.ok({ command: 'view', path: '/memories/a.md' });
    expect(reply.length).toBeLessThanOrEqual(10_000);
    expect(lastLine(reply)).toMatch(/^\[Output cut at 10000 characters: showing lines 1-\d+ of 3000\./u);
    const refusal = await small.fails({ command: 'str_replace', path: '/memories/a.md', old_str: 'line' });
    expect(refusal.length).toBeLessThanOrEqual(10_000);
  });

  it('refuses a bound too small to hold two paths, before opening anything (R-bound)', async () => {
    await expect(IndexedDBMemoryTool.init({ dbName: `bounds-${crypto.randomUUID()}`, limits: { maxReplyChars: 9_999 } })).rejects.toThrow(
      'limits.maxReplyChars must be at least 10000, got 9999',
    );
  });
});
