// The search behind str_replace: the first two match starts, and the lines every match starts on, equal to a plain
// scan on random texts, and found in one pass however many matches overlap.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { IndexedDBMemoryTool } from '../../src/index.js';
import { firstTwo, lineOf, matchLines } from '../../src/commands/text-search.js';

/** Every start, overlapping ones too, by trying each offset: obviously right, and quadratic. */
function naiveStarts(text: string, needle: string): number[] {
  const starts: number[] = [];
  for (let at = 0; at + needle.length <= text.length; at++) if (text.startsWith(needle, at)) starts.push(at);
  return starts;
}
const naiveLine = (text: string, at: number): number => text.slice(0, at).split('\n').length;

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe('matchLines and firstTwo', () => {
  it('agree with a plain scan on random texts over a small alphabet, newlines and surrogate halves included (R-replace-match, R-replace-many)', () => {
    const next = random(7);
    const alphabet = ['a', 'b', '\n', '\ud83d', '\ude00'];
    const pick = (length: number): string => Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
    for (let round = 0; round < 2000; round++) {
      const text = pick(Math.floor(next() * 60));
      const needle = pick(1 + Math.floor(next() * 5));
      const starts = naiveStarts(text, needle);
      const lines = [...new Set(starts.map((at) => naiveLine(text, at)))];
      expect(matchLines(text, needle), JSON.stringify({ text, needle })).toEqual({ lines, total: lines.length });
      expect(firstTwo(text, needle)).toEqual([starts[0] ?? -1, starts[1] ?? -1]);
      for (const at of starts) expect(lineOf(text, at)).toBe(naiveLine(text, at));
    }
  });

  it('keeps only the first lines asked for and counts the rest (R-cut-refusals)', () => {
    expect(matchLines('x\nx\nx\nx', 'x', 2)).toEqual({ lines: [1, 2], total: 4 });
  });

  it('names the line a match spanning lines starts on (R-replace-many)', () => {
    expect(matchLines('a\nb\na\nb\na', 'a\nb\na')).toEqual({ lines: [1, 3], total: 2 });
  });
});

describe('str_replace on a megabyte of one repeated character', () => {
  let tool: IndexedDBMemoryTool;
  afterEach(() => {
    vi.restoreAllMocks();
    tool.close();
  });

  it('finds the lines of a million overlapping matches in one pass, not one search per match (R-replace-many)', async () => {
    tool = await IndexedDBMemoryTool.init({ dbName: `search-${crypto.randomUUID()}` });
    await tool.create({ command: 'create', path: '/memories/a.txt', file_text: 'A'.repeat(1024 * 1024) });
    const searches = vi.spyOn(String.prototype, 'indexOf');
    for (const length of [10, 5000, 200_000]) {
      const result = await tool.run({ command: 'str_replace', path: '/memories/a.txt', old_str: 'A'.repeat(length), new_str: 'B' });
      expect(result.content.startsWith(`Error: No replacement was performed. Multiple occurrences of old_str \`AAA`)).toBe(true);
      expect(result.content).toContain(' in lines: 1. Please ensure it is unique');
    }
    // A handful per command (the first two starts, the path's checks), where a rescan per match makes millions.
    expect(searches.mock.calls.length).toBeLessThan(200);
  });
});
