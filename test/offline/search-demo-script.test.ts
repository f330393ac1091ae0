// The Offline demo's "find one fact by searching": among 300 journal files, Claude searches, views the exact lines
// the search pointed to, and answers; played as the demo plays it.

import { describe, expect, it } from 'vitest';
import type { MemoryAgentEvent } from '../../src/entries/agent.js';
import { OFFLINE_SCRIPTS } from '../../demo/offline-scripts/index.js';
import { offlineAgent, playConversations } from '../../demo/offline-scripts/play.js';
import { JOURNAL, JOURNAL_DAYS, WINE_DAY, WINE_LINE } from '../../demo/offline-scripts/find-by-search.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';

const open = toolsClosedAfterEach('search-demo-script');

describe('the Offline demo’s search script', () => {
  it('writes 300 files, then Claude finds the one fact by memory_search and views its exact range', { timeout: 300_000 }, async () => {
    const tool = await open();
    const script = OFFLINE_SCRIPTS.find((each) => each.id === 'find-by-search');
    if (!script) throw new Error('the search script is not in the picker');
    const play = async () => {
      const events: MemoryAgentEvent[] = [];
      const { agent, claude } = offlineAgent(script, tool, (event) => events.push(event));
      const done = await playConversations(script, agent, async (text) => (await agent.send(text)).outcome === 'done', () => undefined);
      return { done, events, claude };
    };
    const { done, events, claude } = await play();
    expect(done).toBe(true);
    expect((await tool.list(JOURNAL)).filter((entry) => entry.kind === 'file')).toHaveLength(JOURNAL_DAYS);
    expect((claude.requests[0]?.tools as Array<{ name: string }>).map((each) => each.name)).toEqual(['memory', 'memory_search']);
    const calls = events.filter((event) => event.type === 'tool_call');
    expect(calls.map((call) => call.name)).toEqual(['memory_search', 'memory']);
    const results = events.filter((event) => event.type === 'tool_result');
    expect(results.map((result) => result.is_error)).toEqual([false, false]);
    expect(results[0]?.content).toEqual([expect.objectContaining({ type: 'search_result', source: `${WINE_DAY}#L3-L5`, title: WINE_DAY })]);
    // The view asks for the range the search gave, and shows the line the answer comes from.
    expect(calls[1]?.input).toEqual({ command: 'view', path: WINE_DAY, view_range: [3, 5] });
    expect(results[1]?.content).toContain(`     4\t${WINE_LINE}`);
    // A second play finds the journal there and writes nothing more.
    const again = await play();
    expect(again.done).toBe(true);
    expect(again.events.filter((event) => event.type === 'tool_result' && event.is_error)).toEqual([]);
  });
});
