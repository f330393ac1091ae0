// view through the tool: a folder listed two levels deep (hidden names and node_modules skipped, sizes as the SDK
// prints them), a file with line numbers and view_range, long views cut at a line with a note, a missing path.

import { describe, expect, it } from 'vitest';
import { freshToolEach } from '../helpers/fresh-tool.js';
import { expectCode } from '../helpers/tool-calls.js';

const fresh = freshToolEach('view');
const { ok, fails, create } = fresh;

describe('view of a folder', () => {
  it('lists an empty memory as the header and the root line only (R-view-folder)', async () => {
    expect(await ok({ command: 'view', path: '/memories' })).toBe(
      "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n4K\t/memories",
    );
  });

  it('lists two levels, sorted by code units, folders with a slash and their children right after them (R-view-folder, R-sizes)', async () => {
    await create('/memories/b.md', 'x'.repeat(1536));
    await create('/memories/A.md', '');
    await create('/memories/a/z.md', 'z');
    await create('/memories/a/deep/deeper/x.md', 'x');
    await create('/memories/a/b.md', 'é');
    await create('/memories/_/x', '1'.repeat(1025));
    expect(await ok({ command: 'view', path: '/memories' })).toBe(
      [
        "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:",
        '4K\t/memories',
        '0B\t/memories/A.md',
        '4K\t/memories/_/',
        '1.0K\t/memories/_/x',
        '4K\t/memories/a/',
        '2B\t/memories/a/b.md',
        '4K\t/memories/a/deep/',
        '1B\t/memories/a/z.md',
        '1.5K\t/memories/b.md',
      ].join('\n'),
    );
  });

  it('skips hidden names and node_modules with everything below them (R-view-folder)', async () => {
    await create('/memories/.secret/a.md', 'a');
    await create('/memories/.hidden.md', 'a');
    await create('/memories/node_modules/x.md', 'a');
    await create('/memories/notes/.draft.md', 'a');
    await create('/memories/notes/kept.md', 'abc');
    expect(await ok({ command: 'view', path: '/memories' })).toBe(
      [
        "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:",
        '4K\t/memories',
        '4K\t/memories/notes/',
        '3B\t/memories/notes/kept.md',
      ].join('\n'),
    );
  });

  it('lists a subfolder under the path exactly as Claude sent it (R-path-echo)', async () => {
    await create('/memories/notes/a.md', 'a');
    const content = await ok({ command: 'view', path: '/memories//notes/' });
    expect(content).toBe(
      [
        "Here're the files and directories up to 2 levels deep in /memories//notes/, excluding hidden items and node_modules:",
        '4K\t/memories//notes/',
        '1B\t/memories//notes//a.md',
      ].join('\n'),
    );
  });

  it('formats sizes in K and M (R-sizes)', async () => {
    await create('/memories/k', 'a'.repeat(1024));
    await create('/memories/m', 'a'.repeat(1024 * 1024));
    const lines = (await ok({ command: 'view', path: '/memories' })).split('\n');
    expect(lines).toContain('1K\t/memories/k');
    expect(lines).toContain('1M\t/memories/m');
  });
});

describe('view of a file', () => {
  it('numbers every line of content.split("\\n"), a trailing newline showing as an empty last line (R-view-file)', async () => {
    await create('/memories/a.md', 'one\ntwo\n');
    expect(await ok({ command: 'view', path: '/memories/a.md' })).toBe(
      "Here's the content of /memories/a.md with line numbers:\n     1\tone\n     2\ttwo\n     3\t",
    );
  });

  it('slices view_range like the SDK: start clamped to 1, -1 to the end (R-view-range)', async () => {
    await create('/memories/a.md', 'l1\nl2\nl3\nl4');
    const head = "Here's the content of /memories/a.md with line numbers:";
    expect(await ok({ command: 'view', path: '/memories/a.md', view_range: [2, 3] })).toBe(`${head}\n     2\tl2\n     3\tl3`);
    expect(await ok({ command: 'view', path: '/memories/a.md', view_range: [3, -1] })).toBe(`${head}\n     3\tl3\n     4\tl4`);
    expect(await ok({ command: 'view', path: '/memories/a.md', view_range: [-5, 1] })).toBe(`${head}\n     1\tl1`);
    expect(await ok({ command: 'view', path: '/memories/a.md', view_range: [9, 12] })).toBe(`${head}\n`);
  });

  it('refuses a view_range that is not two integers (R-input)', async () => {
    await create('/memories/a.md', 'x');
    for (const view_range of [[1], [1, 2, 3], [1.5, 2], ['1', '2'], 'all', [1, null]]) {
      expect(await fails({ command: 'view', path: '/memories/a.md', view_range })).toMatch(/"view_range" of view must be two integers/);
    }
  });

  it('cuts a view over 16,000 characters at a whole line and says to use view_range (R-cut-view)', async () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `line ${i + 1} ${'x'.repeat(20)}`);
    await create('/memories/big.md', lines.join('\n'));
    const content = await ok({ command: 'view', path: '/memories/big.md' });
    const shown = content.split('\n');
    const note = shown.at(-1) ?? '';
    expect(note).toMatch(/^\[Output cut at 16000 characters: showing lines 1-\d+ of 2000\. Use view_range \[\d+, 2000\] to see the rest\.\]$/);
    expect(content.length).toBeLessThanOrEqual(16000);
    const last = Number(/lines 1-(\d+)/.exec(note)?.[1]);
    expect(note).toContain(`[${last + 1}, 2000]`);
    expect(shown.at(-2)).toBe(`${String(last).padStart(6)}\tline ${last} ${'x'.repeat(20)}`);
    const rest = await ok({ command: 'view', path: '/memories/big.md', view_range: [last + 1, last + 1] });
    expect(rest.split('\n')[1]).toBe(`${String(last + 1).padStart(6)}\tline ${last + 1} ${'x'.repeat(20)}`);
  });

  it('cuts a single over-long line too (R-cut-line)', async () => {
    await create('/memories/one.md', 'y'.repeat(50_000));
    const content = await ok({ command: 'view', path: '/memories/one.md' });
    expect(content.length).toBeLessThanOrEqual(16_000);
    expect(content).toMatch(/line 1 is 50000 characters long and only its first \d+ are shown\. Use view_range \[1, 1\] to see the whole line\.\]$/);
  });

  it('cuts an over-long line of emoji between characters, never inside one (R-cut-line)', async () => {
    // A lone surrogate in a tool_result is invalid text. The prefix moves the cut to either half of a pair.
    const broken = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u;
    for (const prefix of ['', 'x']) {
      await create('/memories/emoji.md', prefix + '\u{1f600}'.repeat(9000));
      const content = await ok({ command: 'view', path: '/memories/emoji.md' });
      expect(content).toMatch(/Use view_range \[1, 1\] to see the whole line\.\]$/);
      expect(broken.test(content), `prefix ${JSON.stringify(prefix)}`).toBe(false);
      expect(content.length).toBeGreaterThan(15_700);
      expect(content.length).toBeLessThanOrEqual(16_000);
    }
  });

  it('answers a missing path in the SDK wording (R-view-missing)', async () => {
    expect(await fails({ command: 'view', path: '/memories/nope.md' })).toBe(
      'Error: The path /memories/nope.md does not exist. Please provide a valid path.',
    );
    await expectCode(fresh.tool.view({ command: 'view', path: '/memories/nope.md' }), 'not_found');
  });
});
