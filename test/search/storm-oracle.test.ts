// The oracle the search storms are held to (helpers/search-oracle.ts), checked on its own against answers worked out
// by hand from the documented rules, and against tool.search on the same files.

import { describe, expect, it } from 'vitest';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { comparable, oracleClauses, oracleFold, oracleSearch } from '../helpers/search-oracle.js';

const open = toolsClosedAfterEach('search-oracle');

const FILES = new Map([
  ['/memories/a.md', 'green tea is fine'],
  ['/memories/b.md', 'green green green'],
  ['/memories/c.md', 'black coffee'],
  ['/memories/.x.md', 'tea'],
]);

describe('the search oracle', () => {
  it('folds case, accents of Latin, Greek and Cyrillic letters, and compatibility forms', () => {
    expect(['Café', 'CRÈME', 'Zoë', 'ﬁle', 'καφές', 'ёлка', 'useMemoryTree'].map(oracleFold)).toEqual([
      'cafe', 'creme', 'zoe', 'file', 'καφες', 'елка', 'usememorytree',
    ]);
  });

  it('cuts a query into words and quoted phrases, a hyphenated word being a phrase, twins dropped', () => {
    expect(oracleClauses('Tea "green  tea" idb-memory tea "open')).toEqual([
      { terms: ['tea'], prefix: false },
      { terms: ['green', 'tea'], prefix: false },
      { terms: ['idb', 'memory'], prefix: false },
      { terms: ['open'], prefix: false },
    ]);
    expect(oracleClauses('green te', true).at(-1)).toEqual({ terms: ['te'], prefix: true });
    expect(oracleClauses('green te ', true).at(-1)).toEqual({ terms: ['te'], prefix: false });
  });

  it('ranks by clauses held, then BM25 over every file (hidden ones counted, not shown), lengths in UTF-8 bytes', () => {
    const mean = (17 + 17 + 12 + 3) / 4;
    const idf = Math.log(1 + (4 - 2 + 0.5) / (2 + 0.5));
    const part = (tf: number, size: number) => (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * size) / mean));
    const result = oracleSearch(FILES, 'green tea');
    expect(result).toEqual({
      total: 2,
      clauses: 2,
      hits: [
        { path: '/memories/a.md', matched: 2, score: part(1, 17) * 2, lines: [1] },
        { path: '/memories/b.md', matched: 1, score: part(3, 17), lines: [1] },
      ],
    });
  });

  it('answers as tool.search does on the same files', async () => {
    const tool = await open();
    const files = new Map([
      ...FILES,
      ['/memories/notes/prefs.md', '# Prefs\nDrinks a Café Crème\nnothing\nZoë and green tea, green'],
      ['/memories/node_modules/n.md', 'green tea'],
    ]);
    for (const [path, file_text] of files) await tool.execute({ command: 'create', path, file_text }, { actor: 'user' });
    for (const [query, options] of [
      ['green tea', {}],
      ['"green tea" cafe', {}],
      ['zoe gre', { prefix: true }],
      ['green', { path: '/memories/notes', limit: 1 }],
    ] as const) {
      expect(comparable(await tool.search(query, options))).toEqual(comparable(oracleSearch(files, query, options)));
    }
  });
});
