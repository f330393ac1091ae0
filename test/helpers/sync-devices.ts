// A device of the sync tests: a fresh tool with a mount of `remote` that runs passes only when asked, and the writes
// and reads the tests make on it with the remote's paths (`/a.md` for `/memories/a.md`).

import type { IndexedDBMemoryTool } from '../../src/index.js';
import { createMemorySync } from '../../src/sync/memory-sync.js';
import type { MemorySync } from '../../src/sync/memory-sync.js';
import type { SyncRemote } from '../../src/sync/remote.js';

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
