// Import: the round trip, merge and replace, one change in the history, the conflict policies, dry runs, the input
// kinds, change events, prototype keys, progress, and 10,000 files.

import { describe, expect, it } from 'vitest';
import type { BundleFile, ImportBundleOptions } from '../../src/bundle/format.js';
import { importChanges } from '../../src/bundle/format.js';
import { TIME, bundleOf, bundleText, file, sha256 } from '../helpers/bundles.js';
import { followFolder } from '../helpers/follow-views.js';
import { EXPORTED_AT, bundleTools, read, refusal, snapshot, write } from './tools.js';

const { freshTool, usageOf, bodyCount } = bundleTools();

describe('importBundle', () => {
  it('round-trips a memory byte for byte into an empty one', async () => {
    const source = await freshTool();
    const deep = '/memories/' + Array.from({ length: 30 }, (_, i) => `level${i}`).join('/') + '/deep.md';
    await write(source, '/memories/empty.md', '');
    await write(source, '/memories/crlf.txt', 'line one\r\nline two\r\n');
    await write(source, '/memories/café/日本語 ノート.md', 'Grüße 👋🏽 — ☃\n“quoted” \u0000 and \t tab\n');
    await write(source, deep, 'bottom\n');
    await write(source, '/memories/big.txt', 'abcdefghijklmnopqrstuvwxyz012345'.repeat(32 * 1024)); // 1 MiB
    await write(source, '/memories/hollow/inner/placeholder.md', 'x');
    await source.delete({ command: 'delete', path: '/memories/hollow/inner/placeholder.md' });
    const exported = await source.exportBundle({ exportedAt: EXPORTED_AT });

    const target = await freshTool();
    const report = await target.importBundle(new File([exported], 'bundle.json', { type: 'application/json' }));
    expect(report).toMatchObject({ added: 5, replaced: 0, skipped: 0, removed: 0, dryRun: false });
    expect(report.folderPaths).toContain('/memories/hollow/inner');
    const again = await target.exportBundle({ exportedAt: EXPORTED_AT });
    // Compared as digests: a deep equality over a megabyte of bytes is slow and its diff unreadable.
    expect(again.size).toBe(exported.size);
    expect(await sha256(again)).toBe(await sha256(exported));
    for (const path of ['/memories', '/memories/crlf.txt', '/memories/café/日本語 ノート.md', deep, '/memories/hollow']) {
      expect(await read(target, path)).toBe(await read(source, path));
    }
    expect(await usageOf(target)).toEqual(await usageOf(source));
  });

  it('merges by default: keeps what the memory holds and overwrites files on both sides', async () => {
    // No history: the body count then shows that nothing replaced or removed is left behind.
    const tool = await freshTool(undefined, { history: false });
    await write(tool, '/memories/mine.md', 'mine');
    await write(tool, '/memories/both.md', 'old');
    const report = await tool.importBundle(await bundleOf({ '/memories/both.md': 'new', '/memories/sub/theirs.md': 'theirs' }));
    expect(report).toEqual({
      added: 1,
      replaced: 1,
      unchanged: 0,
      skipped: 0,
      removed: 0,
      folders: 1,
      dryRun: false,
      addedPaths: ['/memories/sub/theirs.md'],
      replacedPaths: ['/memories/both.md'],
      unchangedPaths: [],
      skippedPaths: [],
      removedPaths: [],
      folderPaths: ['/memories/sub'],
      removedFolderPaths: [],
    });
    expect(await read(tool, '/memories/both.md')).toContain('     1\tnew');
    expect(await read(tool, '/memories/mine.md')).toContain('     1\tmine');
    expect(await usageOf(tool)).toEqual({ bytes: 4 + 3 + 6, files: 3 });
    expect(await bodyCount(tool)).toBe(3);
  });

  it('is one change in the history, and undo puts the memory back as it was', async () => {
    const tool = await freshTool();
    await write(tool, '/memories/mine.md', 'mine');
    await write(tool, '/memories/both.md', 'old');
    const before = await snapshot(tool);
    const bundle = await bundleOf({ '/memories/both.md': 'new', '/memories/sub/theirs.md': 'theirs' }, ['/memories/blank']);
    await tool.importBundle(bundle, { mode: 'replace' });
    const [latest] = await tool.history();
    expect(latest).toMatchObject({ actor: 'user', command: 'import', undoable: true });
    await tool.undo();
    expect(await snapshot(tool)).toBe(before);
    expect(await usageOf(tool)).toEqual({ bytes: 4 + 3, files: 2 });
  });

  it('journals nothing for an import that changes nothing, so undo() still takes back the last real change', async () => {
    const tool = await freshTool();
    await write(tool, '/memories/mine.md', 'mine');
    const history = await tool.history();
    await tool.importBundle(await bundleOf({}));
    await tool.importBundle(await bundleOf({ '/memories/mine.md': 'theirs' }), { onConflict: 'skip' });
    expect(await tool.history()).toEqual(history);
    await tool.undo();
    expect(await tool.list()).toEqual([]);
  });

  it('replaces: leaves exactly the bundle, removing files and folders it does not name', async () => {
    // No history: the body count then shows that nothing replaced or removed is left behind.
    const tool = await freshTool(undefined, { history: false });
    await write(tool, '/memories/mine.md', 'mine');
    await write(tool, '/memories/old/deep/gone.md', 'gone');
    await write(tool, '/memories/both.md', 'old');
    const bundle = await bundleOf({ '/memories/both.md': 'new', '/memories/sub/theirs.md': 'theirs' }, ['/memories/blank']);
    const report = await tool.importBundle(bundle, { mode: 'replace' });
    expect(report).toMatchObject({ added: 1, replaced: 1, removed: 2, folders: 2 });
    expect(report.removedPaths.sort()).toEqual(['/memories/mine.md', '/memories/old/deep/gone.md']);
    expect(report.removedFolderPaths.sort()).toEqual(['/memories/old', '/memories/old/deep']);
    const after = JSON.parse(await snapshot(tool)) as { files: BundleFile[]; folders: string[] };
    expect(after.files.map((f) => [f.path, f.content])).toEqual([
      ['/memories/both.md', 'new'],
      ['/memories/sub/theirs.md', 'theirs'],
    ]);
    expect(after.folders).toEqual(['/memories/blank']);
    expect(await read(tool, '/memories')).not.toContain('old');
    expect(await usageOf(tool)).toEqual({ bytes: 3 + 6, files: 2 });
    expect(await bodyCount(tool)).toBe(2);
  });

  it('replaces a memory file that stands where the bundle needs a folder, and a folder where it has a file', async () => {
    // No history: the body count then shows that nothing replaced or removed is left behind.
    const tool = await freshTool(undefined, { history: false });
    await write(tool, '/memories/base.md', 'a file');
    await write(tool, '/memories/notes/inner.md', 'in a folder');
    const bundle = await bundleOf({ '/memories/base.md/child.md': 'child', '/memories/notes': 'now a file' });
    await expect(tool.importBundle(bundle)).rejects.toMatchObject({ code: 'invalid_bundle' });
    const report = await tool.importBundle(bundle, { mode: 'replace' });
    expect(report).toMatchObject({ added: 2, removed: 2, folders: 1 });
    expect(await read(tool, '/memories/notes')).toContain('now a file');
    expect(await read(tool, '/memories/base.md')).toContain('child.md');
    expect(await usageOf(tool)).toEqual({ bytes: 5 + 10, files: 2 });
    expect(await bodyCount(tool)).toBe(2);
  });

  it('overwrites a file on both sides under onConflict "overwrite", taking the bundle times too', async () => {
    const tool = await freshTool();
    await write(tool, '/memories/both.md', 'old');
    const report = await tool.importBundle(await bundleOf({ '/memories/both.md': 'new' }), { onConflict: 'overwrite' });
    expect(report).toMatchObject({ replaced: 1, skipped: 0 });
    const after = JSON.parse(await snapshot(tool)) as { files: BundleFile[] };
    expect(after.files).toEqual([await file('/memories/both.md', 'new')]);
  });

  it('keeps the memory copy of a file on both sides under onConflict "skip"', async () => {
    const tool = await freshTool();
    await write(tool, '/memories/both.md', 'old');
    const bundle = await bundleOf({ '/memories/both.md': 'new', '/memories/fresh.md': 'fresh' });
    const report = await tool.importBundle(bundle, { onConflict: 'skip' });
    expect(report).toMatchObject({ added: 1, replaced: 0, skipped: 1, skippedPaths: ['/memories/both.md'] });
    expect(await read(tool, '/memories/both.md')).toContain('\told');
    expect(await read(tool, '/memories/fresh.md')).toContain('\tfresh');
    expect(await usageOf(tool)).toEqual({ bytes: 3 + 5, files: 2 });
  });

  it('leaves a file whose text the memory holds already as it is: unchanged, not replaced, written, journaled or heard', async () => {
    const tool = await freshTool();
    await write(tool, '/memories/same.md', 'same text');
    await write(tool, '/memories/other.md', 'old');
    const sameBefore = (await tool.list()).find((entry) => entry.path === '/memories/same.md');
    const heard: string[] = [];
    tool.subscribe((event) => heard.push(...event.changes.map((change) => `${change.type} ${change.path}`)));
    const bundle = await bundleOf({ '/memories/same.md': 'same text', '/memories/other.md': 'new' });
    expect(await tool.importBundle(bundle, { dryRun: true })).toMatchObject({ replaced: 1, unchanged: 1 });
    const report = await tool.importBundle(bundle);
    expect(report).toMatchObject({
      added: 0,
      replaced: 1,
      unchanged: 1,
      replacedPaths: ['/memories/other.md'],
      unchangedPaths: ['/memories/same.md'],
    });
    expect(heard).toEqual(['write /memories/other.md']);
    const [latest] = await tool.history();
    expect(latest).toMatchObject({ command: 'import', paths: ['/memories/other.md'] });
    // Not written: the file keeps its own times, not the bundle's.
    expect((await tool.list()).find((entry) => entry.path === '/memories/same.md')).toEqual(sameBefore);
  });

  it('journals nothing for a bundle of the texts the memory holds, such as its own export', async () => {
    const tool = await freshTool();
    await write(tool, '/memories/a.md', 'a');
    await write(tool, '/memories/sub/b.md', 'b');
    const history = await tool.history();
    const report = await tool.importBundle(await tool.exportBundle(), { mode: 'replace' });
    expect(report).toMatchObject({ added: 0, replaced: 0, unchanged: 2, removed: 0, folders: 0 });
    expect(importChanges(report)).toEqual([]);
    expect(await tool.history()).toEqual(history);
  });

  it('takes the same text for no conflict: onConflict "fail" and "skip" do not apply to it, and replace keeps it', async () => {
    const tool = await freshTool();
    await write(tool, '/memories/same.md', 'same');
    await write(tool, '/memories/mine.md', 'mine');
    const bundle = await bundleOf({ '/memories/same.md': 'same', '/memories/new.md': 'new' });
    for (const mode of ['merge', 'replace'] as const) {
      for (const onConflict of ['fail', 'skip'] as const) {
        const report = await tool.importBundle(bundle, { mode, onConflict, dryRun: true });
        expect(report).toMatchObject({ skipped: 0, unchanged: 1, unchangedPaths: ['/memories/same.md'] });
        expect(report.removedPaths).toEqual(mode === 'replace' ? ['/memories/mine.md'] : []);
      }
    }
    // The same size is not the same text.
    const sameSize = await tool.importBundle(await bundleOf({ '/memories/same.md': 'SAME' }), { dryRun: true });
    expect(sameSize).toMatchObject({ replaced: 1, unchanged: 0 });
  });

  it('refuses the whole import under onConflict "fail", naming the first conflicting path', async () => {
    const tool = await freshTool();
    await write(tool, '/memories/b.md', 'old b');
    await write(tool, '/memories/c.md', 'old c');
    const before = await snapshot(tool);
    const bundle = await bundleOf({ '/memories/a.md': 'new', '/memories/c.md': 'new c', '/memories/b.md': 'new b' });
    for (const mode of ['merge', 'replace'] as const) {
      const error = await refusal(tool.importBundle(bundle, { onConflict: 'fail', mode }));
      expect(error.code).toBe('conflict');
      expect(error.message).toBe(
        'Cannot import the bundle: files[1] "/memories/c.md" already exists in the memory, and with onConflict "fail" a file in both refuses the import. Nothing was changed.',
      );
      expect(await snapshot(tool)).toBe(before);
    }
    const dry = await refusal(tool.importBundle(bundle, { onConflict: 'fail', dryRun: true }));
    expect(dry.code).toBe('conflict');
  });

  it('reports under dryRun exactly what the import would do, and writes nothing', async () => {
    const tool = await freshTool();
    await write(tool, '/memories/mine.md', 'mine');
    await write(tool, '/memories/both.md', 'old');
    const before = await snapshot(tool);
    const usage = await usageOf(tool);
    const bundle = await bundleOf({ '/memories/both.md': 'new', '/memories/sub/theirs.md': 'theirs' }, ['/memories/blank']);
    for (const mode of ['merge', 'replace'] as const) {
      const progress: number[] = [];
      const options: ImportBundleOptions = { mode, dryRun: true, onProgress: (done, total) => progress.push(done, total) };
      const dry = await tool.importBundle(bundle, options);
      expect(dry.dryRun).toBe(true);
      expect(progress.slice(-2)).toEqual([2, 2]);
      expect(await snapshot(tool)).toBe(before);
      expect(await usageOf(tool)).toEqual(usage);
      const scratch = await freshTool();
      await write(scratch, '/memories/mine.md', 'mine');
      await write(scratch, '/memories/both.md', 'old');
      expect({ ...(await scratch.importBundle(bundle, { mode })), dryRun: true }).toEqual(dry);
    }
  });

  it('accepts a Blob, a File or a string (with or without a BOM) and lists its changes for listeners', async () => {
    const text = await bundleOf({ '/memories/a.md': 'a' });
    for (const input of [text, '\ufeff' + text, new Blob([text]), new File([text], 'x.json')]) {
      const tool = await freshTool();
      const report = await tool.importBundle(input);
      expect(report.addedPaths).toEqual(['/memories/a.md']);
      expect(importChanges(report)).toEqual([{ type: 'write', path: '/memories/a.md' }]);
    }
  });

  it('announces an import that only makes or removes folders', async () => {
    const tool = await freshTool();
    const heard: unknown[] = [];
    const stop = tool.subscribe((event) => heard.push(...event.changes));
    await tool.importBundle(await bundleOf({}, ['/memories/blank']));
    await tool.importBundle(await bundleOf({}, []), { mode: 'replace' });
    stop();
    expect(heard).toEqual([
      { type: 'write', path: '/memories/blank' },
      { type: 'delete', path: '/memories/blank' },
    ]);
  });

  it('never pollutes Object.prototype through __proto__ or constructor keys', async () => {
    const tool = await freshTool();
    const good = await file('/memories/p.md', 'p');
    const text = `{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 1}},
      "format": "claude-memory-bundle", "version": 1, "exportedAt": "${TIME}",
      "files": [{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 1}},
        "path": "/memories/p.md", "content": "p", "createdAt": "${TIME}", "updatedAt": "${TIME}", "sha256": "${good.sha256}"}],
      "folders": []}`;
    const report = await tool.importBundle(text);
    expect(report.added).toBe(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
    expect(await read(tool, '/memories/p.md')).toContain('\tp');
  });

  it('keeps an import that committed when onProgress throws on its last call, and announces it; one throwing before refuses it', async () => {
    const tool = await freshTool();
    // 1,000 files: progress is also reported once while hashing, before the write.
    const contents = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`/memories/f${i}.md`, i === 0 ? 'a' : '']));
    const bundle = await bundleOf(contents);
    const events: string[] = [];
    const stop = tool.subscribe((event) => events.push(...event.changes.map((change) => change.path)));
    // Before the write: the import is refused and nothing is stored.
    const before = tool.importBundle(bundle, {
      onProgress: (done, total) => {
        if (done < total) throw new Error('no progress bar');
      },
    });
    await expect(before).rejects.toThrow('no progress bar');
    expect(await tool.list()).toEqual([]);
    // On its last call, after the commit: the import stands, and its report and change events are not lost.
    const report = await tool.importBundle(bundle, {
      onProgress: (done, total) => {
        if (done === total) throw new Error('progress bar gone');
      },
    });
    stop();
    expect(report.added).toBe(1000);
    expect(events).toHaveLength(1000);
    expect(await read(tool, '/memories/f0.md')).toContain('\ta');
    expect(await usageOf(tool)).toEqual({ bytes: 1, files: 1000 });
  });

  it('refuses the whole import when onProgress throws while files are written, from an answered write or a skipped file', async () => {
    // 2,000 files: progress at 1,000 and 2,000 while hashing, at 3,000 in the write, last at 4,000 after the commit.
    const contents = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`/memories/d${i % 20}/f${i}.md`, `new ${i}`]));
    const bundle = await bundleOf(contents);
    const stopAt = (at: number, calls: number[]) => (done: number) => {
      calls.push(done);
      if (done === at) throw new Error(`stopped at ${at}`);
    };
    // Every file new: the 3,000th step is the answer to the 1,000th file's write.
    const fresh = await freshTool();
    const calls: number[] = [];
    await expect(fresh.importBundle(bundle, { onProgress: stopAt(3000, calls) })).rejects.toThrow('stopped at 3000');
    expect(calls).toEqual([1000, 2000, 3000]);
    expect(await fresh.list()).toEqual([]);
    expect(await usageOf(fresh)).toEqual({ bytes: 0, files: 0 });
    // 1,500 files kept as the memory has them (skipped before any write): the 3,000th step is a skipped file.
    const held = await freshTool();
    const old = Object.fromEntries(Object.keys(contents).slice(0, 1500).map((path) => [path, 'old']));
    await held.importBundle(await bundleOf(old));
    const before = await snapshot(held);
    const heldCalls: number[] = [];
    const skipping = held.importBundle(bundle, { onConflict: 'skip', onProgress: stopAt(3000, heldCalls) });
    await expect(skipping).rejects.toThrow('stopped at 3000');
    expect(await snapshot(held)).toBe(before);
    // Without the throw, the same import reports every 1,000th file and stores the 500 new ones.
    const counted: number[] = [];
    const report = await held.importBundle(bundle, { onConflict: 'skip', onProgress: (done) => counted.push(done) });
    expect(report).toMatchObject({ added: 500, skipped: 1500 });
    expect(counted).toEqual([1000, 2000, 3000, 4000]);
    expect(await usageOf(held)).toEqual({ bytes: 1500 * 3 + utf8Bytes(Object.values(contents).slice(1500)), files: 2000 });
  }, 60_000);

  it('imports 10,000 small files, reporting increasing progress at least every 1,000 files up to the total', async () => {
    const files = await Promise.all(
      Array.from({ length: 10_000 }, (_, i) =>
        file(`/memories/bulk/d${String(i % 100).padStart(2, '0')}/f${i}.md`, `note ${i} `.padEnd(99, 'x') + '\n'),
      ),
    );
    const tool = await freshTool();
    const calls: [number, number][] = [];
    const report = await tool.importBundle(bundleText(files), { onProgress: (done, total) => calls.push([done, total]) });
    expect(report).toMatchObject({ added: 10_000, folders: 101 });
    expect(calls.at(-1)).toEqual([20_000, 20_000]);
    let previous = 0;
    for (const [done, total] of calls) {
      expect(total).toBe(20_000);
      expect(done).toBeGreaterThan(previous);
      expect(done - previous).toBeLessThanOrEqual(1000);
      previous = done;
    }
    expect(await usageOf(tool)).toEqual({ bytes: 10_000 * 100, files: 10_000 });
    expect(await read(tool, '/memories/bulk/d42/f9942.md')).toContain('note 9942 xxx');
    // The listing is cut to the reply bound: its notes page through every entry.
    expect((await followFolder((input) => tool.run(input), '/memories/bulk')).entries).toHaveLength(100 + 10_000);
    const back = JSON.parse(await snapshot(tool)) as { files: BundleFile[] };
    expect(back.files).toHaveLength(10_000);
  }, 180_000);
});

function utf8Bytes(texts: readonly string[]): number {
  return texts.reduce((sum, text) => sum + new TextEncoder().encode(text).length, 0);
}
