// Edits worked out from the change (as big files are) against the whole-file way: seeded random str_replace and
// insert cases store the same text and size, and the snippet around a big file's edit is the SDK's.

import { describe, expect, it } from 'vitest';
import { freshToolEach } from '../helpers/fresh-tool.js';

const fresh = freshToolEach('big-edits');
const { run, ok, create } = fresh;

describe('edits of big files: worked out from the change, as the whole-file way would', () => {
  // Seeded, so a failure names a case that can be run again. Units include lone and paired surrogates,
  // so a replacement can split or join a pair at either edge.
  const UNITS = ['a', 'b', '\n', 'é', '€', '\ud83d', '\ude00', '😀', ' '];
  const randomText = (next: () => number, max: number): string => {
    let text = '';
    for (let n = Math.floor(next() * max); n > 0; n--) text += UNITS[Math.floor(next() * UNITS.length)];
    return text;
  };
  const seeded = (seed: number) => () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const bytes = (text: string) => new TextEncoder().encode(text).length;
  const sizeOf = async (path: string) => (await fresh.tool.list()).find((entry) => entry.path === path)?.size;

  it('str_replace stores the same text and size as replacing in the whole text (400 random cases) (R-replace-match, R-sizes)', async () => {
    const next = seeded(7);
    for (let i = 0; i < 400; i++) {
      const content = randomText(next, 12);
      if (content === '') continue;
      const at = Math.floor(next() * content.length);
      const oldStr = content.slice(at, at + 1 + Math.floor(next() * 3));
      if (content.indexOf(oldStr) !== content.lastIndexOf(oldStr) || content.indexOf(oldStr, content.indexOf(oldStr) + 1) !== -1) continue;
      const newStr = randomText(next, 4);
      const path = `/memories/r${i}.md`;
      await create(path, content);
      const result = await run({ command: 'str_replace', path, old_str: oldStr, new_str: newStr });
      expect(result.is_error, `${i}: ${result.content}`).toBe(false);
      const expected = content.replace(oldStr, () => newStr);
      expect(await fresh.tool.read(path), `case ${i}`).toBe(expected);
      expect(await sizeOf(path), `case ${i}: ${JSON.stringify([content, oldStr, newStr])}`).toBe(bytes(expected));
    }
  });

  it('insert stores the same text and size as splitting, splicing and joining lines (300 random cases) (R-insert, R-sizes)', async () => {
    const next = seeded(11);
    for (let i = 0; i < 300; i++) {
      const content = randomText(next, 10);
      const lines = content.split('\n');
      const line = Math.floor(next() * (lines.length + 2)) - (i % 25 === 0 ? 1 : 0);
      const text = randomText(next, 4) + (next() < 0.3 ? '\n' : '');
      const path = `/memories/i${i}.md`;
      await create(path, content);
      const result = await run({ command: 'insert', path, insert_line: line, insert_text: text });
      if (line < 0 || line > lines.length) {
        expect(result.content).toBe(
          `Error: Invalid \`insert_line\` parameter: ${line}. It should be within the range of lines of the file: [0, ${lines.length}]`,
        );
        expect(await fresh.tool.read(path)).toBe(content);
        continue;
      }
      expect(result.is_error, `${i}: ${result.content}`).toBe(false);
      const expected = [...lines.slice(0, line), text.replace(/\n$/u, ''), ...lines.slice(line)].join('\n');
      expect(await fresh.tool.read(path), `case ${i}: ${JSON.stringify([content, line, text])}`).toBe(expected);
      expect(await sizeOf(path)).toBe(bytes(expected));
    }
  });

  it('shows the lines around a str_replace of a big file as the SDK does (R-replace-snippet)', async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i + 1}`);
    await create('/memories/big.md', lines.join('\n'));
    expect(await ok({ command: 'str_replace', path: '/memories/big.md', old_str: 'line 2500\n', new_str: 'new A\nnew B\n' })).toBe(
      'The memory file has been edited. Here is the snippet showing the change (with line numbers):\n' +
        ['  2498\tline 2498', '  2499\tline 2499', '  2500\tnew A', '  2501\tnew B', '  2502\tline 2501'].join('\n'),
    );
    expect(await ok({ command: 'str_replace', path: '/memories/big.md', old_str: 'line 5000', new_str: 'end' })).toMatch(
      // One line longer now: the first edit made two lines of one.
      /  5000\tline 4999\n  5001\tend$/u,
    );
  });
});
