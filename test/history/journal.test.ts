// The journal's bounds bound what it stores: `history.maxBytes` counts each record (its paths and steps) as well as
// the old contents it keeps, so a history of big folder changes with long paths stays near the bound. The stored
// size is measured on the raw records, read directly from IndexedDB.

import { describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import type { JournalRecord, MemorySchema } from '../../src/storage/schema.js';
import { bundleOf } from '../helpers/bundles.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';

const open = toolsClosedAfterEach('journal');
const MAX_BYTES = 100_000;

/** Every journal record as stored, read with a connection of its own. */
async function journalOf(tool: IndexedDBMemoryTool): Promise<JournalRecord[]> {
  const db = await openDB<MemorySchema>(tool.dbName);
  try {
    return await db.getAll('journal');
  } finally {
    db.close();
  }
}

/** The journal's stored size: its raw records serialized. */
const storedSize = async (tool: IndexedDBMemoryTool): Promise<number> => JSON.stringify(await journalOf(tool)).length;

/** `count` one-line files in `folder`, named so that each path is `pathLength` characters long. */
function filesIn(folder: string, count: number, pathLength: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const name = `-${String(i).padStart(4, '0')}.md`;
    files[`${folder}/${'n'.repeat(pathLength - folder.length - 1 - name.length)}${name}`] = `note ${i}\n`;
  }
  return files;
}

describe('history bounds', () => {
  it('keeps the journal near maxBytes over rounds of deleting and undoing a 500-file folder, counting its records', async () => {
    const tool = await open({ history: { maxBytes: MAX_BYTES } });
    const folder = '/memories/project-notes';
    // Each delete or undo journals 500 steps of a 40-character path: about 80 KB, though the files hold 4 KB.
    await tool.importBundle(await bundleOf(filesIn(folder, 500, 40)));
    const sizes: number[] = [];
    for (let round = 0; round < 12; round++) {
      await tool.delete({ command: 'delete', path: folder });
      sizes.push(await storedSize(tool));
      await tool.undo();
      sizes.push(await storedSize(tool));
    }
    // Before, each record counted only its 4 KB of old contents: the journal grew by 80 KB a change, past 2 MB.
    expect(Math.max(...sizes)).toBeLessThanOrEqual(2 * MAX_BYTES);
    // Each change fits the bound and stays undoable: the folder is back after the last undo.
    expect((await tool.list(folder)).length).toBe(500);
    const [latest] = await tool.history({ limit: 1 });
    expect(latest).toMatchObject({ command: 'undo', undoable: true });
    // The totals count what the records say they take.
    const journal = await journalOf(tool);
    const visible = journal.filter((record) => !record.hidden);
    expect(journal.at(-1)?.totals?.[4]).toBe(visible.reduce((sum, record) => sum + record.bytes, 0));
    expect(journal.at(-1)?.totals?.[5]).toBe(visible.length);
  }, 300_000);

  it('journals a change whose steps alone are over maxBytes with its paths only, and refuses its undo', async () => {
    const tool = await open({ history: { maxBytes: MAX_BYTES } });
    const folder = '/memories/archive';
    // 500 paths of 200 characters: the delete's steps take about 150 KB, over the bound by themselves.
    await tool.importBundle(await bundleOf(filesIn(folder, 500, 200)));
    await tool.delete({ command: 'delete', path: folder });
    expect(await storedSize(tool)).toBeLessThanOrEqual(MAX_BYTES);
    const [deleted] = await tool.history({ limit: 1 });
    expect(deleted).toMatchObject({ command: 'delete', paths: [folder], undoable: false });
    await expect(tool.undo(deleted?.id)).rejects.toMatchObject({ code: 'conflict', message: expect.stringMatching(/too large/) });
    expect(await tool.change(deleted?.id ?? 0)).toMatchObject({ files: [], moves: [] });
  }, 300_000);

  it('prunes past maxBytes as few of the oldest entries as bring it a tenth below, however many that takes', async () => {
    const maxBytes = 60_000;
    const tool = await open({ history: { maxBytes } });
    const texts = (n: number) => `${n}`.repeat(n).slice(0, n);
    // Creates keep no old text (a few hundred bytes each); a delete keeps its file's: the big one's first drops about
    // a hundred creates at once, the small ones' a few each.
    await tool.create({ command: 'create', path: '/memories/big.md', file_text: texts(40_000) });
    for (let i = 0; i < 150; i++) {
      await tool.create({ command: 'create', path: `/memories/n/${i}.md`, file_text: texts(2000) });
    }
    let before = await journalOf(tool);
    const prunes: number[] = [];
    for (const path of ['/memories/big.md', ...Array.from({ length: 150 }, (_, i) => `/memories/n/${i}.md`)]) {
      await tool.delete({ command: 'delete', path });
      const after = await journalOf(tool);
      const visible = after.filter((record) => !record.hidden);
      const bytes = visible.reduce((sum, record) => sum + record.bytes, 0);
      // A prune puts a hidden mark at the last dropped key: only a visible record there is one that stayed.
      const stayed = new Set(visible.map((record) => record.id));
      const kept = before.filter((record) => !record.hidden && stayed.has(record.id));
      const dropped = before.filter((record) => !record.hidden && !stayed.has(record.id));
      if (dropped.length > 0) {
        prunes.push(dropped.length);
        // The oldest went, and no more than it took to come a tenth below the bound.
        expect(Math.max(...dropped.map((r) => r.id ?? 0))).toBeLessThan(Math.min(...kept.map((r) => r.id ?? 0)));
        expect(bytes).toBeLessThanOrEqual(maxBytes - maxBytes / 10);
        expect(bytes + (dropped.at(-1)?.bytes ?? 0)).toBeGreaterThan(maxBytes - maxBytes / 10);
      } else {
        expect(bytes).toBeLessThanOrEqual(maxBytes);
      }
      // The totals count what the records left say they take.
      expect(after.at(-1)?.totals?.[4]).toBe(bytes);
      expect(after.at(-1)?.totals?.[5]).toBe(visible.length);
      before = after;
    }
    expect(prunes[0]).toBeGreaterThan(64);
    expect(prunes.length).toBeGreaterThan(10);
  }, 300_000);
});
