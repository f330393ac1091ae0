// Call order through the tool (src/tool/call-order.ts; its unit tests: call-order.test.ts): parallel commands all
// kept and run in the order called, and the app's methods (undo, list, history, expire, export, import) and the
// commands a change listener starts lined up with them.

import { describe, expect, it, vi } from 'vitest';
import { IndexedDBMemoryTool } from '../../src/index.js';
import { freshToolEach } from '../helpers/fresh-tool.js';

const fresh = freshToolEach('parallel-calls');
const { run, ok, create, read } = fresh;

describe('parallel calls', () => {
  it('keeps all of 25 parallel inserts on one file', async () => {
    await create('/memories/log.md', '');
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => run({ command: 'insert', path: '/memories/log.md', insert_line: 0, insert_text: `entry ${i}` })),
    );
    expect(results.every((r) => !r.is_error)).toBe(true);
    const lines = (await read('/memories/log.md')).split('\n');
    expect(lines).toHaveLength(26);
    for (let i = 0; i < 25; i++) expect(lines).toContain(`entry ${i}`);
  });

  it('keeps all of 25 parallel str_replaces that each need the previous one', async () => {
    await create('/memories/count.md', Array.from({ length: 25 }, (_, i) => `slot ${i}: todo`).join('\n'));
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => run({ command: 'str_replace', path: '/memories/count.md', old_str: `slot ${i}: todo`, new_str: `slot ${i}: done` })),
    );
    expect(results.filter((r) => r.is_error)).toEqual([]);
    expect(await read('/memories/count.md')).not.toContain('todo');
  });

  it('runs them in the order they were called, reads too: a view called after a write sees it', async () => {
    // The SDK's runner calls the tool for every tool_use of a turn at once, in Claude's order.
    const [, , replaced, viewed, listed] = await Promise.all([
      run({ command: 'create', path: '/memories/a.md', file_text: 'old' }),
      run({ command: 'create', path: '/memories/b.md', file_text: 'b' }),
      run({ command: 'str_replace', path: '/memories/a.md', old_str: 'old', new_str: 'new' }),
      run({ command: 'view', path: '/memories/a.md' }),
      run({ command: 'view', path: '/memories' }),
    ]);
    expect(replaced?.is_error).toBe(false);
    expect(viewed?.content).toBe("Here's the content of /memories/a.md with line numbers:\n     1\tnew");
    expect(listed?.content).toContain('/memories/b.md');
  });

  it('keeps all of 30 parallel creates in many folders', async () => {
    await Promise.all(Array.from({ length: 30 }, (_, i) => create(`/memories/f${i % 5}/n${i}.md`, `n${i}`)));
    const listing = await ok({ command: 'view', path: '/memories' });
    for (let i = 0; i < 30; i++) expect(listing).toContain(`/memories/f${i % 5}/n${i}.md`);
  });
});

