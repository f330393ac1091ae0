// A device of the sync tests: a fresh tool with a mount of `remote` that runs passes only when asked, and the writes
// and reads the tests make on it with the remote's paths (`/a.md` for `/memories/a.md`).

import type { IndexedDBMemoryTool } from '../../src/index.js';
import { createMemorySync } from '../../src/sync/memory-sync.js';
import type { MemorySync } from '../../src/sync/memory-sync.js';
import type { SyncRemote } from '../../src/sync/remote.js';
import type { SyncReport } from '../../src/sync/sync-report.js';

export { memoryFiles as files } from './sync-storm.js';

/** A device opened by `open` (a test's `toolsClosedAfterEach`), mounting `remote` at `/memories`, no timer. */
export async function device(
  open: () => Promise<IndexedDBMemoryTool>,
  remote: SyncRemote,
): Promise<{ tool: IndexedDBMemoryTool; sync: MemorySync }> {
  const tool = await open();
  return { tool, sync: createMemorySync(tool, { remote, interval: null }) };
}

/** Claude's `create` of `/memories${path}`. */
export const write = (tool: IndexedDBMemoryTool, path: string, text: string): Promise<string> =>
  tool.create({ command: 'create', path: `/memories${path}`, file_text: text });

/** Claude's `rename` of `/memories${from}` to `/memories${to}`. */
export const rename = (tool: IndexedDBMemoryTool, from: string, to: string): Promise<string> =>
  tool.rename({ command: 'rename', old_path: `/memories${from}`, new_path: `/memories${to}` });

type Device = { tool: IndexedDBMemoryTool; sync: MemorySync };

/**
 * `/x.md` ('one\n') synced on both; A renames it to `/y.md` and writes 'a new\n' at `/z.md`, B renames it to `/z.md`
 * and writes 'b new\n' at `/y.md`, and B's pass goes first. Returns A's pass, the one that meets both renames.
 */
export async function renamedApart(a: Device, b: Device): Promise<SyncReport> {
  await write(a.tool, '/x.md', 'one\n');
  await a.sync.syncNow();
  await b.sync.syncNow();
  await rename(a.tool, '/x.md', '/y.md');
  await write(a.tool, '/z.md', 'a new\n');
  await rename(b.tool, '/x.md', '/z.md');
  await write(b.tool, '/y.md', 'b new\n');
  await b.sync.syncNow();
  return a.sync.syncNow();
}
