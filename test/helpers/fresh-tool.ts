// Opening tools for tests: each on a database of its own (a name no other test uses), closed after the test, and
// the calls most tests make through the tool bound to it (see tool-calls.ts).

import { afterEach, beforeEach } from 'vitest';
import { IndexedDBMemoryTool } from '../../src/index.js';
import type { IndexedDBMemoryToolOptions } from '../../src/index.js';
import type { ToolCalls } from './tool-calls.js';
import { callsOn } from './tool-calls.js';

/** A database name no other test uses, starting with `prefix` (so a leftover database says which file made it). */
export const freshDbName = (prefix: string): string => `${prefix}-${crypto.randomUUID()}`;

export type OpenTool = (options?: IndexedDBMemoryToolOptions) => Promise<IndexedDBMemoryTool>;

/**
 * Opens tools for the tests of the file or `describe` it is called in, each on a fresh database unless
 * `options.dbName` names one, and closes every one of them after each test.
 */
export function toolsClosedAfterEach(prefix: string): OpenTool {
  const opened: IndexedDBMemoryTool[] = [];
  afterEach(() => {
    for (const tool of opened.splice(0)) tool.close();
  });
  return async (options = {}) => {
    const tool = await IndexedDBMemoryTool.init({ dbName: freshDbName(prefix), ...options });
    opened.push(tool);
    return tool;
  };
}

export interface FreshTool extends ToolCalls {
  /** This test's tool: a new one on a new database before each test. */
  readonly tool: IndexedDBMemoryTool;
  /** Another tool on this test's database (unless `options.dbName` names another), closed after the test. */
  another(options?: IndexedDBMemoryToolOptions): Promise<IndexedDBMemoryTool>;
  /** Puts a new tool on the same database in place of `tool`: one that has seen no file yet. */
  reopen(): Promise<void>;
}

/** A new tool on a new database before each test of the file or `describe` it is called in, closed after it. */
export function freshToolEach(prefix: string, options: IndexedDBMemoryToolOptions = {}): FreshTool {
  const open = toolsClosedAfterEach(prefix);
  let current: IndexedDBMemoryTool | undefined;
  beforeEach(async () => {
    current = await open(options);
  });
  const tool = (): IndexedDBMemoryTool => {
    if (!current) throw new Error('freshToolEach: the tool is opened before each test, not while the file loads');
    return current;
  };
  return {
    get tool() {
      return tool();
    },
    another: (more = {}) => open({ dbName: tool().dbName, ...more }),
    reopen: async () => {
      const dbName = tool().dbName;
      tool().close();
      current = await open({ ...options, dbName });
    },
    ...callsOn(tool),
  };
}
