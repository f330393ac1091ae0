// The write runner's optimistic totals through the tool (src/tool/write-runner.ts, src/storage/optimistic-totals.ts):
// when a write reads the totals, trusts what its tool remembers or checks them, runs again when another tool wrote
// between (counted with the request spy), and keeps call order, the limits and the events right while doing so.

import { describe, expect, it, vi } from 'vitest';
import { openDB } from 'idb';
import type { IndexedDBMemoryTool, MemoryToolResult } from '../../src/index.js';
import type { MemorySchema, Totals } from '../../src/storage/schema.js';
import { unpackTotals } from '../../src/storage/schema.js';
import { freshToolEach } from '../helpers/fresh-tool.js';
import type { SpiedRequest } from '../helpers/request-spy.js';
import { journalReadsDuring, spyDuring } from '../helpers/request-spy.js';

const fresh = freshToolEach('write-runner');
const { ok, create, read, snapshot, another } = fresh;

/** The totals the newest journal record holds, read straight from the database. */
async function lastTotals(): Promise<Totals | undefined> {
  const db = await openDB<MemorySchema>(fresh.tool.dbName);
  try {
    const newest = await db.transaction('journal').store.openCursor(null, 'prev');
    return newest?.value.totals ? unpackTotals(newest.value.totals) : undefined;
  } finally {
    db.close();
  }
}

