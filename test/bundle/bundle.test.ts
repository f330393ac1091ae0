// Bundles: export and import of `claude-memory-bundle` JSON, the round trip, merge and replace, the conflict
// policies, dry runs, a corpus of hostile and broken bundles (each refused with nothing changed) and 10,000 files.

import { afterEach, describe, expect, it } from 'vitest';
import type { BundleFile, ImportBundleOptions } from '../../src/bundle/bundle.js';
import { importChanges } from '../../src/bundle/bundle.js';
import { isMemoryToolError } from '../../src/core/errors.js';
import type { MemoryToolError } from '../../src/core/errors.js';
import type { MemoryLimits } from '../../src/core/limits.js';
import { MemoryStore } from '../../src/storage/store.js';
import { readTotals } from '../../src/storage/optimistic-totals.js';
import { IndexedDBMemoryTool } from '../../src/tool/tool.js';
import { HOSTILE_PATHS } from '../fixtures/hostile-paths.js';
import { followFolder } from '../helpers/follow-views.js';

const opened: Array<{ close(): void }> = [];
afterEach(() => {
  for (const item of opened.splice(0)) item.close();
});

async function freshTool(limits?: MemoryLimits, options: { history?: false } = {}): Promise<IndexedDBMemoryTool> {
  const tool = await IndexedDBMemoryTool.init({
    dbName: 'bundle-' + crypto.randomUUID(),
    ...(limits ? { limits } : {}),
    ...options,
  });
  opened.push(tool);
  return tool;
}

