// The names of conflict copies: whole where the tag fits, cut with a hash of the whole name where it does not, and
// read back to the file they copy either way.

import { describe, expect, it } from 'vitest';
import { conflictName, copiedAt, isCopyOf, originalAmong, originalOf } from '../../src/sync/conflict-names.js';

const at = new Date('2026-12-05T01:55:01Z');
const bytes = (text: string): number => new TextEncoder().encode(text).length;

describe('conflictName', () => {
  it('puts the tag before the extension and reads the file back from the name', () => {
    const copy = conflictName('/a/notes.md', at, 'k3f2');
    expect(copy).toBe('/a/notes.conflict-20261205-015501-k3f2.md');
    expect(originalOf(copy)).toBe('/a/notes.md');
    expect(isCopyOf(copy, '/a/notes.md')).toBe(true);
    expect(copiedAt(copy)).toEqual(at);
  });

  it('cuts a name too long for the tag to 255 bytes, never inside a character, and still names its file', () => {
    for (const stem of ['n'.repeat(240), 'é'.repeat(120), '緑'.repeat(80), '😀'.repeat(60)]) {
      const path = `/memories/${stem}.md`;
      const copy = conflictName(path, at, 'abcd');
      const name = copy.slice(copy.lastIndexOf('/') + 1);
      expect(bytes(name)).toBeLessThanOrEqual(255);
      expect(name).not.toContain('\uFFFD');
      expect(name.endsWith('.conflict-20261205-015501-abcd.md')).toBe(true);
      expect(originalOf(copy)).toBeUndefined();
      expect(isCopyOf(copy, path)).toBe(true);
      expect(originalAmong(copy, ['/memories/other.md', path, copy])).toBe(path);
    }
  });

  it('tells apart two long names that share the cut start', () => {
    const one = `/${'n'.repeat(240)}-one.md`;
    const two = `/${'n'.repeat(240)}-two.md`;
    const copy = conflictName(one, at, 'abcd');
    expect(isCopyOf(copy, one)).toBe(true);
    expect(isCopyOf(copy, two)).toBe(false);
    expect(originalAmong(copy, [two, one])).toBe(one);
  });

  it('is no copy of a file in another folder or with another extension', () => {
    const copy = conflictName('/a/notes.md', at, 'k3f2');
    expect(isCopyOf(copy, '/b/notes.md')).toBe(false);
    expect(isCopyOf(copy, '/a/notes.txt')).toBe(false);
    expect(isCopyOf('/a/notes.md', '/a/notes.md')).toBe(false);
  });
});
