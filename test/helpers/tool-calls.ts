// The calls most tests make through a tool, with the check that goes with them: `ok` (the reply of a command that
// must succeed), `fails` (of one that must be refused), `expectCode` (a handler's refusal and its code), and a
// snapshot of everything a view shows, to prove a refused command changed nothing.

import { expect } from 'vitest';
import { isMemoryToolError } from '../../src/index.js';
import type { IndexedDBMemoryTool, MemoryToolErrorCode, MemoryToolResult } from '../../src/index.js';

export interface ToolCalls {
  run(input: unknown): Promise<MemoryToolResult>;
  /** The reply of a command that must succeed. */
  ok(input: unknown): Promise<string>;
  /** The reply of a command that must be refused. */
  fails(input: unknown): Promise<string>;
  /** Creates a file, which must succeed. */
  create(path: string, fileText: string): Promise<string>;
  /** A file's text as a view shows it, without the line numbers. */
  read(path: string): Promise<string>;
  /** Everything visible in the store (the listing and every file a view shows), to prove a refusal changed nothing. */
  snapshot(): Promise<string>;
  /** Runs `action` (refusals, mostly) and expects {@link snapshot} to be the same after it as before. */
  unchanged(action: () => Promise<unknown>): Promise<void>;
}

/** {@link ToolCalls} on `on`, or on the tool `on()` gives at the time of each call. */
export function callsOn(on: IndexedDBMemoryTool | (() => IndexedDBMemoryTool)): ToolCalls {
  const tool = typeof on === 'function' ? on : () => on;
  const run = (input: unknown): Promise<MemoryToolResult> => tool().run(input);
  const ok = async (input: unknown): Promise<string> => {
    const result = await run(input);
    expect(result.is_error, result.content.slice(0, 300)).toBe(false);
    return result.content;
  };
  const fails = async (input: unknown): Promise<string> => {
    const result = await run(input);
    expect(result.is_error, result.content.slice(0, 300)).toBe(true);
    return result.content;
  };
  const read = async (path: string): Promise<string> => withoutLineNumbers(await ok({ command: 'view', path }));
  const snapshot = (): Promise<string> => visibleSnapshot(ok);
  return {
    run,
    ok,
    fails,
    create: (path, fileText) => ok({ command: 'create', path, file_text: fileText }),
    read,
    snapshot,
    unchanged: async (action) => {
      const before = await snapshot();
      await action();
      expect(await snapshot()).toBe(before);
    },
  };
}

/** The text of a file view's reply: its lines without the header and the line numbers. */
export const withoutLineNumbers = (reply: string): string =>
  reply
    .split('\n')
    .slice(1)
    .map((line) => line.slice(7))
    .join('\n');

/** The listing of `/memories` and every file it names, viewed through `ok`. */
async function visibleSnapshot(ok: (input: unknown) => Promise<string>): Promise<string> {
  const listing = await ok({ command: 'view', path: '/memories' });
  const files = listing
    .split('\n')
    .slice(1)
    .map((line) => line.split('\t')[1] ?? '')
    .filter((path) => !path.endsWith('/') && path !== '/memories');
  const bodies = await Promise.all(files.map((path) => ok({ command: 'view', path })));
  return [listing, ...bodies].join('\n---\n');
}

/** The whole memory with its times and hidden names, as an export with a fixed date holds it. */
export const exportedSnapshot = (tool: IndexedDBMemoryTool): Promise<string> =>
  tool.exportBundle({ exportedAt: new Date(0) }).then((bundle) => bundle.text());

/** Expects `promise` to reject with a MemoryToolError of `code` (and `message`, when given). */
export async function expectCode(promise: Promise<unknown>, code: MemoryToolErrorCode, message?: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isMemoryToolError(error), String(error)).toBe(true);
  if (isMemoryToolError(error)) {
    expect(error.code).toBe(code);
    if (message !== undefined) expect(error.message).toBe(message);
  }
}
