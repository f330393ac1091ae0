// A folder listing cut to the reply bound offers memory_search once Claude has it for that tool, and is unchanged
// to the byte when it does not.

import { describe, expect, it } from 'vitest';
import { memorySearchTool } from '../../src/entries/sdk.js';
import type { IndexedDBMemoryTool } from '../../src/tool/tool.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';

const open = toolsClosedAfterEach('search-cut-note');
const MAX = 10_000;

/** A tool whose `/memories` listing is well over the bound: 60 files with long names. */
async function crowded(): Promise<IndexedDBMemoryTool> {
  const tool = await open({ limits: { maxReplyChars: MAX } });
  for (let i = 0; i < 60; i++) {
    await tool.execute({ command: 'create', path: `/memories/${String(i).padStart(3, '0')}-${'n'.repeat(200)}.md`, file_text: 'x' });
  }
  return tool;
}

const lastLine = (text: string): string => text.slice(text.lastIndexOf('\n') + 1);

describe('the cut note of a folder view', () => {
  it('is the same as ever when search is not offered for the tool', async () => {
    const tool = await crowded();
    // Another tool offered search must not change this one's replies.
    memorySearchTool(await open());
    const listing = await tool.execute({ command: 'view', path: '/memories' });
    expect(listing.length).toBeLessThanOrEqual(MAX);
    expect(lastLine(listing)).toMatch(
      /^\[Listing cut at 10000 characters: showing entries 1-\d+ of 60\. Use view_range \[\d+, 60\] on this folder to see the next ones, or view one of its folders\.\]$/,
    );
  });

  it('offers memory_search, within the bound, once memorySearchTool was made for the tool', async () => {
    const tool = await crowded();
    const before = await tool.execute({ command: 'view', path: '/memories' });
    memorySearchTool(tool);
    const after = await tool.execute({ command: 'view', path: '/memories' });
    expect(after.length).toBeLessThanOrEqual(MAX);
    expect(lastLine(after)).toBe(`${lastLine(before).slice(0, -2)}, or search with memory_search.]`);
    // Only the note differs here: its 31 more characters come out of room no entry of this listing would fill.
    expect(after.slice(0, after.lastIndexOf('\n'))).toBe(before.slice(0, before.lastIndexOf('\n')));
  });

  it('leaves a listing that is not cut, and a cut file view, as they were', async () => {
    const tool = await open({ limits: { maxReplyChars: MAX } });
    await tool.execute({ command: 'create', path: '/memories/a.md', file_text: 'line\n'.repeat(5000) });
    const [listing, file] = [await tool.execute({ command: 'view', path: '/memories' }), await tool.execute({ command: 'view', path: '/memories/a.md' })];
    memorySearchTool(tool);
    expect(await tool.execute({ command: 'view', path: '/memories' })).toBe(listing);
    expect(await tool.execute({ command: 'view', path: '/memories/a.md' })).toBe(file);
  });
});
