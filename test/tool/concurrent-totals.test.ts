// The totals under random concurrent use of one database by differently set tools: after seeded rounds of every
// command, undo, expiry and import, the newest journal record's totals equal a full scan of the stores.

import { describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import { IndexedDBMemoryTool } from '../../src/index.js';
import type { MemorySchema } from '../../src/storage/schema.js';
import { freshToolEach } from '../helpers/fresh-tool.js';

const fresh = freshToolEach('concurrent-totals');

describe('the totals under random concurrent use of one database by differently set tools', () => {
  /** A pseudo-random number generator, so that a failing seed can be run again. */
  const random = (seed: number) => () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };

  /** The totals the newest journal record holds, next to what a full scan of the stores counts. */
  async function totalsAndScan(dbName: string) {
    const db = await openDB<MemorySchema>(dbName);
    const tx = db.transaction(['entries', 'bodies', 'journal']);
    const [entries, bodyKeys, journal] = await Promise.all([
      tx.objectStore('entries').getAll(),
      tx.objectStore('bodies').getAllKeys(),
      tx.objectStore('journal').getAll(),
    ]);
    db.close();
    const files = entries.filter((entry) => entry.kind === 'file');
    const changes = journal.filter((record) => !record.hidden);
    const [, bytes, fileCount, nextBody, journalBytes, journalEntries] = journal.at(-1)?.totals ?? [0, 0, 0, 1, 0, 0];
    return {
      totals: { bytes, files: fileCount, journalBytes, journalEntries, bodiesBelowNext: true },
      scan: {
        bytes: files.reduce((sum, file) => sum + file.size, 0),
        files: files.length,
        journalBytes: changes.reduce((sum, record) => sum + record.bytes, 0),
        journalEntries: changes.length,
        bodiesBelowNext: bodyKeys.every((key) => key < (nextBody ?? 1)),
      },
    };
  }

  it.each(Array.from({ length: 12 }, (_, i) => i + 1))('keeps them equal to a scan of the stores (seed %i)', async (seed) => {
    const next = random(seed);
    const pick = <T,>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const dbName = `${fresh.tool.dbName}-random-${seed}`;
    const settings = [{}, { history: false as const }, { history: { maxEntries: 3 } }, { limits: { maxFiles: 6 } }, { history: { maxEntries: 5, maxBytes: 1500 } }];
    const tools = await Promise.all(settings.map((options) => IndexedDBMemoryTool.init({ dbName, ...options })));
    const paths = ['/memories/a.md', '/memories/b.md', '/memories/d/c.md', '/memories/d/e.md', '/memories/f.md', '/memories/g/h.md'];
    const storageErrors: string[] = [];
    try {
      for (let round = 0; round < 20; round++) {
        const calls = Array.from({ length: 1 + Math.floor(next() * 8) }, async () => {
          const one = pick(tools);
          const path = pick(paths);
          const roll = next();
          let result: unknown;
          if (roll < 0.3) result = await one.run({ command: 'create', path, file_text: `${'x'.repeat(Math.floor(next() * 12))}\nline` });
          else if (roll < 0.45) result = await one.run({ command: 'insert', path, insert_line: 0, insert_text: 'ins' });
          else if (roll < 0.55) result = await one.run({ command: 'str_replace', path, old_str: 'line', new_str: `LINE${'y'.repeat(Math.floor(next() * 5))}` });
          else if (roll < 0.65) result = await one.run({ command: 'delete', path: roll < 0.6 ? path : '/memories/d' });
          else if (roll < 0.72) result = await one.run({ command: 'rename', old_path: path, new_path: pick(paths) });
          else if (roll < 0.82) await one.undo().catch(() => undefined);
          else if (roll < 0.86) await one.expire({ olderThan: next() < 0.5 ? 10_000_000 : 0 });
          else if (roll < 0.93) {
            const bundle = await pick(tools).exportBundle();
            await one.importBundle(bundle, { mode: next() < 0.5 ? 'merge' : 'replace', onConflict: pick(['overwrite', 'skip'] as const) }).catch(() => undefined);
          } else result = await one.run({ command: 'view', path });
          const failed = result as { is_error?: boolean; code?: string; content?: string } | undefined;
          if (failed?.is_error && failed.code === 'storage') storageErrors.push(failed.content ?? '');
        });
        await Promise.all(calls);
      }
    } finally {
      for (const one of tools) one.close();
    }
    expect(storageErrors).toEqual([]);
    const { totals, scan } = await totalsAndScan(dbName);
    expect(totals).toEqual(scan);
  });
});
