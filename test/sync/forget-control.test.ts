// The record of forgets at a remote's root: what it keeps, what it refuses to read, and that it names no path.

import { describe, expect, it } from 'vitest';
import { KEEP_MS, MAX_FORGETS, formatControl, hashNames, parseControl } from '../../src/sync/forget-control.js';

const NOW = Date.UTC(2026, 11, 5);

describe('the record of forgets', () => {
  it('keeps the forgets of the last 90 days, newest first, at most 500', () => {
    const forgets = Array.from({ length: MAX_FORGETS + 10 }, (_, i) => ({ id: `id${i}`, at: NOW - i * 1000, hash: 'h' }));
    forgets.push({ id: 'old', at: NOW - KEEP_MS - 1, hash: 'h' });
    const kept = parseControl(formatControl({ key: 'k', forgets }, NOW));
    expect(kept?.forgets).toHaveLength(MAX_FORGETS);
    expect(kept?.forgets[0]?.id).toBe('id0');
    expect(kept?.forgets.some((entry) => entry.id === 'old')).toBe(false);
  });

  it('reads nothing from a file that is not one (then it is written anew)', () => {
    for (const text of ['', 'not json', '[]', '{"format":"other","key":"k","forgets":[]}', '{"format":"idb-memory-tool/forgets@1"}']) {
      expect(parseControl(text)).toBeUndefined();
    }
    const odd = parseControl('{"format":"idb-memory-tool/forgets@1","key":"k","forgets":[{"id":1},null,{"id":"a","at":2,"hash":"h"}]}');
    expect(odd?.forgets).toEqual([{ id: 'a', at: 2, hash: 'h' }]);
  });

  it('hashes a path under the record key: another key, another hash, and the path itself is nowhere', async () => {
    const [one, two] = await Promise.all([hashNames('key-one', ['/vault.md']), hashNames('key-two', ['/vault.md'])]);
    expect(one[0]).toMatch(/^[0-9a-f]{64}$/u);
    expect(one[0]).not.toBe(two[0]);
    const text = formatControl({ key: 'key-one', forgets: [{ id: 'a', at: NOW, hash: one[0] ?? '' }] }, NOW);
    expect(text).not.toContain('vault');
  });
});
