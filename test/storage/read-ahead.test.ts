// ReadAhead: which body a file had when the tool last saw it, for small files only, and for the files seen last;
// StagedReadAhead: what one write saw, kept only once it commits.
// The guesses' use (read beside the entry, checked against it) is tested through the tool in test/tool/read-ahead.test.ts.

import { describe, expect, it } from 'vitest';
import { READ_AHEAD_BYTES, READ_AHEAD_FILES, ReadAhead, StagedReadAhead } from '../../src/storage/read-ahead.js';
import type { EntryRecord } from '../../src/storage/schema.js';

const file = (path: string, bodyId: number, size = 10): EntryRecord => ({
  path,
  parent: path.slice(0, path.lastIndexOf('/')),
  kind: 'file',
  size,
  bodyId,
  createdAt: 0,
  updatedAt: 0,
});

describe('ReadAhead', () => {
  it('guesses the body a file had when last seen, and nothing for what it has not seen', () => {
    const ahead = new ReadAhead();
    expect(ahead.guess('/memories/a.md')).toBeUndefined();
    ahead.saw('/memories/a.md', file('/memories/a.md', 7));
    expect(ahead.guess('/memories/a.md')).toBe(7);
    ahead.saw('/memories/a.md', file('/memories/a.md', 9));
    expect(ahead.guess('/memories/a.md')).toBe(9);
  });

  it('forgets a file seen gone, seen as a folder, or grown past the read-ahead size', () => {
    const ahead = new ReadAhead();
    const folder: EntryRecord = { path: '/memories/dir', parent: '/memories', kind: 'folder', size: 0, createdAt: 0, updatedAt: 0 };
    const cases: Array<[EntryRecord | undefined, string]> = [
      [undefined, '/memories/gone.md'],
      [folder, '/memories/dir'],
      [file('/memories/big.md', 3, READ_AHEAD_BYTES + 1), '/memories/big.md'],
    ];
    for (const [seen, path] of cases) {
      ahead.saw(path, file(path, 1));
      ahead.saw(path, seen);
      expect(ahead.guess(path)).toBeUndefined();
    }
    ahead.saw('/memories/edge.md', file('/memories/edge.md', 4, READ_AHEAD_BYTES));
    expect(ahead.guess('/memories/edge.md')).toBe(4);
  });

  it(`keeps the ${READ_AHEAD_FILES} files seen last`, () => {
    const ahead = new ReadAhead();
    const path = (i: number): string => `/memories/f${i}.md`;
    for (let i = 0; i < READ_AHEAD_FILES; i++) ahead.saw(path(i), file(path(i), i + 1));
    // Seen again: now the latest, so the next one pushes out f1 instead.
    ahead.saw(path(0), file(path(0), 1));
    ahead.saw(path(READ_AHEAD_FILES), file(path(READ_AHEAD_FILES), 999));
    expect(ahead.guess(path(1))).toBeUndefined();
    expect(ahead.guess(path(0))).toBe(1);
    expect(ahead.guess(path(2))).toBe(3);
    expect(ahead.guess(path(READ_AHEAD_FILES))).toBe(999);
  });
});

describe('StagedReadAhead', () => {
  it('guesses from the tool\'s guesses, and adds what the write saw only when it commits', () => {
    const ahead = new ReadAhead();
    ahead.saw('/memories/a.md', file('/memories/a.md', 1));
    const rolledBack = new StagedReadAhead(ahead);
    expect(rolledBack.guess('/memories/a.md')).toBe(1);
    rolledBack.saw('/memories/a.md', file('/memories/a.md', 2));
    rolledBack.saw('/memories/b.md', file('/memories/b.md', 3));
    // Not committed: the write's body ids were never stored.
    expect(ahead.guess('/memories/a.md')).toBe(1);
    expect(ahead.guess('/memories/b.md')).toBeUndefined();
    const committed = new StagedReadAhead(ahead);
    committed.saw('/memories/a.md', file('/memories/a.md', 4));
    committed.saw('/memories/gone.md', undefined);
    committed.commit();
    expect(ahead.guess('/memories/a.md')).toBe(4);
    expect(ahead.guess('/memories/gone.md')).toBeUndefined();
  });
});
