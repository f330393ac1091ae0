// A seeded storm of edits and sync points on several devices sharing one remote, then the checks the sync promises:
// after every device syncs twice with no new edits, every memory equals the remote, and every version any device
// wrote is current somewhere or recoverable from some device's history. Runs wherever its tools run; the remote's own
// content is read on the server's side (the loopback Memory Stores model, Apache's folder on disk), never through
// the adapter under test.

import type { IndexedDBMemoryTool } from '../../src/index.js';
import { isMemoryToolError } from '../../src/index.js';
import type { MemorySync } from '../../src/sync/memory-sync.js';
import { mulberry32 } from '../e2e/pages/storm-driver.js';
import type { MemoryStoresModel } from '../servers/memory-stores/model.js';

export interface StormDevice {
  tool: IndexedDBMemoryTool;
  sync: MemorySync;
}

// Few names, so that devices touch the same files, and `/d` both as a file and as a folder.
const PATHS = ['/memories/a.md', '/memories/b.md', '/memories/d/x.md', '/memories/d/y.md', '/memories/d', '/memories/e/f/g.md'];

/** Runs `steps` random operations; answers every text written, for the recoverability check. */
export async function runSyncStorm(devices: readonly StormDevice[], seed: number, steps: number): Promise<Set<string>> {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const written = new Set<string>();
  for (let step = 0; step < steps; step++) {
    const index = Math.floor(random() * devices.length);
    const { tool, sync } = devices[index] as StormDevice;
    const roll = random();
    try {
      if (roll < 0.2) {
        await sync.syncNow({ confirmDeletes: true });
      } else if (roll < 0.3) {
        // Two devices at once: their writes race, and the preconditions decide.
        const other = devices[(index + 1) % devices.length] as StormDevice;
        await Promise.all([sync.syncNow({ confirmDeletes: true }), other.sync.syncNow({ confirmDeletes: true })]);
      } else if (roll < 0.6) {
        const text = `device ${index} step ${step}\n`;
        await tool.create({ command: 'create', path: pick(PATHS), file_text: text });
        written.add(text);
      } else if (roll < 0.75) {
        const path = pick(PATHS);
        const text = await tool.read(path);
        const edited = `${text}edit ${index}.${step}\n`;
        await tool.create({ command: 'create', path, file_text: edited });
        written.add(edited);
      } else if (roll < 0.88) {
        await tool.delete({ command: 'delete', path: pick(PATHS) });
      } else {
        await tool.rename({ command: 'rename', old_path: pick(PATHS), new_path: pick(PATHS) + '.moved' });
      }
    } catch (error) {
      // A command refused by the memory (no such file, a file in the way) is part of the storm; anything else is not.
      if (!isMemoryToolError(error)) throw error;
    }
  }
  return written;
}

/** Every device syncs, in turn, `rounds` times over. */
export async function settle(devices: readonly StormDevice[], rounds = 2): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    for (const { sync } of devices) await sync.syncNow({ confirmDeletes: true });
  }
}

/** The files below `/memories` by path, as the remote's paths. */
export async function memoryFiles(tool: IndexedDBMemoryTool): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await tool.list('/memories')) {
    if (entry.kind === 'file') out[entry.path.slice('/memories'.length)] = await tool.read(entry.path);
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The texts written that are neither in a memory now nor in any device's history. */
export async function lostVersions(devices: readonly StormDevice[], written: ReadonlySet<string>): Promise<string[]> {
  const known = new Set<string>();
  for (const { tool } of devices) {
    for (const text of Object.values(await memoryFiles(tool))) known.add(text);
    for (const entry of await tool.history({ limit: 10_000 })) {
      const detail = await tool.change(entry.id);
      for (const file of detail?.files ?? []) {
        if (file.before !== null) known.add(file.before);
        if (file.after !== null) known.add(file.after);
      }
    }
  }
  return [...written].filter((text) => !known.has(text));
}

/** What reading a folder on disk needs; the caller passes node:fs/promises, as this module also runs in browsers. */
export interface FolderReader {
  readdir(path: string, options: { withFileTypes: true }): Promise<{ name: string; isDirectory(): boolean }[]>;
  readFile(path: string, encoding: 'utf8'): Promise<string>;
}

/** A WebDAV server's files as it keeps them on disk, by path below `root`; a root never made holds nothing. */
export async function folderFiles(fs: FolderReader, root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (below: string): Promise<void> => {
    let entries: { name: string; isDirectory(): boolean }[];
    try {
      entries = await fs.readdir(`${root}${below}`, { withFileTypes: true });
    } catch (error) {
      if (below === '' && (error as { code?: unknown }).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      // mod_dav_fs keeps dead properties in `.DAV` folders beside the files: its own, not the remote's content.
      if (entry.name === '.DAV') continue;
      const path = `${below}/${entry.name}`;
      if (entry.isDirectory()) await walk(path);
      else out[path] = await fs.readFile(`${root}${path}`, 'utf8');
    }
  };
  await walk('');
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The memories of one store on the loopback Memory Stores server, by path, read from its model (no request). */
export function storeFiles(api: MemoryStoresModel, storeId: string): Record<string, string> {
  const out: Record<string, string> = {};
  let page: string | undefined;
  do {
    // Depth 0 lists every memory below the prefix; the full view carries the content, 20 a page.
    const answer = api.listMemories(storeId, { view: 'full', limit: '20', ...(page === undefined ? {} : { page }) });
    for (const item of answer.data) {
      if (item.type !== 'memory') continue;
      if (typeof item.content !== 'string') throw new Error(`${item.path}: no content in the full view`);
      out[item.path] = item.content;
    }
    page = answer.next_page ?? undefined;
  } while (page !== undefined);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}
