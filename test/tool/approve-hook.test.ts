// The approve hook: Claude's writes wait for the person's answer, with nothing of them stored until it is 'allow'; a
// denial, a failing hook and a withdrawn question store nothing and tell Claude; the person's own writes are not asked.

import { describe, expect, it } from 'vitest';
import type { ApproveHook, MemoryToolResult } from '../../src/index.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { dumpStores } from '../helpers/store-dump.js';
import { questions } from './approve-questions.js';

const open = toolsClosedAfterEach('approve-hook');

const SEED: Array<[string, string]> = [
  ['/memories/notes/a.md', 'one\ntwo\nthree\n'],
  ['/memories/notes/b.md', 'bee\n'],
];

/** A tool with `approve` on a database seeded by the person (not asked), and a twin without it for the replies. */
async function seeded(approve: ApproveHook) {
  const tool = await open({ approve });
  const twin = await open();
  for (const [path, text] of SEED) {
    for (const t of [tool, twin]) {
      const seededReply = await t.run({ command: 'create', path, file_text: text }, { actor: 'user' });
      expect(seededReply.is_error).toBe(false);
    }
  }
  return { tool, twin };
}

const WRITES = [
  { command: 'create', path: '/memories/new.md', file_text: 'fresh\n' },
  { command: 'create', path: '/memories/notes/a.md', file_text: 'over\n' },
  { command: 'str_replace', path: '/memories/notes/a.md', old_str: 'two', new_str: 'TWO' },
  { command: 'insert', path: '/memories/notes/a.md', insert_line: 1, insert_text: 'inserted' },
  { command: 'delete', path: '/memories/notes/b.md' },
  { command: 'delete', path: '/memories/notes' },
  { command: 'rename', old_path: '/memories/notes/a.md', new_path: '/memories/moved/a.md' },
  { command: 'rename', old_path: '/memories/notes', new_path: '/memories/kept' },
];

