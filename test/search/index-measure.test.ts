import { it } from 'vitest';
import { openDB } from 'idb';
import { DB_VERSION, upgradeMemoryDb, totalsRecord } from '../../src/storage/schema.js';
import type { MemorySchema } from '../../src/storage/schema.js';
import { IndexedDBMemoryTool } from '../../src/index.js';
import { freshDbName } from '../helpers/fresh-tool.js';
import { indexIdle } from '../helpers/index-oracle.js';
import { seededRandom } from '../helpers/seeded-random.js';
import { internalsOf } from '../../src/tool/internals.js';

it('measures', { timeout: 1_200_000 }, async () => {
  const random = seededRandom(7);
  const syll = ['ka', 'to', 'ri', 'men', 'sol', 'ar', 'ven', 'li', 'qu', 'ost', 'el', 'un', 'bra', 'dor', 'ix', 'pe'];
  const vocab = Array.from({ length: 20000 }, (_, i) => {
    let w = '';
    let n = i + 1;
    while (n > 0) { w += syll[n % 16]; n = Math.floor(n / 16); }
    return w;
  });
  const zipf = () => vocab[Math.min(vocab.length - 1, Math.floor(Math.exp(random() * Math.log(vocab.length)) - 1))] ?? 'x';
  const name = freshDbName('index-measure');
  const db = await openDB<MemorySchema>(name, DB_VERSION, { upgrade: upgradeMemoryDb });
  const N = 10000;
  let bytes = 0;
  let chars = 0;
  for (let start = 1; start <= N; start += 1000) {
    const tx = db.transaction(['entries', 'bodies'], 'readwrite');
    for (let i = start; i < start + 1000; i++) {
      const lines: string[] = [];
      let len = 0;
      while (len < 3000) {
        const words = Array.from({ length: 12 }, zipf);
        const line = words.join(' ') + '.';
        lines.push(line);
        len += line.length + 1;
      }
      const text = lines.join('\n');
      const size = new TextEncoder().encode(text).length;
      bytes += size; chars += text.length;
      void tx.objectStore('bodies').put(text, i);
      void tx.objectStore('entries').put({ path: `/memories/d${Math.floor(i / 100)}/n${i}.md`, parent: `/memories/d${Math.floor(i / 100)}`, kind: 'file', size, bodyId: i, createdAt: i, updatedAt: i });
    }
    await tx.done;
  }
  const tx = db.transaction(['entries', 'journal'], 'readwrite');
  for (let d = 0; d <= N / 100; d++) void tx.objectStore('entries').put({ path: `/memories/d${d}`, parent: '/memories', kind: 'folder', size: 0, createdAt: 0, updatedAt: 0 });
  void tx.objectStore('journal').add(totalsRecord({ seq: 1, bytes, files: N, nextBody: N + 1, journalBytes: 0, journalEntries: 0 }));
  await tx.done;
  db.close();
  const tool = await IndexedDBMemoryTool.init({ dbName: name });
  let t = performance.now();
  await tool.search('ka');
  const scanMs = performance.now() - t;
  t = performance.now();
  await indexIdle(tool);
  const indexMs = performance.now() - t;
  const queries = [vocab[0], vocab[5], vocab[50], vocab[500], vocab[5000], `${vocab[3]} ${vocab[40]}`, `"${vocab[1]} ${vocab[2]}"`, vocab[7]?.slice(0, 3)];
  const times: Record<string, number[]> = {};
  for (let round = 0; round < 12; round++) {
    for (const q of queries) {
      const prefix = q === queries.at(-1);
      const s = performance.now();
      await tool.search(q ?? 'x', { prefix });
      (times[`${q}${prefix ? '*' : ''}`] ??= []).push(performance.now() - s);
    }
  }
  const sizes = await internalsOf(tool).store.run('readonly', async (tx) => {
    const [terms, termKeys, docs, delta] = await Promise.all([tx.objectStore('searchTerms').getAll(), tx.objectStore('searchTerms').getAllKeys(), tx.objectStore('searchDocs').getAll(), tx.objectStore('searchDelta').count()]);
    const termBytes = terms.reduce((s, a) => s + a.byteLength, 0) + termKeys.reduce((s, k) => s + k.length * 2, 0);
    const docBytes = docs.reduce((s, d) => s + d.terms.reduce((x, w) => x + w.length * 2 + 4, 0), 0);
    return { terms: termKeys.length, termBytes, docBytes, delta };
  }, ['searchTerms', 'searchDocs', 'searchDelta']);
  const all = Object.values(times).flatMap((l) => l.slice(2)).sort((a, b) => a - b);
  const report = {
    textMB: bytes / 1e6, chars, scanMs, indexMs, sizes,
    p50: all[Math.floor(all.length * 0.5)], p95: all[Math.floor(all.length * 0.95)], max: all.at(-1),
    perQuery: Object.fromEntries(Object.entries(times).map(([q, l]) => [q, l.slice(2).sort((a, b) => a - b)[5]])),
  };
  console.log('MEASURE', JSON.stringify(report));
  tool.close();
});