describe('the app methods in call order with the commands', () => {
  // Each loads its code on first use (or hashes a bundle) before its transaction: a command called right after it,
  // not awaited, must still come after it. Each case calls the method, then at once a command, and checks the method
  // saw the memory as it was before the command, and the command's effect as it was after the method.
  it('undo, then a create: undoes the change before, not the create', async () => {
    await create('/memories/a.md', 'one');
    await ok({ command: 'str_replace', path: '/memories/a.md', old_str: 'one', new_str: 'two' });
    const [edit] = await fresh.tool.history({ limit: 1 });
    const [undone, created] = await Promise.all([fresh.tool.undo(), run({ command: 'create', path: '/memories/b.md', file_text: 'b' })]);
    expect(created.is_error).toBe(false);
    expect(undone).toMatchObject({ command: 'undo', undoOf: edit?.id, paths: ['/memories/a.md'] });
    expect(await read('/memories/a.md')).toBe('one');
    expect(await read('/memories/b.md')).toBe('b');
    // Its answer is its own journal entry, not the newest one (the create).
    const [newest, second] = await fresh.tool.history({ limit: 2 });
    expect(newest).toMatchObject({ command: 'create', paths: ['/memories/b.md'] });
    expect(second).toEqual(undone);
  });

  it('list and read, then writes: show the memory before them', async () => {
    await create('/memories/a.md', 'old');
    const [listed, text] = await Promise.all([
      fresh.tool.list(),
      fresh.tool.read('/memories/a.md'),
      run({ command: 'create', path: '/memories/b.md', file_text: 'b' }),
      run({ command: 'str_replace', path: '/memories/a.md', old_str: 'old', new_str: 'new' }),
    ]);
    expect(listed.map((entry) => entry.path)).toEqual(['/memories/a.md']);
    expect(text).toBe('old');
  });

  it('history and change, then a write and an undo: show the journal before them', async () => {
    await create('/memories/a.md', 'one');
    const [before] = await fresh.tool.history();
    const [history, change] = await Promise.all([
      fresh.tool.history(),
      fresh.tool.change(before?.id ?? 0),
      run({ command: 'create', path: '/memories/b.md', file_text: 'b' }),
      fresh.tool.undo(before?.id),
    ]);
    expect(history).toEqual([before]);
    expect(change).toMatchObject({ id: before?.id, undone: false, files: [{ path: '/memories/a.md', before: null, after: 'one' }] });
    expect(await fresh.tool.change(before?.id ?? 0)).toMatchObject({ undone: true });
  });

  it('expire, then a create: expires what was there, not the new file', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const start = Date.now();
      await create('/memories/old.md', 'old');
      // A day on, everything older than now goes; a create over the old file first would have made it new (its
      // write is at now, not before it), and nothing would go.
      vi.setSystemTime(start + 24 * 3600_000);
      const [expired] = await Promise.all([
        fresh.tool.expire({ olderThan: 0 }),
        run({ command: 'create', path: '/memories/old.md', file_text: 'new' }),
      ]);
      expect(expired.deleted).toEqual(['/memories/old.md']);
      expect(await read('/memories/old.md')).toBe('new');
    } finally {
      vi.useRealTimers();
    }
  });

  it('export, then a create: exports the memory before it', async () => {
    await create('/memories/a.md', 'a');
    const [bundle] = await Promise.all([fresh.tool.exportBundle(), run({ command: 'create', path: '/memories/b.md', file_text: 'b' })]);
    const files = (JSON.parse(await bundle.text()) as { files: { path: string }[] }).files;
    expect(files.map((file) => file.path)).toEqual(['/memories/a.md']);
  });

  // A change listener that calls the tool a few microtasks later (after an await, or through queueMicrotask) calls it
  // after the commands already waiting for the turn that announced the change: its command must come after theirs.
  it.each([0, 1, 2, 3, 6])('a listener that starts a create %i awaits after an undo comes after a list already waiting', async (hops) => {
    await create('/memories/a.md', 'a');
    await IndexedDBMemoryTool.preload();
    let later: Promise<unknown> | undefined;
    const stop = fresh.tool.subscribe(async () => {
      if (later) return;
      later = Promise.resolve();
      for (let i = 0; i < hops; i++) await null;
      later = run({ command: 'create', path: '/memories/b.md', file_text: 'b' });
    });
    const undone = fresh.tool.undo();
    const listed = fresh.tool.list();
    await undone;
    expect((await listed).map((entry) => entry.path)).toEqual([]);
    await later;
    stop();
    expect(await read('/memories/b.md')).toBe('b');
  });

  it.each(['queueMicrotask', 'await null'])('a listener that starts a create through %s comes after a view already waiting for a write', async (defer) => {
    await create('/memories/a.md', 'one');
    let later: Promise<unknown> | undefined;
    const write = () => (later = run({ command: 'create', path: '/memories/a.md', file_text: 'three' }));
    const stop = fresh.tool.subscribe(async () => {
      if (later) return;
      later = Promise.resolve();
      if (defer === 'queueMicrotask') queueMicrotask(write);
      else {
        await null;
        write();
      }
    });
    // The create trusts the totals its tool remembers, so the view waits for it (it might run twice).
    const first = run({ command: 'create', path: '/memories/a.md', file_text: 'two' });
    const seen = read('/memories/a.md');
    await first;
    expect(await seen).toBe('two');
    await later;
    stop();
    expect(await read('/memories/a.md')).toBe('three');
  });

  it('import, then a create of a file it holds: the create comes after and wins', async () => {
    await create('/memories/a.md', 'from the bundle');
    const bundle = await fresh.tool.exportBundle();
    await ok({ command: 'delete', path: '/memories/a.md' });
    const [report, created] = await Promise.all([
      fresh.tool.importBundle(bundle, { onConflict: 'fail' }),
      run({ command: 'create', path: '/memories/a.md', file_text: 'mine' }),
    ]);
    expect(report.addedPaths).toEqual(['/memories/a.md']);
    expect(created.is_error).toBe(false);
    expect(await read('/memories/a.md')).toBe('mine');
  });
});