describe('approve', () => {
  it.each(WRITES)('stores nothing of $command while the question is open, then the usual reply on allow', async (input) => {
    const asked = questions();
    const { tool, twin } = await seeded(asked.approve);
    const before = await dumpStores(tool.dbName);
    const running = tool.run(input);
    const question = await asked.nth(0);
    expect(await dumpStores(tool.dbName)).toBe(before);
    question.answer('allow');
    const result = await running;
    const expected = await twin.run(input);
    expect(result).toEqual(expected);
    expect(result.is_error).toBe(false);
    expect(await dumpStores(tool.dbName)).not.toBe(before);
    expect(asked.asked).toHaveLength(1);
    expect((await tool.list()).map((e) => [e.path, e.kind, e.size])).toEqual(
      (await twin.list()).map((e) => [e.path, e.kind, e.size]),
    );
  });

  it("shows each write's whole text before and after, and a folder's files", async () => {
    const asked = questions();
    const { tool } = await seeded(asked.approve);
    const shown = [];
    for (const input of WRITES) {
      const running = tool.run(input, { source: 'conv-1' });
      const question = await asked.nth(shown.length);
      shown.push(question.proposal);
      question.answer('deny');
      expect((await running).is_error).toBe(true);
    }
    const who = { actor: 'claude', source: 'conv-1' };
    expect(shown).toEqual([
      { command: 'create', path: '/memories/new.md', before: null, after: 'fresh\n', ...who },
      { command: 'create', path: '/memories/notes/a.md', before: 'one\ntwo\nthree\n', after: 'over\n', ...who },
      { command: 'str_replace', path: '/memories/notes/a.md', before: 'one\ntwo\nthree\n', after: 'one\nTWO\nthree\n', ...who },
      { command: 'insert', path: '/memories/notes/a.md', before: 'one\ntwo\nthree\n', after: 'one\ninserted\ntwo\nthree\n', ...who },
      { command: 'delete', path: '/memories/notes/b.md', before: 'bee\n', after: null, ...who },
      {
        command: 'delete',
        path: '/memories/notes',
        before: null,
        after: null,
        files: ['/memories/notes/a.md', '/memories/notes/b.md'],
        ...who,
      },
      {
        command: 'rename',
        path: '/memories/notes/a.md',
        newPath: '/memories/moved/a.md',
        before: 'one\ntwo\nthree\n',
        after: 'one\ntwo\nthree\n',
        ...who,
      },
      {
        command: 'rename',
        path: '/memories/notes',
        newPath: '/memories/kept',
        before: null,
        after: null,
        files: ['/memories/notes/a.md', '/memories/notes/b.md'],
        ...who,
      },
    ]);
  });

  const DENIALS: Array<[string, (q: { answer(a: never): void; fail(e: unknown): void }) => void, string]> = [
    ["'deny'", (q) => q.answer('deny' as never), 'The person declined this write to /memories/notes/a.md. Nothing'],
    ['a denial with a reason', (q) => q.answer({ deny: 'that is not true' } as never), 'declined this write to /memories/notes/a.md: that is not true.'],
    ['a throwing hook', (q) => q.fail(new Error('review window closed')), 'declined this write to /memories/notes/a.md: review window closed.'],
    ['garbage', (q) => q.answer({ allow: true } as never), 'The person declined this write to /memories/notes/a.md. Nothing'],
    ['a mistyped allow', (q) => q.answer('Allow' as never), 'The person declined this write to /memories/notes/a.md. Nothing'],
  ];

  it.each(DENIALS)('on %s leaves every store unchanged and tells Claude the person declined', async (_, answer, says) => {
    const asked = questions();
    const { tool } = await seeded(asked.approve);
    const before = await dumpStores(tool.dbName);
    const running = tool.run({ command: 'str_replace', path: '/memories/notes/a.md', old_str: 'two', new_str: 'TWO' });
    answer(await asked.nth(0));
    const result: MemoryToolResult = await running;
    expect(result.is_error).toBe(true);
    expect(result.code).toBe('declined');
    expect(result.content.startsWith('Error: ')).toBe(true);
    expect(result.content).toContain(says);
    expect(await dumpStores(tool.dbName)).toBe(before);
  });

  it('refuses a write when a hook throws at once, and cuts a long reason', async () => {
    const { tool } = await seeded(() => {
      throw new Error('x'.repeat(100_000));
    });
    const before = await dumpStores(tool.dbName);
    const result = await tool.run({ command: 'create', path: '/memories/c.md', file_text: 'c' });
    expect(result.code).toBe('declined');
    expect(result.content.length).toBeLessThan(800);
    expect(await dumpStores(tool.dbName)).toBe(before);
  });

  it("does not ask for the person's writes, nor for a command refused by its own checks", async () => {
    const asked = questions();
    const { tool } = await seeded(asked.approve);
    const mine = await tool.run({ command: 'create', path: '/memories/mine.md', file_text: 'mine' }, { actor: 'user' });
    expect(mine.is_error).toBe(false);
    const refused = await tool.run({ command: 'str_replace', path: '/memories/notes/a.md', old_str: 'absent', new_str: 'x' });
    expect(refused.code).toBe('no_match');
    expect(await tool.view({ command: 'view', path: '/memories/mine.md' })).toContain('mine');
    expect(asked.asked).toHaveLength(0);
  });

  it('shows the text beforeWrite stores, which runs first', async () => {
    const asked = questions();
    const tool = await open({ approve: asked.approve, beforeWrite: (write) => write.content.toUpperCase() });
    const running = tool.run({ command: 'create', path: '/memories/a.md', file_text: 'quiet' });
    const question = await asked.nth(0);
    expect(question.proposal.after).toBe('QUIET');
    question.answer('allow');
    expect((await running).is_error).toBe(false);
    expect(await tool.view({ command: 'view', path: '/memories/a.md' })).toContain('QUIET');
  });

  it('withdraws an open question when its signal aborts: nothing stored, Claude told', async () => {
    const asked = questions();
    const { tool } = await seeded(asked.approve);
    const before = await dumpStores(tool.dbName);
    const stop = new AbortController();
    const running = tool.run({ command: 'create', path: '/memories/c.md', file_text: 'c' }, { signal: stop.signal });
    const question = await asked.nth(0);
    stop.abort();
    const result = await running;
    expect(result.code).toBe('withdrawn');
    expect(result.content).toContain('withdrawn before the person answered');
    question.answer('allow'); // too late: it changes nothing
    await tool.list();
    expect(await dumpStores(tool.dbName)).toBe(before);
    const already = await tool.run({ command: 'create', path: '/memories/d.md', file_text: 'd' }, { signal: stop.signal });
    expect(already.code).toBe('withdrawn');
    expect(asked.asked).toHaveLength(1);
  });

  it('keeps the source of each write in its history entry', async () => {
    const tool = await open({ approve: () => 'allow' });
    await tool.run({ command: 'create', path: '/memories/a.md', file_text: 'a' }, { source: 'conversation-7' });
    await tool.run({ command: 'create', path: '/memories/b.md', file_text: 'b' }, { actor: 'user', source: 's'.repeat(1000) });
    await tool.run({ command: 'create', path: '/memories/c.md', file_text: 'c' });
    const [c, b, a] = await tool.history();
    expect(a?.source).toBe('conversation-7');
    expect(b?.source).toBe('s'.repeat(256));
    expect(c && 'source' in c).toBe(false);
  });
});
