// The tool's public types as an app with `exactOptionalPropertyTypes` meets them: an explicit `undefined` taken by
// every optional option, and meaning its default at run time; `MemoryToolResult` narrowed on `is_error`; the command
// of a history entry, a `beforeWrite` call and an approval proposal, each a union of names.

import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  BeforeWrite,
  BeforeWriteHook,
  ExpireOptions,
  HistoryCommand,
  HistoryEntry,
  IndexedDBMemoryToolOptions,
  ListOptions,
  MemoryCommandName,
  MemoryToolErrorCode,
  MemoryToolResult,
  RunOptions,
  WipeOptions,
  WriteOptions,
  WriteProposal,
} from '../../src/index.js';
import { createMemorySync } from '../../src/entries/sync.js';
import type { MemorySyncOptions } from '../../src/entries/sync.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { MemoryRemote } from '../helpers/memory-remote.js';

const open = toolsClosedAfterEach('option-types');

describe('the result of run()', () => {
  it('is a union on is_error: only a refusal carries a code', async () => {
    expectTypeOf<Extract<MemoryToolResult, { is_error: true }>['code']>().toEqualTypeOf<MemoryToolErrorCode>();
    expectTypeOf<Extract<MemoryToolResult, { is_error: false }>['code']>().toEqualTypeOf<undefined>();

    const tool = await open();
    const refused = await tool.run({ command: 'view', path: '/memories/none.md' });
    const ran = await tool.run({ command: 'create', path: '/memories/a.md', file_text: 'tea\n' });
    // Narrowed by the test alone: `code` is a MemoryToolErrorCode here, not `… | undefined`.
    const code: MemoryToolErrorCode | 'ran' = refused.is_error ? refused.code : 'ran';
    expect(code).toBe('not_found');
    expect(ran).toEqual({ content: 'File created successfully at: /memories/a.md', is_error: false });
  });
});

describe('the command names', () => {
  it('are unions in a history entry, a beforeWrite call and an approval proposal', async () => {
    expectTypeOf<HistoryEntry['command']>().toEqualTypeOf<HistoryCommand>();
    expectTypeOf<'create' | 'undo' | 'forget' | 'clear-history' | 'sync'>().toExtend<HistoryCommand>();
    expectTypeOf<string>().not.toExtend<HistoryCommand>();
    expectTypeOf<BeforeWrite['command']>().toEqualTypeOf<'create' | 'str_replace' | 'insert'>();
    expectTypeOf<WriteProposal['command']>().toEqualTypeOf<Exclude<MemoryCommandName, 'view'>>();

    const seen: BeforeWrite['command'][] = [];
    const beforeWrite: BeforeWriteHook = (write) => {
      seen.push(write.command);
    };
    const tool = await open({ beforeWrite });
    await tool.create({ command: 'create', path: '/memories/a.md', file_text: 'tea\n' });
    await tool.str_replace({ command: 'str_replace', path: '/memories/a.md', old_str: 'tea', new_str: 'coffee' });
    await tool.insert({ command: 'insert', path: '/memories/a.md', insert_line: 0, insert_text: 'drinks:\n' });
    await tool.rename({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/b.md' });
    const commands: HistoryCommand[] = (await tool.history()).map((entry) => entry.command);
    expect(seen).toEqual(['create', 'str_replace', 'insert']);
    expect(commands).toEqual(['rename', 'insert', 'str_replace', 'create']);
  });
});

describe('an explicit undefined', () => {
  it('is taken by every optional option of init() and run(), in the types', () => {
    expectTypeOf<{
      dbName: undefined;
      overwrite: undefined;
      limits: { maxFiles: undefined; maxFileBytes: undefined; maxTotalBytes: undefined; maxReplyChars: undefined };
      history: { maxEntries: undefined; maxBytes: undefined };
      blockSecrets: undefined;
      beforeWrite: undefined;
      approve: undefined;
    }>().toExtend<IndexedDBMemoryToolOptions>();
    expectTypeOf<{ actor: undefined; source: undefined; signal: undefined }>().toExtend<RunOptions>();
    expectTypeOf<{ olderThan: Date; actor: undefined; source: undefined; signal: undefined }>().toExtend<ExpireOptions>();
    expectTypeOf<{ remote: undefined; signal: undefined }>().toExtend<WipeOptions>();
    expectTypeOf<{ depth: undefined; limit: undefined }>().toExtend<ListOptions>();
    expectTypeOf<{ actor: undefined; source: undefined; signal: undefined }>().toExtend<WriteOptions>();
  });

  it('means the default at run time: overwrite on, history kept, actor claude', async () => {
    const tool = await open({
      overwrite: undefined,
      limits: { maxFiles: undefined, maxFileBytes: undefined, maxTotalBytes: undefined, maxReplyChars: undefined },
      history: { maxEntries: undefined, maxBytes: undefined },
      blockSecrets: undefined,
      beforeWrite: undefined,
      approve: undefined,
    });
    const run = { actor: undefined, source: undefined, signal: undefined };
    await tool.execute({ command: 'create', path: '/memories/a.md', file_text: 'tea\n' }, run);
    await tool.execute({ command: 'create', path: '/memories/a.md', file_text: 'coffee\n' }, run);
    expect(await tool.read('/memories/a.md')).toBe('coffee\n');
    expect(tool.limits).toEqual({ maxFileBytes: 1024 * 1024, maxTotalBytes: 256 * 1024 * 1024, maxFiles: 50_000, maxReplyChars: 16_000 });
    const history = await tool.history({ limit: undefined, actor: undefined });
    expect(history.map(({ actor, command }) => ({ actor, command }))).toEqual([
      { actor: 'claude', command: 'create' },
      { actor: 'claude', command: 'create' },
    ]);
    expect(history[0]).not.toHaveProperty('source');

    const found = await tool.search('coffee', { path: undefined, limit: undefined, prefix: undefined });
    expect(found.hits.map((hit) => hit.path)).toEqual(['/memories/a.md']);
    const bundle = await tool.exportBundle({ path: undefined, format: undefined, onProgress: undefined });
    expect(bundle.type).toBe('application/json');
    const other = await open();
    const report = await other.importBundle(bundle, { mode: undefined, onConflict: undefined, dryRun: undefined });
    expect(report.added).toBe(1);
    expect(await other.read('/memories/a.md')).toBe('coffee\n');
  });

  it('means the default in the sync options: the whole memory mounted and pushed', async () => {
    const remote = new MemoryRemote();
    const tool = await open();
    await tool.create({ command: 'create', path: '/memories/a.md', file_text: 'tea\n' });
    const options: MemorySyncOptions = {
      remote: remote.handle(),
      mount: undefined,
      interval: null,
      debounce: undefined,
      deleteGuard: { min: undefined, share: undefined },
    };
    const sync = createMemorySync(tool, options);
    try {
      const report = await sync.syncNow({ confirmDeletes: undefined });
      expect(report.pushed).toEqual(['/memories/a.md']);
      // The remote's root is the mount, `/memories` by default.
      expect([...remote.files.keys()]).toEqual(['/a.md']);
    } finally {
      sync.close();
    }
  });
});
