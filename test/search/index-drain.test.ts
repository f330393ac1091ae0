import { describe, expect, it, vi } from 'vitest';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { expectAgrees, indexCounts, indexIdle, tuneIndex } from '../helpers/index-oracle.js';
import { internalsOf } from '../../src/tool/internals.js';

const open = toolsClosedAfterEach('index-drain');

const note = (i: number) => `note ${i} about green tea\n${i % 2 ? 'black coffee' : 'a café crème'} number n${i}`;

describe('the search index drain', () => {
  it('leaves index and files in agreement when the page closes while it indexes', async () => {
    const first = await open();
    for (let i = 0; i < 30; i++) await first.create({ command: 'create', path: `/memories/n${i}.md`, file_text: note(i) });
    tuneIndex(first, { syncBacklog: 2, chunkBodies: 2 });
    // Starts indexing behind the answer; the tool closes in the middle of it.
    await first.search('tea');
    first.close();
    await indexIdle(first);
    const second = await open({ dbName: first.dbName });
    const counts = await indexCounts(second);
    expect(counts.searchDocs).toBeLessThan(30);
    await second.create({ command: 'create', path: '/memories/late.md', file_text: 'late green tea' });
    await expectAgrees(second, 'green tea');
    await expectAgrees(second, 'cafe', { prefix: true });
    expect((await indexCounts(second)).searchDocs).toBe(31);
  });

  it('answers in one transaction when nothing changed since the last search, yet sees another tab at once', async () => {
    const tool = await open();
    for (let i = 0; i < 6; i++) await tool.create({ command: 'create', path: `/memories/n${i}.md`, file_text: note(i) });
    await expectAgrees(tool, 'green tea');
    const runs = vi.spyOn(internalsOf(tool).store, 'run');
    await tool.search('coffee');
    expect(runs).toHaveBeenCalledTimes(1);
    const other = await open({ dbName: tool.dbName });
    await other.create({ command: 'create', path: '/memories/other.md', file_text: 'another tab drinks green tea' });
    // Cut in the query's own transaction (no catch-up before it): found, not yet indexed.
    const seen = await expectAgrees(tool, '"green tea"');
    expect(seen.hits.map((hit) => hit.path)).toContain('/memories/other.md');
    expect((await indexCounts(tool)).searchDocs).toBe(6);
    // The next search drains it, and the one after that again reads nothing but the query's records.
    await expectAgrees(tool, 'drinks');
    expect((await indexCounts(tool)).searchDocs).toBe(7);
    runs.mockClear();
    await tool.search('drinks');
    expect(runs).toHaveBeenCalledTimes(1);
    runs.mockRestore();
  });

  it('lets an aborted search change nothing a later search can see', async () => {
    const tool = await open();
    for (let i = 0; i < 12; i++) await tool.create({ command: 'create', path: `/memories/n${i}.md`, file_text: note(i) });
    tuneIndex(tool, { chunkBodies: 2 });
    const controller = new AbortController();
    const aborted = tool.search('coffee', { signal: controller.signal });
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    await expectAgrees(tool, 'coffee');
    await expectAgrees(tool, '"green tea"');
  });

  it('merges the delta into the main postings once it passes the threshold, and answers the same', async () => {
    const tool = await open();
    tuneIndex(tool, { mergeThreshold: 20, mergeRows: 6 });
    for (let i = 0; i < 8; i++) {
      await tool.create({ command: 'create', path: `/memories/n${i}.md`, file_text: note(i) });
      // Each search drains one small body: its postings go to the delta.
      await expectAgrees(tool, 'tea');
    }
    const counts = await indexCounts(tool);
    expect(counts.searchDelta).toBeLessThanOrEqual(20);
    expect(counts.searchTerms).toBeGreaterThan(0);
    await expectAgrees(tool, 'n3 coffee');
    await expectAgrees(tool, 'n', { prefix: true });
  });

  it('indexes a 1 MB file and a file of 10,000 distinct words and finds them as reading does', async () => {
    const tool = await open({ limits: { maxFileBytes: 2_000_000 } });
    tuneIndex(tool, { chunkChars: 500_000 });
    const line = 'the quick brown fox jumps over the lazy dog near the riverbank\n';
    await tool.create({ command: 'create', path: '/memories/big.md', file_text: line.repeat(Math.ceil(1_000_000 / line.length)) + 'needle' });
    const words = Array.from({ length: 10_000 }, (_, i) => `w${i.toString(36)}x`);
    await tool.create({ command: 'create', path: '/memories/words.md', file_text: words.join(' ') });
    await tool.create({ command: 'create', path: '/memories/small.md', file_text: 'a small fox' });
    await expectAgrees(tool, 'needle fox');
    await expectAgrees(tool, 'w7psx w1x');
    await expectAgrees(tool, 'w7p', { prefix: true });
    expect((await indexCounts(tool)).searchDocs).toBe(3);
  });

  it('answers the same after compactStorage, which leaves the index to be built again', async () => {
    const tool = await open();
    for (let i = 0; i < 6; i++) await tool.create({ command: 'create', path: `/memories/n${i}.md`, file_text: note(i) });
    await tool.search('tea');
    await tool.delete({ command: 'delete', path: '/memories/n1.md' });
    await tool.compactStorage();
    await expectAgrees(tool, 'coffee');
    await tool.create({ command: 'create', path: '/memories/after.md', file_text: 'coffee after' });
    await expectAgrees(tool, 'coffee');
    expect((await indexCounts(tool)).searchDocs).toBeGreaterThan(0);
  });
});
