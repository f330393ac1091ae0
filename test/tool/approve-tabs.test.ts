// Another tab (a second tool on the same database) changes a file while Claude's write to it waits for the person:
// the answer applies to what was shown, never over what changed. Re-asked once with the new texts; refused after that.

import { describe, expect, it } from 'vitest';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { questions } from './approve-questions.js';

const open = toolsClosedAfterEach('approve-tabs');

async function twoTabs() {
  const asked = questions();
  const claude = await open({ approve: asked.approve });
  const other = await open({ dbName: claude.dbName });
  await other.create({ command: 'create', path: '/memories/a.md', file_text: 'one\ntwo\n' });
  return { asked, claude, other };
}

const read = async (tool: { view(c: { command: 'view'; path: string }): Promise<string> }, path: string) =>
  (await tool.view({ command: 'view', path })).split('\n').slice(1).map((line) => line.slice(7)).join('\n');

describe('approve, with another tab writing', () => {
  it("asks again with the other tab's text, and stores both changes once allowed", async () => {
    const { asked, claude, other } = await twoTabs();
    const running = claude.run({ command: 'str_replace', path: '/memories/a.md', old_str: 'two', new_str: 'TWO' });
    const first = await asked.nth(0);
    expect(first.proposal.after).toBe('one\nTWO\n');
    await other.insert({ command: 'insert', path: '/memories/a.md', insert_line: 0, insert_text: 'zero' });
    first.answer('allow');
    const second = await asked.nth(1);
    expect(second.proposal.before).toBe('zero\none\ntwo\n');
    expect(second.proposal.after).toBe('zero\none\nTWO\n');
    second.answer('allow');
    expect((await running).is_error).toBe(false);
    expect(await read(other, '/memories/a.md')).toBe('zero\none\nTWO\n');
  });

  it('stores nothing when the person denies the second question; the other tab keeps its change', async () => {
    const { asked, claude, other } = await twoTabs();
    const running = claude.run({ command: 'create', path: '/memories/a.md', file_text: 'replaced\n' });
    const first = await asked.nth(0);
    await other.create({ command: 'create', path: '/memories/a.md', file_text: 'theirs\n' });
    first.answer('allow');
    (await asked.nth(1)).answer({ deny: 'they wrote it meanwhile' });
    const result = await running;
    expect(result.code).toBe('declined');
    expect(await read(other, '/memories/a.md')).toBe('theirs\n');
  });

  it('refuses with a clear reply when the file changes again during the second question', async () => {
    const { asked, claude, other } = await twoTabs();
    const running = claude.run({ command: 'delete', path: '/memories/a.md' });
    const first = await asked.nth(0);
    await other.insert({ command: 'insert', path: '/memories/a.md', insert_line: 0, insert_text: 'first' });
    first.answer('allow');
    const second = await asked.nth(1);
    await other.insert({ command: 'insert', path: '/memories/a.md', insert_line: 0, insert_text: 'second' });
    second.answer('allow');
    const result = await running;
    expect(result.is_error).toBe(true);
    expect(result.code).toBe('conflict');
    expect(result.content).toContain('it changed while the person was reviewing this write');
    expect(await read(other, '/memories/a.md')).toBe('second\nfirst\none\ntwo\n');
    expect(asked.asked).toHaveLength(2);
  });

  it('asks again for the second of two open writes of one turn to a file, once the first is stored: both kept', async () => {
    const { asked, claude, other } = await twoTabs();
    const first = claude.run({ command: 'str_replace', path: '/memories/a.md', old_str: 'one', new_str: 'ONE' });
    const second = claude.run({ command: 'str_replace', path: '/memories/a.md', old_str: 'two', new_str: 'TWO' });
    const [q1, q2] = [await asked.nth(0), await asked.nth(1)];
    expect([q1.proposal.after, q2.proposal.after].sort()).toEqual(['ONE\ntwo\n', 'one\nTWO\n']);
    q2.answer('allow');
    q1.answer('allow');
    const again = await asked.nth(2);
    expect(again.proposal.before).not.toBe('one\ntwo\n');
    again.answer('allow');
    expect((await first).is_error).toBe(false);
    expect((await second).is_error).toBe(false);
    expect(await read(other, '/memories/a.md')).toBe('ONE\nTWO\n');
  });

  it('does not ask again when the other tab changed another file', async () => {
    const { asked, claude, other } = await twoTabs();
    const running = claude.run({ command: 'str_replace', path: '/memories/a.md', old_str: 'one', new_str: 'ONE' });
    const first = await asked.nth(0);
    await other.create({ command: 'create', path: '/memories/b.md', file_text: 'b' });
    first.answer('allow');
    expect((await running).is_error).toBe(false);
    expect(asked.asked).toHaveLength(1);
    expect(await read(other, '/memories/a.md')).toBe('ONE\ntwo\n');
    expect(await read(other, '/memories/b.md')).toBe('b');
  });

  it('refuses, once allowed, a write the other tab made impossible, with the usual refusal', async () => {
    const { asked, claude, other } = await twoTabs();
    const running = claude.run({ command: 'str_replace', path: '/memories/a.md', old_str: 'two', new_str: 'TWO' });
    const first = await asked.nth(0);
    await other.delete({ command: 'delete', path: '/memories/a.md' });
    first.answer('allow');
    const result = await running;
    expect(result.code).toBe('not_found');
    expect(asked.asked).toHaveLength(1);
  });
});
