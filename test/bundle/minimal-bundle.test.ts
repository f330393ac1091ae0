// Liberal in what a bundle may leave out, strict in what it says: only format, version and each file's path and
// content are required. A missing hash is not checked, a missing time is taken from the other or the import's
// clock, missing folders are made from the file paths, and null means not given; what is given is still checked.

import { describe, expect, it } from 'vitest';
import { EMPTY_SHA, TIME, sha256 } from '../helpers/bundles.js';
import { bundleTools, refusal, snapshot, write } from './tools.js';

const { freshTool } = bundleTools();

const minimal = (files: unknown[], more: Record<string, unknown> = {}): string =>
  JSON.stringify({ format: 'claude-memory-bundle', version: 1, files, ...more });

describe('a bundle that leaves out what it may', () => {
  it('imports the minimal form: format, version, and files of path and content', async () => {
    const tool = await freshTool();
    const text = '{ "format": "claude-memory-bundle", "version": 1, "files": [{ "path": "/memories/a.md", "content": "…" }] }';
    const before = Date.now();
    const report = await tool.importBundle(text);
    const after = Date.now();
    expect(report).toMatchObject({ added: 1, folders: 0 });
    expect(await tool.read('/memories/a.md')).toBe('…');
    const [entry] = await tool.list();
    // No time given: created and updated when imported.
    expect(entry?.createdAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(entry?.updatedAt.getTime()).toBeLessThanOrEqual(after);
    expect(entry?.createdAt.getTime()).toBe(entry?.updatedAt.getTime());
    // And the memory exports it in full, hash and times included.
    const exported = JSON.parse(await snapshot(tool)) as { files: Record<string, unknown>[]; folders: unknown };
    expect(exported.files[0]).toMatchObject({ path: '/memories/a.md', sha256: await sha256('…') });
    expect(exported.folders).toEqual([]);
  });

  it('makes the folders from the file paths when folders is missing', async () => {
    const tool = await freshTool();
    const report = await tool.importBundle(minimal([{ path: '/memories/deep/er/a.md', content: 'a' }]));
    expect(report.folderPaths).toEqual(['/memories/deep', '/memories/deep/er']);
  });

  it('takes a missing createdAt from updatedAt, and a missing updatedAt from the import', async () => {
    const tool = await freshTool();
    const before = Date.now();
    await tool.importBundle(
      minimal([
        { path: '/memories/updated.md', content: 'u', updatedAt: TIME },
        { path: '/memories/created.md', content: 'c', createdAt: TIME },
      ]),
    );
    const times = Object.fromEntries((await tool.list()).map((e) => [e.name, [e.createdAt.getTime(), e.updatedAt.getTime()]]));
    expect(times['updated.md']).toEqual([Date.parse(TIME), Date.parse(TIME)]);
    expect(times['created.md']?.[0]).toBe(Date.parse(TIME));
    expect(times['created.md']?.[1]).toBeGreaterThanOrEqual(before);
  });

  it('reads null as not given, for the hash, the times, folders and exportedAt', async () => {
    const tool = await freshTool();
    const report = await tool.importBundle(
      minimal([{ path: '/memories/n.md', content: 'n', sha256: null, createdAt: null, updatedAt: null }], { folders: null, exportedAt: null }),
    );
    expect(report.addedPaths).toEqual(['/memories/n.md']);
  });

  it('still checks what it says: a wrong or malformed hash, a bad time, folders or exportedAt of the wrong kind', async () => {
    const tool = await freshTool();
    await write(tool, '/memories/kept.md', 'kept');
    const before = await snapshot(tool);
    const cases: [string, string][] = [
      [minimal([{ path: '/memories/a.md', content: 'a', sha256: EMPTY_SHA }]), 'files[0] "/memories/a.md": its "sha256" does not match its content'],
      [minimal([{ path: '/memories/a.md', content: 'a', sha256: 'abc' }]), '"sha256" must be 64 lowercase hex digits, got "abc"'],
      [minimal([{ path: '/memories/a.md', content: 'a', sha256: 12 }]), '"sha256" must be 64 lowercase hex digits, got 12'],
      [minimal([{ path: '/memories/a.md', content: 'a', updatedAt: '2026-02-30T00:00:00Z' }]), '"updatedAt" must be an ISO 8601'],
      [minimal([], { folders: '/memories/x' }), '"folders" must be an array, got "/memories/x"'],
      [minimal([], { exportedAt: 0 }), '"exportedAt" must be an ISO 8601'],
      [minimal([{ path: '/memories/a.md' }]), '"content" must be a string, got nothing'],
      [minimal([{ content: 'a' }]), '"path" must be a path string, got nothing'],
      [JSON.stringify({ format: 'claude-memory-bundle', version: 1 }), '"files" must be an array, got nothing'],
      [JSON.stringify({ format: 'claude-memory-bundle', files: [] }), '"version" must be a positive integer, got nothing'],
      [JSON.stringify({ version: 1, files: [] }), '"format" must be "claude-memory-bundle", got nothing'],
    ];
    for (const [bundle, says] of cases) {
      const error = await refusal(tool.importBundle(bundle));
      expect(error.code).toBe('invalid_bundle');
      expect(error.message).toContain(says);
    }
    expect(await snapshot(tool)).toBe(before);
  });

  it('hashes only the files that give a hash, and reports progress for every file', async () => {
    const tool = await freshTool();
    const files = await Promise.all(
      Array.from({ length: 2500 }, async (_, i) =>
        i % 2 === 0 ? { path: `/memories/f${i}.md`, content: `${i}` } : { path: `/memories/f${i}.md`, content: `${i}`, sha256: await sha256(`${i}`) },
      ),
    );
    files[1001] = { ...files[1001], sha256: EMPTY_SHA } as (typeof files)[number];
    const error = await refusal(tool.importBundle(minimal(files)));
    expect(error.message).toContain('files[1001] "/memories/f1001.md": its "sha256" does not match');
    files[1001] = { path: '/memories/f1001.md', content: '1001' };
    const calls: [number, number][] = [];
    await tool.importBundle(minimal(files), { onProgress: (done, total) => calls.push([done, total]) });
    let previous = 0;
    for (const [done, total] of calls) {
      expect(total).toBe(5000);
      expect(done).toBeGreaterThan(previous);
      expect(done - previous).toBeLessThanOrEqual(1000);
      previous = done;
    }
    expect(previous).toBe(5000);
  }, 300_000);
});
