// A search right after a write: the words of a body not indexed yet found from the query's own transaction (only the
// query's terms taken from it), and the search resolving once that transaction has ended.

import { describe, expect, it } from 'vitest';
import { freshDbName, toolsClosedAfterEach } from '../helpers/fresh-tool.js';

const open = toolsClosedAfterEach('search-after-write');

/** The index's watermark and the last body's id, read on a connection of the test's own. */
async function watermark(name: string): Promise<{ through: number; last: number }> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(name);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('cannot open'));
  });
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(['searchState', 'bodies'], 'readonly');
      const state = tx.objectStore('searchState').get('state');
      const last = tx.objectStore('bodies').openKeyCursor(null, 'prev');
      tx.oncomplete = () => {
        const kept = state.result as { indexedThrough?: number } | undefined;
        resolve({ through: kept?.indexedThrough ?? 0, last: Number(last.result?.key ?? 0) });
      };
      tx.onabort = () => reject(tx.error ?? new Error('cannot read the index state'));
    });
  } finally {
    db.close();
  }
}

const paths = (result: { hits: Array<{ path: string }> }) => result.hits.map((hit) => hit.path);

describe('a search right after a write', () => {
  it('finds the new file by a word, a phrase of common words, a longer phrase and a prefix before it is indexed', async () => {
    const name = freshDbName('search-after-write');
    const tool = await open({ dbName: name });
    await tool.create({ command: 'create', path: '/memories/old.md', file_text: 'the garden of roses\nother notes' });
    const queries: Array<[string, boolean]> = [
      ['marmalade', false],
      // `"other of"` is a biword (two common words): a term of its own, not one of the query's words.
      ['"other of"', false],
      ['"one of the best"', false],
      ['marm', true],
      ['roses marmalade', false],
    ];
    for (const [k, [query, prefix]] of queries.entries()) {
      // Drained and in step: the next search skips its catch-up and cuts the new body in its own transaction.
      await tool.search('garden');
      const path = `/memories/new-${k}.md`;
      await tool.create({ command: 'create', path, file_text: 'one of the best\nthe other of them wrote\nmarmalade recipes' });
      const found = await tool.search(query, prefix ? { prefix: true } : {});
      const state = await watermark(name);
      expect(state.through, query).toBeLessThan(state.last);
      expect(paths(found), query).toContain(path);
      expect(found.total, query).toBe(k + 1 + (query === 'roses marmalade' ? 1 : 0));
    }
  });

  it('resolves only once its transaction has ended, so a write called next does not queue behind it', async () => {
    const tool = await open();
    await tool.create({ command: 'create', path: '/memories/a.md', file_text: 'green tea' });
    await tool.search('green');
    await tool.create({ command: 'create', path: '/memories/b.md', file_text: 'green leaves' });
    const proto = IDBDatabase.prototype;
    const transaction = proto.transaction;
    const open_: IDBTransaction[] = [];
    proto.transaction = function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
      const tx = transaction.apply(this, args);
      open_.push(tx);
      const ended = () => open_.splice(open_.indexOf(tx), 1);
      tx.addEventListener('complete', ended);
      tx.addEventListener('abort', ended);
      return tx;
    };
    try {
      expect((await tool.search('green')).total).toBe(2);
      expect(open_).toEqual([]);
    } finally {
      proto.transaction = transaction;
    }
  });
});
