import { describe, expect, it } from 'vitest';
import { byRank } from '../../src/search/matching.js';
import { TopHits } from '../../src/search/top-hits.js';
import { seededRandom } from '../helpers/seeded-random.js';

type Hit = { path: string; score: number; matched: number };

describe('TopHits', () => {
  it('keeps the same best hits, in the same order, as sorting every hit and cutting at the limit', () => {
    // Seeds 1..200: a failing one is replayed by putting it alone in the loop.
    for (let seed = 1; seed <= 200; seed++) {
      const random = seededRandom(seed);
      const count = Math.floor(random() * 300);
      const limit = 1 + Math.floor(random() * 40);
      // Few distinct scores and match counts, so ties are settled by path as byRank settles them.
      const hits: Hit[] = Array.from({ length: count }, (_, i) => ({
        path: `/memories/f${Math.floor(random() * 1e6)}-${i}.md`,
        score: Math.floor(random() * 5) / 2,
        matched: 1 + Math.floor(random() * 3),
      }));
      const top = new TopHits<Hit>(limit);
      for (const hit of hits) top.add(hit);
      expect({ seed, best: top.best }).toEqual({ seed, best: [...hits].sort(byRank).slice(0, limit) });
      expect(top.seen).toBe(count);
    }
  });

  it('keeps nothing beyond a limit of one but the single best hit', () => {
    const top = new TopHits<Hit>(1);
    top.add({ path: '/memories/b.md', score: 1, matched: 1 });
    top.add({ path: '/memories/a.md', score: 1, matched: 1 });
    top.add({ path: '/memories/c.md', score: 9, matched: 1 });
    top.add({ path: '/memories/d.md', score: 0, matched: 2 });
    expect(top.best).toEqual([{ path: '/memories/d.md', score: 0, matched: 2 }]);
    expect(top.seen).toBe(4);
  });
});
