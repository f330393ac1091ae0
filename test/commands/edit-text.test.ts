// The text work of an edit, against the obvious way (encode the whole result, split it into lines) on random texts
// with newlines and surrogate halves: the size a replacement leaves, where a line starts, the lines a snippet shows.

import { describe, expect, it } from 'vitest';
import { countLines, lineStart, linesAt, replacedSize } from '../../src/commands/edit-text.js';
import { utf8Length } from '../../src/core/utf8.js';

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}
const next = random(11);
const alphabet = ['a', 'é', '\n', '\ud83d', '\ude00', '😀'];
const pick = (length: number): string => Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
const upTo = (n: number): number => Math.floor(next() * (n + 1));

describe('replacedSize', () => {
  it('equals the UTF-8 length of the edited text, surrogate halves joining or parting at both ends (R-sizes, R-limits)', () => {
    for (let round = 0; round < 3000; round++) {
      const content = pick(upTo(12));
      const at = upTo(content.length);
      const end = at + upTo(content.length - at);
      const newStr = pick(upTo(4));
      const edited = content.slice(0, at) + newStr + content.slice(end);
      expect(replacedSize(utf8Length(content), content, at, end, newStr), JSON.stringify([content, at, end, newStr])).toBe(
        utf8Length(edited),
      );
    }
  });
});

describe('lines without splitting', () => {
  it('count as split("\\n") does (R-insert-line)', () => {
    for (const text of ['', '\n', 'a', 'a\n', 'a\nb', '\n\n\n']) expect(countLines(text)).toBe(text.split('\n').length);
  });

  it('start where split("\\n") puts them, and say how far a line past the end got (R-insert)', () => {
    for (let round = 0; round < 500; round++) {
      const text = pick(upTo(10));
      const lines = text.split('\n');
      const line = upTo(lines.length + 1);
      const { at, passed } = lineStart(text, line);
      expect(passed).toBe(Math.min(line, lines.length - 1));
      expect(at).toBe(lines.slice(0, passed).join('\n').length + (passed > 0 ? 1 : 0));
    }
  });

  it('show the lines a snippet names, none past the end (R-replace-snippet)', () => {
    for (let round = 0; round < 500; round++) {
      const text = pick(upTo(10));
      const lines = text.split('\n');
      const first = upTo(lines.length + 1);
      const count = upTo(5);
      expect(linesAt(text, first, count)).toEqual(lines.slice(first, first + count));
    }
  });
});
