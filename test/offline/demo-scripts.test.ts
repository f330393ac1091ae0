// The Offline demo's scripts, played as the demo plays them (the real SDK runner, the scripted Claude, a real tool):
// every memory command succeeds, and the long ones show what they are for.

import { beforeEach, describe, expect, it } from 'vitest';
import { IndexedDBMemoryTool } from '../../src/index.js';
import { MULTI_SESSION_PROMPT } from '../../src/entries/agent.js';
import type { MemoryAgentEvent } from '../../src/entries/agent.js';
import { SCRIPT_FINISHED_TEXT } from '../../src/entries/offline.js';
import { OFFLINE_SCRIPTS } from '../../demo/offline-scripts/index.js';
import type { OfflineScript } from '../../demo/offline-scripts/index.js';
import { offlineAgent, playConversations } from '../../demo/offline-scripts/play.js';
import { CHECKLIST, PROGRESS } from '../../demo/offline-scripts/hiking-plan.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';

let tool: IndexedDBMemoryTool;
const open = toolsClosedAfterEach('offline-scripts');
beforeEach(async () => {
  tool = await open();
});

function script(id: string): OfflineScript {
  const found = OFFLINE_SCRIPTS.find((each) => each.id === id);
  if (!found) throw new Error(`no script ${id}`);
  return found;
}

async function play(played: OfflineScript) {
  const events: MemoryAgentEvent[] = [];
  const { agent, claude } = offlineAgent(played, tool, (event) => events.push(event));
  const conversations: number[] = [];
  const done = await playConversations(
    played,
    agent,
    async (text) => (await agent.send(text)).outcome === 'done',
    () => conversations.push(claude.requests.length),
  );
  return { done, events, agent, claude, newConversationAt: conversations };
}

describe('the Offline demo’s scripts', () => {
  for (const played of OFFLINE_SCRIPTS) {
    it(`plays “${played.label}” to its end, every memory command succeeding`, async () => {
      const { done, events, claude } = await play(played);
      expect(done).toBe(true);
      const results = events.filter((event) => event.type === 'tool_result');
      expect(results.length).toBeGreaterThan(0);
      expect(results.filter((event) => event.is_error)).toEqual([]);
      // Claude's side ends with the last conversation, not with turns left over or missing.
      expect(claude.requests.length).toBe(played.turns().length);
      expect(events.some((event) => event.type === 'text' && event.delta.includes(SCRIPT_FINISHED_TEXT))).toBe(false);
    });
  }

  it('plays the multi-session pattern over two conversations: the second reads the log first, then adds to it', async () => {
    const { claude, newConversationAt } = await play(script('two-sessions'));
    expect(claude.requests.every((request) => request.system === MULTI_SESSION_PROMPT)).toBe(true);
    // The second conversation starts with nothing but its own message: what it knows comes from /memories.
    const [second] = newConversationAt;
    expect(claude.requests[second ?? -1]?.messages).toEqual([{ role: 'user', content: 'Let’s go on with the hiking plan.' }]);
    const checklist = await tool.view({ command: 'view', path: CHECKLIST });
    expect(checklist).toMatch(/- \[x\] Route[^]*- \[x\] Gear[^]*- \[ \] Food[^]*- \[ \] Budget/);
    const progress = await tool.view({ command: 'view', path: PROGRESS });
    expect(progress).toMatch(/Task: plan a week of hiking[^]*Session 1: chose the route[^]*Session 2: gear listed/);
  });

  it('shows context cleared, then compacted, in one long conversation that goes on from the summary', async () => {
    const { events, claude, agent } = await play(script('long-task'));
    const kinds = events.map((event) => event.type);
    expect(kinds.indexOf('context_cleared')).toBeGreaterThan(0);
    expect(kinds.indexOf('compacted')).toBeGreaterThan(kinds.indexOf('context_cleared'));
    expect(events.find((event) => event.type === 'compacted')).toMatchObject({ trigger: 'auto', replacedMessages: 9 });
    expect(claude.requests[0]?.context_management).toEqual({
      edits: [
        { type: 'clear_tool_uses_20250919', keep: { type: 'tool_uses', value: 3 } },
        { type: 'compact_20260112', trigger: { type: 'input_tokens', value: 50_000 } },
      ],
    });
    // The conversation kept starts at the summary.
    expect(agent.messages[0]?.content).toEqual([expect.objectContaining({ type: 'compaction' }), expect.anything(), expect.anything()]);
    expect(await tool.view({ command: 'view', path: CHECKLIST })).not.toContain('- [ ]');
  });
});
