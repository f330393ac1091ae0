// What the bundle tests share besides the bundle builders (../helpers/bundles.ts): fresh tools (../helpers/fresh-tool.ts)
// and stores closed after each test, the memory as bundle text, its totals and bodies, and the refusal a call ends in.

import { afterEach } from 'vitest';
import { isMemoryToolError } from '../../src/core/errors.js';
import type { MemoryToolError } from '../../src/core/errors.js';
import type { MemoryLimits } from '../../src/core/limits.js';
import { readTotals } from '../../src/storage/optimistic-totals.js';
import { MemoryStore } from '../../src/storage/store.js';
import type { IndexedDBMemoryTool } from '../../src/tool/tool.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';

export const EXPORTED_AT = new Date('2025-01-02T03:04:05.678Z');

/**
 * A fresh tool per call and the totals and bodies as stored, for the tests of the file it is called in: every tool
 * and store opened is closed after each test.
 */
export function bundleTools(): {
  freshTool(limits?: MemoryLimits, options?: { history?: false }): Promise<IndexedDBMemoryTool>;
  usageOf(tool: IndexedDBMemoryTool): Promise<unknown>;
  bodyCount(tool: IndexedDBMemoryTool): Promise<number>;
} {
  const open = toolsClosedAfterEach('bundle');
  const stores: MemoryStore[] = [];
  afterEach(() => {
    for (const store of stores.splice(0)) store.close();
  });
  const storeOf = async (tool: IndexedDBMemoryTool): Promise<MemoryStore> => {
    const store = await MemoryStore.open(tool.dbName);
    stores.push(store);
    return store;
  };
  return {
    freshTool: (limits, options = {}) => open({ ...(limits ? { limits } : {}), ...options }),
    async usageOf(tool) {
      const usage = await (await storeOf(tool)).run('readonly', (tx) => readTotals(tx));
      // The totals only: `nextBody` is the id allocator, `seq` their order, and the journal's are its own.
      return { bytes: usage.bytes, files: usage.files };
    },
    // Bodies stored: with no history kept, exactly one per file (an import leaves no orphans).
    bodyCount: async (tool) => (await storeOf(tool)).run('readonly', (tx) => tx.objectStore('bodies').count()),
  };
}

/** The whole memory as bundle text, with a fixed `exportedAt` so two exports compare equal. */
export async function snapshot(tool: IndexedDBMemoryTool, path?: string): Promise<string> {
  return (await tool.exportBundle({ exportedAt: EXPORTED_AT, ...(path === undefined ? {} : { path }) })).text();
}

export async function write(tool: IndexedDBMemoryTool, path: string, fileText: string): Promise<void> {
  await tool.create({ command: 'create', path, file_text: fileText });
}

export async function read(tool: IndexedDBMemoryTool, path: string): Promise<string> {
  return tool.view({ command: 'view', path });
}

/** The MemoryToolError `promise` rejects with; anything else fails the test. */
export async function refusal(promise: Promise<unknown>): Promise<MemoryToolError> {
  try {
    await promise;
  } catch (error) {
    if (isMemoryToolError(error)) return error;
    throw error;
  }
  throw new Error('expected a MemoryToolError, but the call succeeded');
}
