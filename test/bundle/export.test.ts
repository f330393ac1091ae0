// Export: the claude-memory-bundle format as written (sorted files with hashes and times, only empty folders),
// reproducible bytes, a subtree or one file, and progress.

import { describe, expect, it } from 'vitest';
import type { BundleFile } from '../../src/bundle/format.js';
import { EMPTY_SHA, sha256 } from '../helpers/bundles.js';
import { EXPORTED_AT, bundleTools, snapshot, write } from './tools.js';

const { freshTool } = bundleTools();

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