const EXPORTED_AT = new Date('2025-01-02T03:04:05.678Z');
const TIME = '2024-05-06T07:08:09.010Z';
const EMPTY_SHA = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** The whole memory as bundle text, with a fixed `exportedAt` so two exports compare equal. */
async function snapshot(tool: IndexedDBMemoryTool, path?: string): Promise<string> {
  return (await tool.exportBundle({ exportedAt: EXPORTED_AT, ...(path === undefined ? {} : { path }) })).text();
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

async function bytesDigest(blob: Blob): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', await blob.arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

async function file(path: string, content: string): Promise<BundleFile> {
  return { path, content, createdAt: TIME, updatedAt: TIME, sha256: await sha256(content) };
}

function bundleText(files: unknown[], folders: unknown[] = []): string {
  return JSON.stringify({ format: 'claude-memory-bundle', version: 1, exportedAt: TIME, files, folders });
}

async function bundleOf(files: Record<string, string>, folders: string[] = []): Promise<string> {
  return bundleText(await Promise.all(Object.entries(files).map(([path, content]) => file(path, content))), folders);
}

async function write(tool: IndexedDBMemoryTool, path: string, fileText: string): Promise<void> {
  await tool.create({ command: 'create', path, file_text: fileText });
}

async function read(tool: IndexedDBMemoryTool, path: string): Promise<string> {
  return tool.view({ command: 'view', path });
}

async function usageOf(tool: IndexedDBMemoryTool): Promise<unknown> {
  const store = await MemoryStore.open(tool.dbName);
  opened.push(store);
  const usage = await store.run('readonly', (tx) => readTotals(tx));
  // The totals only: `nextBody` is the id allocator, `seq` their order, and the journal's are its own.
  return { bytes: usage.bytes, files: usage.files };
}

/** Bodies stored: with no history kept, exactly one per file (an import leaves no orphans). */
async function bodyCount(tool: IndexedDBMemoryTool): Promise<number> {
  const store = await MemoryStore.open(tool.dbName);
  opened.push(store);
  return store.run('readonly', (tx) => tx.objectStore('bodies').count());
}

async function refusal(promise: Promise<unknown>): Promise<MemoryToolError> {
  try {
    await promise;
  } catch (error) {
    if (isMemoryToolError(error)) return error;
    throw error;
  }
  throw new Error('expected a MemoryToolError, but the call succeeded');
}

describe('exportBundle', () => {
  it('writes the claude-memory-bundle format: sorted files with hashes and times, and only empty folders', async () => {
    const tool = await freshTool();
    await write(tool, '/memories/b.md', 'bee\n');
    await write(tool, '/memories/A/z.md', '');
    await write(tool, '/memories/empty/gone.md', 'x');
    await tool.delete({ command: 'delete', path: '/memories/empty/gone.md' });
    const blob = await tool.exportBundle({ exportedAt: EXPORTED_AT });
    expect(blob.type).toBe('application/json');
    const bundle = JSON.parse(await blob.text()) as Record<string, unknown>;
    expect(Object.keys(bundle)).toEqual(['format', 'version', 'exportedAt', 'files', 'folders']);
    expect(bundle).toMatchObject({ format: 'claude-memory-bundle', version: 1, exportedAt: '2025-01-02T03:04:05.678Z' });
    const files = bundle.files as BundleFile[];
    expect(files.map((f) => f.path)).toEqual(['/memories/A/z.md', '/memories/b.md']);
    expect(Object.keys(files[0] ?? {})).toEqual(['path', 'content', 'createdAt', 'updatedAt', 'sha256']);
    expect(files[0]?.sha256).toBe(EMPTY_SHA);
    expect(files[1]?.sha256).toBe(await sha256('bee\n'));
    expect(files[1]?.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/u);
    expect(bundle.folders).toEqual(['/memories/empty']);
  });

  it('hashes each file on its own bytes, across batches and in any script', async () => {
    const tool = await freshTool();
    // More files than a hashing batch, of growing and shrinking sizes, with 2-, 3- and 4-byte UTF-8 characters.
    const contents = Array.from({ length: 120 }, (_, i) => `${i}: ${'é漢😀'.repeat(i % 7 === 0 ? 400 - i : i)}\n`);
    for (const [i, content] of contents.entries()) await write(tool, `/memories/h/${String(i).padStart(3, '0')}.md`, content);
    const files = (JSON.parse(await (await tool.exportBundle({ exportedAt: EXPORTED_AT })).text()) as { files: BundleFile[] }).files;
    expect(files.map((f) => f.content)).toEqual(contents);
    expect(files.map((f) => f.sha256)).toEqual(await Promise.all(contents.map(sha256)));
    // And an import checks them the same way: the export goes back in unchanged.
    const copy = await freshTool();
    await copy.importBundle(await tool.exportBundle({ exportedAt: EXPORTED_AT }));
    expect((await copy.run({ command: 'view', path: '/memories/h/119.md' })).content).toContain('119: ');
  });

  it('gives the same bytes on a second export with the same exportedAt, and differs only in exportedAt otherwise', async () => {
    const tool = await freshTool();
    await write(tool, '/memories/one.md', '1');
    await write(tool, '/memories/deep/two.md', '2');
    expect(await snapshot(tool)).toBe(await snapshot(tool));
    const first = JSON.parse(await (await tool.exportBundle()).text()) as Record<string, unknown>;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = JSON.parse(await (await tool.exportBundle()).text()) as Record<string, unknown>;
    expect({ ...second, exportedAt: first.exportedAt }).toEqual(first);
  });

  it('exports a subtree or a single file when given a path, and refuses a missing or hostile path', async () => {
    const tool = await freshTool();
    await write(tool, '/memories/keep/a.md', 'a');
    await write(tool, '/memories/other.md', 'o');
    const sub = JSON.parse(await snapshot(tool, '/memories//keep/')) as { files: BundleFile[] };
    expect(sub.files.map((f) => f.path)).toEqual(['/memories/keep/a.md']);
    const one = JSON.parse(await snapshot(tool, '/memories/other.md')) as { files: BundleFile[] };
    expect(one.files.map((f) => f.path)).toEqual(['/memories/other.md']);
    await expect(tool.exportBundle({ path: '/memories/nope' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(tool.exportBundle({ path: '/memories/../etc' })).rejects.toMatchObject({ code: 'invalid_path' });
  });

  it('reports hashing progress ending at the number of files', async () => {
    const tool = await freshTool();
    await write(tool, '/memories/a.md', 'a');
    await write(tool, '/memories/b.md', 'b');
    const calls: [number, number][] = [];
    await tool.exportBundle({ onProgress: (done, total) => calls.push([done, total]) });
    expect(calls.at(-1)).toEqual([2, 2]);
  });
});

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
    expect(await bytesDigest(again)).toBe(await bytesDigest(exported));
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
      skipped: 0,
      removed: 0,
      folders: 1,
      dryRun: false,
      addedPaths: ['/memories/sub/theirs.md'],
      replacedPaths: ['/memories/both.md'],
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

// ---------------------------------------------------------------- the hostile corpus

interface HostileCase {
  name: string;
  bundle: () => Promise<string | Blob> | string | Blob;
  code: 'invalid_bundle' | 'too_large';
  /** Fragments the message must contain (the entry it names, the reason). */
  says: string[];
  options?: ImportBundleOptions;
}

const one = async (path: string, content = 'x'): Promise<string> => bundleText([await file(path, content)]);
const raw = (entry: Record<string, unknown>): string => bundleText([entry]);
const top = (fields: Record<string, unknown>): string =>
  JSON.stringify({ format: 'claude-memory-bundle', version: 1, exportedAt: TIME, files: [], folders: [], ...fields });

const HOSTILE: HostileCase[] = [
  { name: 'a .. traversal', bundle: () => one('/memories/../etc/passwd'), code: 'invalid_bundle', says: ['files[0] "/memories/../etc/passwd"', 'escape'] },
  { name: 'a traversal out of a subfolder', bundle: () => one('/memories/notes/../../secret.md'), code: 'invalid_bundle', says: ['files[0]', 'escape'] },
  { name: 'a percent-encoded traversal', bundle: () => one('/memories/%2e%2e/secret.md'), code: 'invalid_bundle', says: ['files[0]', 'percent-escape'] },
  { name: 'a double-encoded traversal', bundle: () => one('/memories/%252e%252e/secret.md'), code: 'invalid_bundle', says: ['percent-escape'] },
  { name: 'an overlong UTF-8 traversal', bundle: () => one('/memories/%c0%ae%c0%ae/secret.md'), code: 'invalid_bundle', says: ['percent-escape'] },
  { name: 'a backslash traversal', bundle: () => one('/memories/notes\\..\\..\\secret.md'), code: 'invalid_bundle', says: ['backslash'] },
  { name: 'a NUL character, shown escaped', bundle: () => one('/memories/a\u0000b.md'), code: 'invalid_bundle', says: ['files[0] "/memories/a\\u0000b.md"', 'control character'] },
  { name: 'a line separator', bundle: () => one('/memories/a\u2028b.md'), code: 'invalid_bundle', says: ['control character'] },
  { name: 'full-width dots', bundle: () => one('/memories/\uff0e\uff0e/secret.md'), code: 'invalid_bundle', says: ['looks like'] },
  { name: 'a division-slash lookalike', bundle: () => one('/memories/a\u2215b.md'), code: 'invalid_bundle', says: ['looks like'] },
  { name: 'a zero-width character', bundle: () => one('/memories/a\u200bb.md'), code: 'invalid_bundle', says: ['invisible'] },
  { name: 'a bidi override', bundle: () => one('/memories/\u202egnp.md'), code: 'invalid_bundle', says: ['invisible'] },
  { name: 'an absolute path outside /memories', bundle: () => one('/etc/passwd'), code: 'invalid_bundle', says: ['must start with /memories'] },
  { name: 'a /memoriesX lookalike root', bundle: () => one('/memoriesX/a.md'), code: 'invalid_bundle', says: ['must start with /memories'] },
  { name: 'a relative path', bundle: () => one('memories/a.md'), code: 'invalid_bundle', says: ['must start with /memories'] },
  { name: 'the root as a file', bundle: () => one('/memories'), code: 'invalid_bundle', says: ['files[0] "/memories"', 'root'] },
  { name: 'the root spelled /memories//./ as a file', bundle: () => one('/memories//./'), code: 'invalid_bundle', says: ['root'] },
  { name: 'the root listed as a folder', bundle: () => bundleText([], ['/memories/']), code: 'invalid_bundle', says: ['folders[0]', 'root'] },
  {
    name: 'the same path twice',
    bundle: async () => bundleText([await file('/memories/a.md', '1'), await file('/memories/a.md', '2')]),
    code: 'invalid_bundle',
    says: ['files[1] "/memories/a.md"', 'same path as files[0]'],
  },
  {
    name: 'a // spelling of a path already in the bundle',
    bundle: async () => bundleText([await file('/memories/x/a.md', '1'), await file('/memories//x/./a.md/', '2')]),
    code: 'invalid_bundle',
    says: ['files[1]', 'same path as files[0] "/memories/x/a.md"'],
  },
  {
    name: 'NFC and NFD spellings of one name',
    bundle: async () => bundleText([await file('/memories/caf\u00e9.md', '1'), await file('/memories/cafe\u0301.md', '2')]),
    code: 'invalid_bundle',
    says: ['files[1]', 'same path as files[0]'],
  },
  {
    name: 'a file below a file of the bundle',
    bundle: async () => bundleText([await file('/memories/a.md', '1'), await file('/memories/a.md/b.md', '2')]),
    code: 'invalid_bundle',
    says: ['files[1] "/memories/a.md/b.md"', 'lies below files[0] "/memories/a.md", which is a file'],
  },
  {
    name: 'a file above a file listed earlier',
    bundle: async () => bundleText([await file('/memories/a/b.md', '1'), await file('/memories/a', '2')]),
    code: 'invalid_bundle',
    says: ['files[1] "/memories/a"', 'files[0] "/memories/a/b.md" lies below it'],
  },
  {
    name: 'a file below a file of the memory',
    bundle: () => one('/memories/base.md/x.md'),
    code: 'invalid_bundle',
    says: ['files[0] "/memories/base.md/x.md"', 'below "/memories/base.md", which is a file in the memory'],
  },
  { name: 'a file where the memory has a folder', bundle: () => one('/memories/notes'), code: 'invalid_bundle', says: ['files[0]', 'folder of that path exists'] },
  {
    name: 'a folder that is also a file of the bundle',
    bundle: async () => bundleText([await file('/memories/a.md', '1')], ['/memories/a.md']),
    code: 'invalid_bundle',
    says: ['folders[0] "/memories/a.md"', 'files[0] "/memories/a.md" is a file'],
  },
  { name: 'a folder that is a file of the memory', bundle: () => bundleText([], ['/memories/base.md']), code: 'invalid_bundle', says: ['folders[0]', 'file of that path exists'] },
  { name: 'a folder that is not a string', bundle: () => bundleText([], [7]), code: 'invalid_bundle', says: ['folders[0]', 'a path string, got 7'] },
  { name: 'a traversal in a folder', bundle: () => bundleText([], ['/memories/../x']), code: 'invalid_bundle', says: ['folders[0]', 'escape'] },
  { name: 'number content', bundle: () => raw({ path: '/memories/a.md', content: 42, createdAt: TIME, updatedAt: TIME, sha256: EMPTY_SHA }), code: 'invalid_bundle', says: ['files[0] "/memories/a.md"', '"content" must be a string, got 42'] },
  { name: 'null content', bundle: () => raw({ path: '/memories/a.md', content: null, createdAt: TIME, updatedAt: TIME, sha256: EMPTY_SHA }), code: 'invalid_bundle', says: ['"content" must be a string, got null'] },
  { name: 'array content', bundle: () => raw({ path: '/memories/a.md', content: ['x'], createdAt: TIME, updatedAt: TIME, sha256: EMPTY_SHA }), code: 'invalid_bundle', says: ['"content" must be a string, got an array'] },
  { name: 'missing content', bundle: () => raw({ path: '/memories/a.md', createdAt: TIME, updatedAt: TIME, sha256: EMPTY_SHA }), code: 'invalid_bundle', says: ['"content" must be a string, got nothing'] },
  { name: 'a missing path', bundle: () => raw({ content: '', createdAt: TIME, updatedAt: TIME, sha256: EMPTY_SHA }), code: 'invalid_bundle', says: ['files[0]: "path" must be a path string'] },
  { name: 'an entry that is a string', bundle: () => bundleText(['/memories/a.md']), code: 'invalid_bundle', says: ['files[0]: an entry must be an object'] },
  { name: 'a missing sha256', bundle: () => raw({ path: '/memories/a.md', content: '', createdAt: TIME, updatedAt: TIME }), code: 'invalid_bundle', says: ['"sha256" must be 64 lowercase hex digits'] },
  { name: 'an upper-case sha256', bundle: () => raw({ path: '/memories/a.md', content: '', createdAt: TIME, updatedAt: TIME, sha256: EMPTY_SHA.toUpperCase() }), code: 'invalid_bundle', says: ['"sha256" must be 64 lowercase hex digits'] },
  {
    name: 'a sha256 that does not match the content',
    bundle: async () => bundleText([await file('/memories/ok.md', 'ok'), { ...(await file('/memories/bad.md', 'original')), content: 'tampered' }]),
    code: 'invalid_bundle',
    says: ['files[1] "/memories/bad.md"', 'does not match its content'],
  },
  {
    name: 'a bad sha256 before a bad path, reported in bundle order',
    bundle: async () => bundleText([{ ...(await file('/memories/bad.md', 'original')), content: 'tampered' }, await file('/memories/../x', '')]),
    code: 'invalid_bundle',
    says: ['files[0] "/memories/bad.md"', 'does not match'],
  },
  { name: 'a createdAt that is not a date', bundle: () => raw({ path: '/memories/a.md', content: '', createdAt: 'yesterday', updatedAt: TIME, sha256: EMPTY_SHA }), code: 'invalid_bundle', says: ['"createdAt" must be an ISO 8601 date-time string, got "yesterday"'] },
  { name: 'an unknown format', bundle: () => top({ format: 'zip' }), code: 'invalid_bundle', says: ['"format" must be "claude-memory-bundle", got "zip"'] },
  { name: 'a missing format', bundle: () => top({ format: undefined }), code: 'invalid_bundle', says: ['got nothing'] },
  { name: 'a future version 2', bundle: () => top({ version: 2 }), code: 'invalid_bundle', says: ['version 2', 'reads version 1'] },
  { name: 'a version that is a string', bundle: () => top({ version: '1' }), code: 'invalid_bundle', says: ['"version" must be a positive integer, got "1"'] },
  { name: 'files that are not an array', bundle: () => top({ files: {} }), code: 'invalid_bundle', says: ['"files" must be an array, got an object'] },
  { name: 'missing folders', bundle: () => top({ folders: undefined }), code: 'invalid_bundle', says: ['"folders" must be an array, got nothing'] },
  {
    name: 'truncated JSON',
    bundle: async () => {
      const text = await bundleOf({ '/memories/a.md': 'a', '/memories/b.md': 'b' });
      return text.slice(0, Math.floor(text.length / 2));
    },
    code: 'invalid_bundle',
    says: ['not valid JSON, or it was cut short'],
  },
  { name: 'text that is not JSON', bundle: () => 'hello, memory', code: 'invalid_bundle', says: ['not valid JSON'] },
  { name: 'an empty input', bundle: () => new Blob([]), code: 'invalid_bundle', says: ['not valid JSON'] },
  { name: 'bytes that are not UTF-8', bundle: () => new Blob([new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])]), code: 'invalid_bundle', says: ['not valid UTF-8'] },
  { name: 'an array at the top level', bundle: () => '[]', code: 'invalid_bundle', says: ['top level must be a JSON object, got an array'] },
  { name: 'null at the top level', bundle: () => 'null', code: 'invalid_bundle', says: ['top level must be a JSON object, got null'] },
  {
    name: 'a top-level __proto__ that carries the whole bundle',
    bundle: () => `{"__proto__": ${top({})}}`,
    code: 'invalid_bundle',
    says: ['"format" must be "claude-memory-bundle", got nothing'],
  },
  {
    name: 'a file entry whose __proto__ carries the content and hash',
    bundle: async () => {
      const inner = await file('/memories/p.md', 'p');
      return bundleText([JSON.parse(`{"path": "/memories/p.md", "__proto__": ${JSON.stringify(inner)}}`)]);
    },
    code: 'invalid_bundle',
    says: ['files[0] "/memories/p.md"', '"content" must be a string, got nothing'],
  },
  { name: 'a file over the per-file limit', bundle: () => one('/memories/big.md', 'x'.repeat(1001)), code: 'too_large', says: ['files[0] "/memories/big.md"', '1001 bytes, over the limit of 1000'] },
  { name: 'a file over the per-file limit in UTF-8 only', bundle: () => one('/memories/big.md', '\u00e9'.repeat(501)), code: 'too_large', says: ['1002 bytes'] },
  {
    name: 'more files than the memory may hold',
    bundle: async () => bundleText(await Promise.all(Array.from({ length: 9 }, (_, i) => file(`/memories/n${i}.md`, 'n')))),
    code: 'too_large',
    says: ['files[8] "/memories/n8.md"', 'would hold 11 files, over its limit of 10'],
  },
  {
    name: 'more bytes than the memory may hold',
    bundle: async () => bundleText(await Promise.all(Array.from({ length: 5 }, (_, i) => file(`/memories/n${i}.md`, 'n'.repeat(900))))),
    code: 'too_large',
    says: ['files[4] "/memories/n4.md"', 'over its limit of 4000 bytes'],
  },
  { name: 'a traversal even in replace mode', bundle: () => one('/memories/../x'), code: 'invalid_bundle', says: ['escape'], options: { mode: 'replace' } },
  { name: 'a bad hash even in replace mode', bundle: () => raw({ path: '/memories/a.md', content: 'a', createdAt: TIME, updatedAt: TIME, sha256: EMPTY_SHA }), code: 'invalid_bundle', says: ['does not match'], options: { mode: 'replace' } },
];

describe('importBundle refuses a hostile or broken bundle and changes nothing', () => {
  const LIMITS = { maxFileBytes: 1000, maxTotalBytes: 4000, maxFiles: 10 };

  it('has a corpus of at least 25 cases', () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(25);
  });

  it.each(HOSTILE)('refuses $name', async ({ bundle, code, says, options }) => {
    const tool = await freshTool(LIMITS);
    await write(tool, '/memories/base.md', 'base\n');
    await write(tool, '/memories/notes/keep.md', 'keep me\n');
    const before = await snapshot(tool);
    const usage = await usageOf(tool);
    const input = await bundle();
    for (const dryRun of [true, false]) {
      const error = await refusal(tool.importBundle(input, { ...options, dryRun }));
      expect(error.code).toBe(code);
      expect(error.message).toMatch(/^Cannot import the bundle: .*\. Nothing was changed\.$/su);
      for (const fragment of says) expect(error.message).toContain(fragment);
      expect(error.message).not.toMatch(/[\u0000-\u001f\u200b\u202e\u2028]/u);
    }
    expect(await snapshot(tool)).toBe(before);
    expect(await usageOf(tool)).toEqual(usage);
  });

  it('refuses every hostile path of the shared fixture as a file path and as a folder path', async () => {
    const tool = await freshTool();
    await write(tool, '/memories/base.md', 'base\n');
    const before = await snapshot(tool);
    for (const path of HOSTILE_PATHS) {
      for (const input of [await one(path), bundleText([], [path])]) {
        const error = await refusal(tool.importBundle(input, { mode: 'replace' }));
        expect(error.code, JSON.stringify(path)).toBe('invalid_bundle');
      }
    }
    expect(await snapshot(tool)).toBe(before);
  }, 60_000);

  it('refuses input that is neither a Blob nor a string', async () => {
    const tool = await freshTool();
    const error = await refusal(tool.importBundle(42 as unknown as string));
    expect(error.code).toBe('invalid_bundle');
    expect(error.message).toContain('must be a Blob, a File or a string, got 42');
  });
});
