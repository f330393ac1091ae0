// Which change events reach a live view of a path (src/react/change-scope.ts): the path, below it, or a folder above.

import { describe, expect, it } from 'vitest';
import type { MemoryChange } from '../../src/index.js';
import { changedBelow, changesReaching } from '../../src/react/change-scope.js';

const event = (...changes: MemoryChange[]) => ({ dbName: 'x', changes, source: 'local' as const });
const write = (path: string): MemoryChange => ({ type: 'write', path });
const remove = (path: string): MemoryChange => ({ type: 'delete', path });
const rename = (from: string, path: string): MemoryChange => ({ type: 'rename', from, path });

describe('changesReaching', () => {
  it('takes every change for the whole memory, however /memories is spelled', () => {
    for (const root of ['/memories', '/memories/', '/memories//']) {
      expect(changesReaching(root)(event(write('/memories/a.md')))).toBe(true);
    }
  });

  it('takes a change to the path, below it, or to a folder above it', () => {
    const reaches = changesReaching('/memories/notes');
    expect(reaches(event(write('/memories/notes')))).toBe(true);
    expect(reaches(event(write('/memories/notes/deep/a.md')))).toBe(true);
    expect(reaches(event(remove('/memories/notes')))).toBe(true);
    expect(changesReaching('/memories/notes/a.md')(event(remove('/memories/notes')))).toBe(true);
  });

  it('takes a rename by either end: moved in, moved out, or a folder above moved', () => {
    const reaches = changesReaching('/memories/notes/a.md');
    expect(reaches(event(rename('/memories/tmp.md', '/memories/notes/a.md')))).toBe(true);
    expect(reaches(event(rename('/memories/notes/a.md', '/memories/b.md')))).toBe(true);
    expect(reaches(event(rename('/memories/notes', '/memories/old-notes')))).toBe(true);
    expect(reaches(event(rename('/memories/x', '/memories/notes')))).toBe(true);
  });

  it('leaves out siblings, names that only start alike, and folders below another branch', () => {
    const reaches = changesReaching('/memories/notes/a.md');
    expect(reaches(event(write('/memories/notes/b.md')))).toBe(false);
    expect(reaches(event(write('/memories/notes/a.md.bak')))).toBe(false);
    expect(reaches(event(write('/memories/notes-2/a.md')))).toBe(false);
    expect(reaches(event(rename('/memories/x.md', '/memories/y.md')))).toBe(false);
    expect(reaches(event(write('/memories/x.md'), remove('/memories/notes/a.md')))).toBe(true);
  });

  it('compares normalized keys: a path given with doubled slashes or NFD names is the same path', () => {
    expect(changesReaching('/memories//notes/a.md/')(event(write('/memories/notes/a.md')))).toBe(true);
    expect(changesReaching('/memories/cafe\u0301.md')(event(write('/memories/caf\u00e9.md')))).toBe(true);
  });

  it('takes no change for a refused path, whose reads all fail alike', () => {
    expect(changesReaching('/memories/../etc')(event(write('/memories/a.md')))).toBe(false);
  });

  it('passes over the history-only changes: a forget (its file, if there, comes with a delete) and a cleared history', () => {
    for (const path of ['/memories', '/memories/notes', '/memories/notes/a.md']) {
      const reaches = changesReaching(path);
      expect(reaches(event({ type: 'forget', path: '/memories/notes/a.md' }))).toBe(false);
      expect(reaches(event({ type: 'history-cleared', path: '/memories' }))).toBe(false);
      expect(reaches(event(remove('/memories/notes/a.md'), { type: 'forget', path: '/memories/notes/a.md' }))).toBe(true);
    }
  });

  it('takes an event that does not say what it changed: no changes, or one without a path or of an unknown kind', () => {
    const reaches = changesReaching('/memories/notes/a.md');
    expect(reaches({ dbName: 'x', changes: [], source: 'remote' })).toBe(true);
    expect(reaches({ dbName: 'x', changes: [{ type: 'write' } as unknown as MemoryChange], source: 'remote' })).toBe(true);
    expect(reaches(event({ type: 'moved', path: '/memories/x.md' } as unknown as MemoryChange))).toBe(true);
  });
});

describe('changedBelow', () => {
  it('gives the changed paths below the folder, a rename by both ends, and none from elsewhere', () => {
    expect(changedBelow('/memories/notes', event(write('/memories/notes/a.md'), write('/memories/other.md')))).toEqual([
      '/memories/notes/a.md',
    ]);
    expect(changedBelow('/memories', event(rename('/memories/notes/a.md', '/memories/b.md')))).toEqual([
      '/memories/b.md',
      '/memories/notes/a.md',
    ]);
    expect(changedBelow('/memories/notes', event(rename('/memories/notes/a.md', '/memories/b.md')))).toEqual([
      '/memories/notes/a.md',
    ]);
    expect(changedBelow('/memories/notes', event({ type: 'forget', path: '/memories/notes/a.md' }))).toEqual([]);
  });

  it('gives all for a change to the folder itself or one above it, and for an event without details', () => {
    expect(changedBelow('/memories/notes', event(remove('/memories/notes')))).toBe('all');
    expect(changedBelow('/memories/notes/deep', event(rename('/memories/notes', '/memories/old')))).toBe('all');
    expect(changedBelow('/memories/notes', event(rename('/memories/x', '/memories/notes')))).toBe('all');
    expect(changedBelow('/memories', { dbName: 'x', changes: [], source: 'remote' })).toBe('all');
  });
});
