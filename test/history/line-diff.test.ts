import { describe, expect, it } from 'vitest';
import { keptLines } from '../../src/history/line-diff.js';
import { seededRandom } from '../helpers/seeded-random.js';

/** The length of a longest common subsequence, by the textbook table: the size every optimal diff keeps. */
function lcsLength(a: readonly string[], b: readonly string[]): number {
  let row = new Array<number>(b.length + 1).fill(0);
  for (const line of a) {
    const next = [0];
    for (let j = 1; j <= b.length; j++) {
      next[j] = line === b[j - 1] ? (row[j - 1] ?? 0) + 1 : Math.max(row[j] ?? 0, next[j - 1] ?? 0);
    }
    row = next;
  }
  return row[b.length] ?? 0;
}

/** Checks `kept` maps equal lines in increasing order, and answers how many it kept. */
function checkedKept(a: readonly string[], b: readonly string[], kept: Int32Array): number {
  let last = -1;
  let count = 0;
  kept.forEach((i, j) => {
    if (i < 0) return;
    expect(i).toBeGreaterThan(last);
    expect(a[i]).toBe(b[j]);
    last = i;
    count++;
  });
  return count;
}

describe('keptLines', () => {
  it('keeps a longest common subsequence of lines, in order, for 3,000 seeded random pairs', () => {
    const seed = 3401;
    const random = seededRandom(seed);
    const pick = (alphabet: string) => alphabet[Math.floor(random() * alphabet.length)] ?? 'a';
    for (let round = 0; round < 3000; round++) {
      const alphabet = 'abcde'.slice(0, 1 + Math.floor(random() * 5));
      const a = Array.from({ length: Math.floor(random() * 20) }, () => pick(alphabet));
      const b = Array.from({ length: Math.floor(random() * 20) }, () => pick(alphabet));
      const kept = keptLines(a, b);
      expect(checkedKept(a, b, kept), `seed ${seed}, round ${round}: ${a.join('')} → ${b.join('')}`).toBe(
        lcsLength(a, b),
      );
    }
  });

  it('marks every line of an unrelated text as written, and every line of the same text as kept', () => {
    expect([...keptLines(['a', 'b'], ['c', 'd', 'e'])]).toEqual([-1, -1, -1]);
    expect([...keptLines(['a', 'b', 'c'], ['a', 'b', 'c'])]).toEqual([0, 1, 2]);
  });

  it('bounds its work: past the budget the middle counts as rewritten, the common ends still kept', () => {
    const before = Array.from({ length: 2000 }, (_, i) => `old ${i}`);
    const after = Array.from({ length: 2000 }, (_, i) => (i % 2 === 0 ? `old ${i}` : `new ${i}`));
    const a = ['head', ...before, 'tail'];
    const b = ['head', ...after, 'tail'];
    const cheap = keptLines(a, b, 100);
    expect(cheap[0]).toBe(0);
    expect(cheap[b.length - 1]).toBe(a.length - 1);
    expect(checkedKept(a, b, cheap)).toBeLessThan(1002);
    expect(checkedKept(a, b, keptLines(a, b))).toBe(1002);
  });
});
