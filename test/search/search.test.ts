import { describe, expect, it } from 'vitest';
import { isMemoryToolError } from '../../src/index.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';

const open = toolsClosedAfterEach('search');

async function toolWith(files: Record<string, string>) {
  const tool = await open();
  for (const [path, file_text] of Object.entries(files)) {
    await tool.execute({ command: 'create', path, file_text }, { actor: 'user' });
  }
  return tool;
}

const paths = (result: { hits: Array<{ path: string }> }) => result.hits.map((hit) => hit.path);

describe('tool.search', () => {
  it('finds words whatever their case and accents, with the matching lines numbered as view numbers them', async () => {
    const tool = await toolWith({
      '/memories/prefs.md': '# Prefs\nDrinks a Café Crème every morning\nnothing else\nZoë is her sister',
      '/memories/other.md': 'tea only',
    });
    const cafe = await tool.search('cafe creme');
    expect(paths(cafe)).toEqual(['/memories/prefs.md']);
    expect(cafe.total).toBe(1);
    expect(cafe.hits[0]?.lines).toEqual([
      { line: 2, text: 'Drinks a Café Crème every morning', marks: [[9, 13], [14, 19]] },
    ]);
    expect((await tool.search('ZOE')).hits[0]?.lines.map((l) => l.line)).toEqual([4]);
  });

  it('ranks the file holding every word first, then by BM25', async () => {
    const tool = await toolWith({
      '/memories/a.md': 'green tea is fine',
      '/memories/b.md': 'green green green',
      '/memories/c.md': 'black coffee',
    });
    const result = await tool.search('green tea');
    expect(paths(result)).toEqual(['/memories/a.md', '/memories/b.md']);
    expect(result.hits[0]?.matched).toBe(2);
    expect(result.clauses).toBe(2);
    expect(result.total).toBe(2);
  });

  it('matches a quoted phrase only with its words in that order', async () => {
    const tool = await toolWith({
      '/memories/a.md': 'she likes green tea',
      '/memories/b.md': 'tea that is green',
    });
    expect(paths(await tool.search('"green tea"'))).toEqual(['/memories/a.md']);
  });

  it('matches identifiers whole', async () => {
    const tool = await toolWith({
      '/memories/code.md': 'call useMemoryTree(tool) in the component',
      '/memories/words.md': 'use the memory tree',
    });
    expect(paths(await tool.search('useMemoryTree'))).toEqual(['/memories/code.md']);
    expect(paths(await tool.search('memory'))).toEqual(['/memories/words.md']);
  });

  it('cuts Japanese into words: 緑茶 finds 私は緑茶が好きです。', async () => {
    const tool = await toolWith({ '/memories/ja.md': '好きな色は青です。\n私は緑茶が好きです。' });
    const result = await tool.search('緑茶');
    expect(paths(result)).toEqual(['/memories/ja.md']);
    expect(result.hits[0]?.lines).toEqual([{ line: 2, text: '私は緑茶が好きです。', marks: [[2, 4]] }]);
  });

  it('keeps to a folder given as path, and counts every match in total past the limit', async () => {
    const files: Record<string, string> = { '/memories/elsewhere/x.md': 'apple' };
    for (let i = 0; i < 5; i++) files[`/memories/fruit/${i}.md`] = `apple number ${i}`;
    const tool = await toolWith(files);
    const result = await tool.search('apple', { path: '/memories/fruit', limit: 2 });
    expect(result.hits).toHaveLength(2);
    expect(result.total).toBe(5);
    expect(result.hits.every((hit) => hit.path.startsWith('/memories/fruit/'))).toBe(true);
  });

  it('matches the word being typed as a prefix only when asked', async () => {
    const tool = await toolWith({ '/memories/a.md': 'Café au lait' });
    expect((await tool.search('caf')).total).toBe(0);
    expect((await tool.search('caf', { prefix: true })).total).toBe(1);
  });

  it.each([
    ['an empty query', '  ', {}, /empty/],
    ['a query that is not a string', 42, {}, /must be a string/],
    ['a huge query', 'word '.repeat(300), {}, /characters long/],
    ['a limit below 1', 'tea', { limit: 0 }, /limit/],
    ['punctuation only', '?!', {}, /no words/],
  ])('refuses %s with a clear error', async (_, query, options, message) => {
    const tool = await toolWith({ '/memories/a.md': 'tea' });
    const error = await tool.search(query as string, options).catch((e: unknown) => e);
    expect(isMemoryToolError(error) && error.code).toBe('invalid_input');
    expect((error as Error).message).toMatch(message);
  });

  it('refuses a path outside /memories as every command does, and a missing folder as not found', async () => {
    const tool = await toolWith({ '/memories/a.md': 'tea' });
    await expect(tool.search('tea', { path: '/etc' })).rejects.toMatchObject({ code: 'invalid_path' });
    await expect(tool.search('tea', { path: '/memories/../x' })).rejects.toMatchObject({ code: 'invalid_path' });
    await expect(tool.search('tea', { path: '/memories/none' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