describe('the totals a tool remembers between its writes', () => {
  /** Commands called at once that each need the one before, and the last line of each reply in call order. */
  const DRAFT_THEN_FINAL = [
    { command: 'create', path: '/memories/c.md', file_text: 'draft' },
    { command: 'view', path: '/memories/c.md' },
    { command: 'str_replace', path: '/memories/c.md', old_str: 'draft', new_str: 'final' },
    { command: 'view', path: '/memories/c.md' },
  ];
  const DRAFT_THEN_FINAL_SEEN = ['File created successfully at: /memories/c.md', '     1\tdraft', '     1\tfinal', '     1\tfinal'];
  /** Runs `inputs` on `tool` all at once: the last line of each reply, and how many runs were taken back. */
  async function atOnce(tool: IndexedDBMemoryTool, inputs: unknown[]): Promise<{ lastLines: Array<string | undefined>; aborts: number }> {
    let results: MemoryToolResult[] = [];
    const seen = await journalReadsDuring(async () => {
      results = await Promise.all(inputs.map((input) => tool.run(input)));
    });
    return { lastLines: results.map((result) => result.content.split('\n').at(-1)), aborts: seen.aborts };
  }
  /** How many times `action` reads the totals from the journal's end. */
  const totalsReads = async (action: () => Promise<unknown>): Promise<number> => (await journalReadsDuring(action)).cursors;

  it('reads them once, then only remembers them while no other write comes between its own', async () => {
    expect(await totalsReads(() => create('/memories/a.md', 'one\n'))).toBe(1);
    expect(await totalsReads(() => create('/memories/b.md', 'two\n'))).toBe(0);
    expect(await totalsReads(() => ok({ command: 'str_replace', path: '/memories/a.md', old_str: 'one', new_str: 'uno' }))).toBe(0);
    expect(await totalsReads(() => ok({ command: 'insert', path: '/memories/a.md', insert_line: 0, insert_text: 'zero' }))).toBe(0);
    expect(await totalsReads(() => ok({ command: 'rename', old_path: '/memories/b.md', new_path: '/memories/c/b.md' }))).toBe(0);
    expect(await totalsReads(() => ok({ command: 'delete', path: '/memories/c' }))).toBe(0);
    // Another tool's write is newer than what this one remembers: read once, then remembered again.
    await (await another()).create({ command: 'create', path: '/memories/other.md', file_text: 'x' });
    expect(await totalsReads(() => create('/memories/d.md', 'three\n'))).toBe(1);
    expect(await totalsReads(() => create('/memories/e.md', 'four\n'))).toBe(0);
    // Undo and an import remember what they wrote too: the import's entry (a step per file) is not read back.
    await fresh.tool.undo();
    expect(await totalsReads(() => create('/memories/f.md', 'five\n'))).toBe(0);
    await fresh.tool.importBundle(await fresh.tool.exportBundle({ path: '/memories/a.md' }), { onConflict: 'overwrite' });
    expect(await totalsReads(() => create('/memories/g.md', 'six\n'))).toBe(0);
    expect(await read('/memories/a.md')).toBe('zero\nuno\n');
    // So does an expiry that deleted something (this one, everything: a minute on, every file is older than now).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 60_000);
      expect((await fresh.tool.expire({ olderThan: 0 })).deleted.length).toBeGreaterThan(0);
      expect(await totalsReads(() => create('/memories/h.md', 'seven\n'))).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('runs a write again from totals read afresh when another tool wrote since, committing and announcing it once', async () => {
    const texts: string[] = [];
    const mine = await another({ beforeWrite: ({ content }) => void texts.push(content) });
    const events: string[] = [];
    mine.subscribe((event) => {
      if (event.source === 'local') events.push(...event.changes.map((change) => change.path));
    });
    const none = { cursors: 0, lookups: 0, aborts: 0 };
    await mine.create({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    expect(await journalReadsDuring(() => mine.create({ command: 'create', path: '/memories/b.md', file_text: 'b' }))).toEqual(none);
    const theirs = await another();
    await theirs.create({ command: 'create', path: '/memories/t1.md', file_text: 't' });
    // The first run starts from what it remembers, finds by its record's key that another write came between, and
    // is taken back; the second reads the totals.
    expect(await journalReadsDuring(() => mine.create({ command: 'create', path: '/memories/c.md', file_text: 'c' }))).toEqual({ cursors: 1, lookups: 0, aborts: 1 });
    // Another tool is busy: the next write checks what it remembers first, and since nothing came between, trusts it again.
    expect(await journalReadsDuring(() => mine.create({ command: 'create', path: '/memories/d.md', file_text: 'd' }))).toEqual({ cursors: 0, lookups: 1, aborts: 0 });
    expect(await journalReadsDuring(() => mine.create({ command: 'create', path: '/memories/e.md', file_text: 'e' }))).toEqual(none);
    // Checked and found stale, the totals are read in the same run: no run is taken back.
    await theirs.create({ command: 'create', path: '/memories/t2.md', file_text: 't' });
    await mine.create({ command: 'create', path: '/memories/f.md', file_text: 'f' });
    await theirs.create({ command: 'create', path: '/memories/t3.md', file_text: 't' });
    expect(await journalReadsDuring(() => mine.create({ command: 'create', path: '/memories/g.md', file_text: 'g' }))).toEqual({ cursors: 1, lookups: 1, aborts: 0 });
    // beforeWrite saw c and f twice (once per run); the memory, the history and the events have them once.
    expect(texts).toEqual(['a', 'b', 'c', 'c', 'd', 'e', 'f', 'f', 'g']);
    expect(events).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((name) => `/memories/${name}.md`));
    expect((await mine.history()).map((entry) => entry.paths.join().slice(10))).toEqual(['g.md', 't3.md', 'f.md', 't2.md', 'e.md', 'd.md', 'c.md', 't1.md', 'b.md', 'a.md']);
    expect(await read('/memories/c.md')).toBe('c');
  });

  it('keeps the call order when a write runs again: the commands called after it wait for its second run', async () => {
    const mine = await another();
    const theirs = await another();
    await mine.create({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    await mine.create({ command: 'create', path: '/memories/b.md', file_text: 'b' });
    await theirs.create({ command: 'create', path: '/memories/t.md', file_text: 't' });
    // The create runs twice: its first run finds the other tool's write between.
    expect(await atOnce(mine, DRAFT_THEN_FINAL)).toEqual({ lastLines: DRAFT_THEN_FINAL_SEEN, aborts: 1 });
  });

  it('keeps the call order when a write that waited for another runs again', async () => {
    const mine = await another();
    const theirs = await another();
    await mine.create({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    // Once b is written, the other tool writes before mine's next create starts: that create runs twice.
    let interfered = false;
    mine.subscribe((event) => {
      if (interfered || !event.changes.some((change) => change.path === '/memories/b.md')) return;
      interfered = true;
      void theirs.create({ command: 'create', path: '/memories/t.md', file_text: 't' });
    });
    expect(await atOnce(mine, [{ command: 'create', path: '/memories/b.md', file_text: 'b' }, ...DRAFT_THEN_FINAL])).toEqual({
      lastLines: ['File created successfully at: /memories/b.md', ...DRAFT_THEN_FINAL_SEEN],
      aborts: 1,
    });
  });

  it('keeps the call order for a command a change listener starts: it comes after those already called', async () => {
    await create('/memories/first.md', '1');
    let viewed: Promise<string> | undefined;
    fresh.tool.subscribe((event) => {
      if (!viewed && event.changes.some((change) => change.path === '/memories/c.md')) {
        viewed = fresh.tool.view({ command: 'view', path: '/memories/c.md' });
      }
    });
    await Promise.all([
      fresh.tool.create({ command: 'create', path: '/memories/c.md', file_text: 'draft' }),
      fresh.tool.str_replace({ command: 'str_replace', path: '/memories/c.md', old_str: 'draft', new_str: 'final' }),
    ]);
    expect(await viewed).toBe("Here's the content of /memories/c.md with line numbers:\n     1\tfinal");
  });

  it('lets a create that trusts them send the body under their next id and write the entry without waiting for it', async () => {
    const bodies: SpiedRequest[] = [];
    const atEntryPut: string[] = [];
    await spyDuring(
      async () => {
        // The first write reads the totals: its body takes a key from the store, which its entry waits for.
        await create('/memories/a.md', 'one');
        // The next trusts what the first left: the body goes under their next id, and the entry does not wait.
        await create('/memories/b.md', 'two');
      },
      {
        onAsk: (asked) => {
          if (asked.store === 'bodies' && asked.method === 'add') bodies.push(asked);
          if (asked.store === 'entries' && asked.method === 'put' && (asked.value as { kind?: string }).kind === 'file') {
            atEntryPut.push(bodies.at(-1)?.request.readyState ?? 'none');
          }
        },
      },
    );
    expect(bodies.map((body) => typeof body.query)).toEqual(['undefined', 'number']);
    expect(bodies[1]?.query).toBe(Number(bodies[0]?.request.result) + 1);
    expect(atEntryPut).toEqual(['done', 'pending']);
    expect([await read('/memories/a.md'), await read('/memories/b.md')]).toEqual(['one', 'two']);
    const listing = await ok({ command: 'view', path: '/memories' });
    expect(listing.split('\n').slice(2)).toEqual(['3B\t/memories/a.md', '3B\t/memories/b.md']);
  });

  it('checks them before a rename or a folder\'s delete instead, which another write between then costs a read, not a second run', async () => {
    const theirs = await another();
    await create('/memories/big/a.md', 'a');
    await create('/memories/big/b.md', 'b');
    await theirs.create({ command: 'create', path: '/memories/t1.md', file_text: 't' });
    expect(await journalReadsDuring(() => ok({ command: 'rename', old_path: '/memories/big', new_path: '/memories/moved' }))).toEqual({ cursors: 1, lookups: 1, aborts: 0 });
    expect(await journalReadsDuring(() => ok({ command: 'rename', old_path: '/memories/moved', new_path: '/memories/big' }))).toEqual({ cursors: 0, lookups: 1, aborts: 0 });
    await theirs.create({ command: 'create', path: '/memories/t2.md', file_text: 't' });
    expect(await journalReadsDuring(() => ok({ command: 'delete', path: '/memories/big' }))).toEqual({ cursors: 1, lookups: 1, aborts: 0 });
    expect(await journalReadsDuring(() => ok({ command: 'delete', path: '/memories/t1.md' }))).toEqual({ cursors: 0, lookups: 1, aborts: 0 });
  });

  it.each([
    { case: 'still kept by its history (the add fails)', theirs: {} },
    { case: 'released again, with no history (the add succeeds, the key check catches it)', theirs: { history: false as const } },
  ])('runs an edit again when another tool has used the body id it would take, $case', async ({ theirs }) => {
    const other = await another(theirs);
    await create('/memories/a.md', 'mine');
    // The other tool's edit takes the next body id this tool remembers as free.
    await other.create({ command: 'create', path: '/memories/b.md', file_text: 'theirs' });
    await other.str_replace({ command: 'str_replace', path: '/memories/b.md', old_str: 'theirs', new_str: 'theirs, edited' });
    await other.str_replace({ command: 'str_replace', path: '/memories/b.md', old_str: 'edited', new_str: 'edited twice' });
    expect(await ok({ command: 'str_replace', path: '/memories/a.md', old_str: 'mine', new_str: 'mine, edited' })).toContain('mine, edited');
    expect(await read('/memories/a.md')).toBe('mine, edited');
    expect(await read('/memories/b.md')).toBe('theirs, edited twice');
    expect(await fresh.tool.undo()).toMatchObject({ command: 'undo' });
    expect(await read('/memories/a.md')).toBe('mine');
    expect(await read('/memories/b.md')).toBe('theirs, edited twice');
  });

  it('starts each of parallel writes of one tool from the totals the one before left: none is read again or run twice', async () => {
    await create('/memories/first.md', '1');
    // The first trusts them; the others wait for it (it might run twice), and each then trusts what the one before left.
    const seen = await journalReadsDuring(() => Promise.all(Array.from({ length: 5 }, (_, i) => create(`/memories/p${i}.md`, `${i}`))));
    expect(seen).toEqual({ cursors: 0, lookups: 0, aborts: 0 });
    expect((await fresh.tool.history()).length).toBe(6);
    // Deletes of files trust them too.
    const deletes = await journalReadsDuring(() => Promise.all([ok({ command: 'delete', path: '/memories/p0.md' }), ok({ command: 'delete', path: '/memories/p1.md' })]));
    expect(deletes).toEqual({ cursors: 0, lookups: 0, aborts: 0 });
    // Writes that do not trust them (a rename) run beside the others and check them: the one before is then newer.
    const mixed = await journalReadsDuring(() =>
      Promise.all([
        ok({ command: 'rename', old_path: '/memories/p2.md', new_path: '/memories/q2.md' }),
        ok({ command: 'rename', old_path: '/memories/p3.md', new_path: '/memories/q3.md' }),
      ]),
    );
    expect(mixed).toEqual({ cursors: 1, lookups: 2, aborts: 0 });
    expect((await fresh.tool.history()).length).toBe(10);
  });

  it('lets a delete of a file trust them, and runs it again when another tool wrote between, so the totals count both', async () => {
    const events: string[] = [];
    fresh.tool.subscribe((event) => {
      if (event.source === 'local') events.push(...event.changes.map((change) => `${change.type} ${change.path}`));
    });
    await create('/memories/a.md', 'aaaa');
    await create('/memories/b.md', 'bb');
    expect(await journalReadsDuring(() => ok({ command: 'delete', path: '/memories/a.md' }))).toEqual({ cursors: 0, lookups: 0, aborts: 0 });
    // Another tool's file is not in what this one remembers: the delete's record key shows the write between.
    await (await another()).create({ command: 'create', path: '/memories/t.md', file_text: 'ttttttt' });
    expect(await journalReadsDuring(() => ok({ command: 'delete', path: '/memories/b.md' }))).toEqual({ cursors: 1, lookups: 0, aborts: 1 });
    expect(await lastTotals()).toMatchObject({ bytes: 7, files: 1 });
    expect(events).toEqual(['write /memories/a.md', 'write /memories/b.md', 'delete /memories/a.md', 'delete /memories/b.md']);
    expect((await fresh.tool.history()).map((entry) => `${entry.command} ${entry.paths.join()}`)).toEqual([
      'delete /memories/b.md',
      'create /memories/t.md',
      'delete /memories/a.md',
      'create /memories/b.md',
      'create /memories/a.md',
    ]);
    // The next write checks them (the delete was not alone), and a write that finds itself alone trusts them again.
    expect(await journalReadsDuring(() => create('/memories/c.md', 'c'))).toEqual({ cursors: 0, lookups: 1, aborts: 0 });
    expect(await journalReadsDuring(() => ok({ command: 'delete', path: '/memories/c.md' }))).toEqual({ cursors: 0, lookups: 0, aborts: 0 });
    expect(await lastTotals()).toMatchObject({ bytes: 7, files: 1 });
  });

  it('checks them in the same run before refusing a write by the limits, so a refusal costs no second run', async () => {
    const calls: string[] = [];
    const small = await another({ limits: { maxFiles: 2 }, beforeWrite: ({ path }) => void calls.push(path) });
    await small.create({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    await small.create({ command: 'create', path: '/memories/b.md', file_text: 'b' });
    calls.length = 0;
    let refused: unknown;
    expect(await journalReadsDuring(async () => (refused = await small.run({ command: 'create', path: '/memories/c.md', file_text: 'c' })))).toEqual({ cursors: 0, lookups: 1, aborts: 1 });
    expect(refused).toMatchObject({ is_error: true, content: expect.stringMatching(/limit of 2 files/) });
    expect(calls).toEqual(['/memories/c.md']);
  });

  it('refuses by the limits, not with the storage error, when a full disk fails the early body before the check', async () => {
    const small = await another({ limits: { maxFiles: 2 } });
    await small.create({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    await small.create({ command: 'create', path: '/memories/b.md', file_text: 'b' });
    const before = await snapshot();
    // Every body write fails as it is carried out, as on a full disk: an add under a taken key, whose failure (and so
    // the transaction's) reads as the browser's QuotaExceededError. It aborts the transaction while the limit check
    // of the remembered totals waits for its key lookup.
    const quota = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    const asQuota = (error: DOMException | null): DOMException | null => (error?.name === 'ConstraintError' ? quota : error);
    const realError = Object.getOwnPropertyDescriptor(IDBTransaction.prototype, 'error')?.get;
    const realAdd = IDBObjectStore.prototype.add;
    const patched = new WeakSet<IDBTransaction>();
    vi.spyOn(IDBObjectStore.prototype, 'add').mockImplementation(function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      if (this.name !== 'bodies') return realAdd.call(this, value, key);
      const tx = this.transaction;
      if (!patched.has(tx)) {
        patched.add(tx);
        // fake-indexeddb keeps the error as the transaction's own property, a browser behind a getter.
        let own = realError ? null : tx.error;
        Object.defineProperty(tx, 'error', {
          configurable: true,
          get: () => asQuota(realError ? (realError.call(tx) as DOMException | null) : own),
          set: (error: DOMException | null) => void (own = error),
        });
      }
      return realAdd.call(this, value, 1);
    });
    let refused: unknown;
    try {
      refused = await small.run({ command: 'create', path: '/memories/c.md', file_text: 'c' });
    } finally {
      vi.restoreAllMocks();
    }
    expect(refused).toEqual({
      is_error: true,
      code: 'too_large',
      content: 'Error: The memory already holds its limit of 2 files. Delete files first. Nothing was written.',
    });
    expect(await snapshot()).toBe(before);
  });

  it('remembers the key of its own record when its write pruned the history', async () => {
    const small = await another({ history: { maxEntries: 2 }, limits: { maxFiles: 3 } });
    await small.create({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    await small.create({ command: 'create', path: '/memories/b.md', file_text: 'b' });
    // The third entry is over the bound: this write drops the oldest and writes its record again, at its key.
    await small.insert({ command: 'insert', path: '/memories/a.md', insert_line: 0, insert_text: 'x' });
    expect((await small.history()).length).toBeLessThanOrEqual(2);
    await (await another()).create({ command: 'create', path: '/memories/c.md', file_text: 'c' });
    expect((await small.run({ command: 'create', path: '/memories/d.md', file_text: 'd' })).content).toMatch(/limit of 3 files/);
  });

  it('counts each of parallel writes of one tool against the limits, though they start from the same remembered totals', async () => {
    const small = await another({ limits: { maxFiles: 4 } });
    await small.create({ command: 'create', path: '/memories/first.md', file_text: '1' });
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => small.run({ command: 'create', path: `/memories/p${i}.md`, file_text: `${i}` })),
    );
    expect(results.filter((result) => result.is_error).map((result) => result.content)).toEqual([
      'Error: The memory already holds its limit of 4 files. Delete files first. Nothing was written.',
      'Error: The memory already holds its limit of 4 files. Delete files first. Nothing was written.',
    ]);
    expect((await ok({ command: 'view', path: '/memories' })).split('\n').filter((line) => line.endsWith('.md'))).toHaveLength(4);
  });

  it.each([
    { case: 'with history', mine: {}, theirs: {} },
    { case: 'with no history on either side (the totals in one hidden record)', mine: { history: false as const }, theirs: { history: false as const } },
    { case: 'after the other pruned the record they were read from', mine: {}, theirs: { history: { maxEntries: 2 } } },
  ])('counts what another tool on the database wrote since, $case', async ({ mine, theirs }) => {
    const small = await another({ ...mine, limits: { maxFiles: 3 } });
    const other = await another(theirs);
    await small.create({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    await small.create({ command: 'create', path: '/memories/b.md', file_text: 'b' });
    await other.create({ command: 'create', path: '/memories/c.md', file_text: 'c' });
    for (let i = 0; i < 4; i++) await other.insert({ command: 'insert', path: '/memories/c.md', insert_line: 0, insert_text: `${i}` });
    expect((await small.run({ command: 'create', path: '/memories/d.md', file_text: 'd' })).content).toBe(
      'Error: The memory already holds its limit of 3 files. Delete files first. Nothing was written.',
    );
    await other.delete({ command: 'delete', path: '/memories/c.md' });
    expect((await small.run({ command: 'create', path: '/memories/d.md', file_text: 'd' })).is_error).toBe(false);
  });

  it('does not refuse a write by totals another tool has since made smaller', async () => {
    const small = await another({ limits: { maxFiles: 2 } });
    await small.create({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    await small.create({ command: 'create', path: '/memories/b.md', file_text: 'b' });
    await (await another()).delete({ command: 'delete', path: '/memories/a.md' });
    // What small remembers says 2 files, the limit; there is one.
    expect((await small.run({ command: 'create', path: '/memories/c.md', file_text: 'c' })).is_error).toBe(false);
    expect((await small.run({ command: 'create', path: '/memories/d.md', file_text: 'd' })).content).toMatch(/limit of 2 files/);
  });

  it('forgets them with the connection: a database deleted and made again starts from its own totals', async () => {
    const small = await another({ limits: { maxFiles: 2 } });
    await small.create({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    await small.create({ command: 'create', path: '/memories/b.md', file_text: 'b' });
    // Every open tool steps aside for the delete (versionchange) and reopens on its next command.
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.deleteDatabase(fresh.tool.dbName);
      request.onsuccess = () => resolve();
      request.onerror = () => reject(request.error);
    });
    await (await another()).create({ command: 'create', path: '/memories/x.md', file_text: 'x' });
    // Remembered from before the delete, the totals would say 2 files and refuse this one.
    expect((await small.run({ command: 'create', path: '/memories/y.md', file_text: 'y' })).is_error).toBe(false);
    expect((await small.run({ command: 'create', path: '/memories/z.md', file_text: 'z' })).content).toMatch(/limit of 2 files/);
  });
});
