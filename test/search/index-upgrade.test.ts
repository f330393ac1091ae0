import { describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import { totalsRecord } from '../../src/storage/schema.js';
import { upgradeMemoryDb } from '../../src/storage/upgrade.js';
import type { MemorySchema } from '../../src/storage/schema.js';
import { freshDbName, toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { INDEX_FORMAT } from '../../src/search/index-stores.js';
import { defaultTokenizer } from '../../src/search/tokens.js';
import { internalsOf } from '../../src/tool/internals.js';
import { expectAgrees, indexCounts, indexIdle, tuneIndex } from '../helpers/index-oracle.js';

const open = toolsClosedAfterEach('index-upgrade');

/** A memory as version 6 made it: `count` files in `/memories`, and the totals record. */
async function version6(count: number): Promise<string> {
  const name = freshDbName('index-upgrade');
  const db = await openDB<MemorySchema>(name, 6, {
    upgrade: (raw, oldVersion, newVersion, tx) => upgradeMemoryDb(raw, oldVersion, newVersion, tx),
  });
  try {
    expect([...db.objectStoreNames].sort()).toEqual(['bodies', 'entries', 'journal', 'sync']);
    const tx = db.transaction(['entries', 'bodies', 'journal'], 'readwrite');
    let bytes = 0;
    for (let i = 1; i <= count; i++) {
      const text = `note ${i}: green tea ${i % 3 === 0 ? 'and a café crème' : 'only'}\nline two of note ${i}`;
      const size = new TextEncoder().encode(text).length;
      bytes += size;
      void tx.objectStore('bodies').put(text, i);
      void tx.objectStore('entries').put({
        path: `/memories/n${i}.md`, parent: '/memories', kind: 'file', size, bodyId: i, createdAt: i, updatedAt: i,
      });
    }
    const totals = { seq: 1, bytes, files: count, nextBody: count + 1, journalBytes: 0, journalEntries: 0 };
    void tx.objectStore('journal').add(totalsRecord(totals));
    await tx.done;
  } finally {
    db.close();
  }
  return name;
}

describe('the search index on a memory made before it', () => {
  it('answers correctly while the upgraded memory is indexed behind it, and from the index once it is', async () => {
    const dbName = await version6(40);
    const tool = await open({ dbName });
    // A backlog above a few bodies is indexed in the background, a chunk a transaction.
    tuneIndex(tool, { syncBacklog: 4, chunkBodies: 3 });
    expect(await indexCounts(tool)).toEqual({ searchDocs: 0, searchDelta: 0, searchTerms: 0 });
    await expectAgrees(tool, 'cafe creme');
    // A write and another search while it runs.
    await tool.create({ command: 'create', path: '/memories/new.md', file_text: 'green tea, freshly written' });
    await expectAgrees(tool, 'green tea');
    await expectAgrees(tool, '"line two"', { limit: 5 });
    await indexIdle(tool);
    expect((await indexCounts(tool)).searchDocs).toBe(41);
    await expectAgrees(tool, 'green tea');
    await expectAgrees(tool, 'note', { prefix: true, limit: 50 });
    expect((await tool.search('freshly')).hits.map((hit) => hit.path)).toEqual(['/memories/new.md']);
  });
});

describe('a search index of an older format', () => {
  it('is emptied and built again, answering correctly from the files meanwhile', async () => {
    const tool = await open();
    for (let i = 0; i < 12; i++) {
      await tool.create({ command: 'create', path: `/memories/n${i}.md`, file_text: `of of of the green tea ${i}\nnote ${i}` });
    }
    await expectAgrees(tool, '"of of"');
    await indexIdle(tool);
    // What the format before positions stored: counts packed as `[bodyId, count]` pairs, its own tokenizer id.
    const { store } = internalsOf(tool);
    await store.run(
      'readwrite',
      async (tx) => {
        const state = await tx.objectStore('searchState').get('state');
        const terms = tx.objectStore('searchTerms');
        const words = await terms.getAllKeys();
        await Promise.all(words.map((word) => terms.put(new Uint32Array([1, 99]), word)));
        await tx.objectStore('searchState').put({ tokenizer: defaultTokenizer().id, indexedThrough: state?.indexedThrough ?? 0 }, 'state');
      },
      ['searchState', 'searchTerms'],
    );
    tuneIndex(tool, { syncBacklog: 4, chunkBodies: 3 });
    await expectAgrees(tool, '"of of"');
    await expectAgrees(tool, 'green te', { prefix: true });
    await indexIdle(tool);
    const rebuilt = await store.run('readonly', (tx) => tx.objectStore('searchState').get('state'), ['searchState']);
    expect(rebuilt?.tokenizer).toBe(`${defaultTokenizer().id}/${INDEX_FORMAT}`);
    expect((await indexCounts(tool)).searchDocs).toBe(12);
    await expectAgrees(tool, '"of of"');
    expect((await tool.search('"of of"')).total).toBe(12);
    await expectAgrees(tool, '"tea 3"');
  });
});
