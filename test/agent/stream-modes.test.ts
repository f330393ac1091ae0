// Issue 26's "Done when", through the real SDK runner both ways it runs (`stream: true`, the default, and `stream:
// false`) with the scripted Claude as the server: compactions sent back verbatim, saved conversations restored after
// one, the three edits in one request, the events a page hears, and a turn stopped while compacting.

import { beforeEach, describe, expect, it } from 'vitest';
import { IndexedDBMemoryTool } from '../../src/index.js';
import { createMemoryAgent } from '../../src/entries/agent.js';
import type { MemoryAgentEvent, MemoryAgentOptions } from '../../src/entries/agent.js';
import type { BetaMessageParam } from '../../src/core/sdk-types.js';
import { createScriptedClaude } from '../../src/offline/scripted-claude.js';
import type { ScriptedClaudeOptions, ScriptedStep } from '../../src/offline/scripted-claude.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { eventsOf, kindOf, recordingBodies } from './scripted-agent.js';

let tool: IndexedDBMemoryTool;
const open = toolsClosedAfterEach('agent-stream-modes');
beforeEach(async () => {
  tool = await open();
});

const SUMMARY = 'The user likes green tea. Claude keeps notes in /memories/notes.md.';
const view = { command: 'view', path: '/memories' };
/** What the summarized range did to the tools, as the API reports it: not empty, nested, in its own key order. */
const TOOL_CHANGES = [
  { type: 'tool_removal', tool: { type: 'mcp_tool_reference', server_name: 'docs', name: 'search' } },
  {
    type: 'tool_addition',
    tool: {
      type: 'tool_definition',
      definition: { name: 'calendar', description: 'Dates.', input_schema: { type: 'object', properties: {} } },
    },
  },
];

/** The compaction block the scripted Claude sends for the turn at `index` of its script. */
function block(index: number, toolChanges: unknown[] = []) {
  return {
    type: 'compaction',
    content: SUMMARY,
    encrypted_content: `scripted-opaque-${index}`,
    signature: `scripted-signature-${index}`,
    tool_changes: toolChanges,
  };
}

/** An agent in the mode under test on a scripted Claude, with the raw bodies and every event recorded. */
function bench(stream: boolean, options: Partial<MemoryAgentOptions>, turns: ScriptedStep[], claudeOptions: ScriptedClaudeOptions = {}) {
  const claude = createScriptedClaude(turns, claudeOptions);
  const bodies = recordingBodies(claude.fetch);
  const events: MemoryAgentEvent[] = [];
  const connection = { apiKey: 'sk-ant-test-key', fetch: claudeOptions.delayMs ? claude.fetch : bodies.fetch, maxRetries: 0 };
  const agent = createMemoryAgent({ tool, ...connection, stream, onEvent: (event) => events.push(event), ...options });
  const again = (messages: BetaMessageParam[]) => createMemoryAgent({ tool, ...connection, stream, ...options, messages });
  return { agent, claude, bodies, events, again };
}

describe.each([true, false])('stream: %s', (stream) => {
  it('sends each request streamed or not, as asked', async () => {
    const { agent, claude, bodies } = bench(stream, {}, [{ text: 'Hello!' }]);
    await agent.send('hi');
    expect(claude.requests[0]?.stream === true).toBe(stream);
    expect(bodies.received[0]?.startsWith('event: message_start')).toBe(stream);
  });

  it('sends a compaction that came mid-conversation back verbatim, its tool_changes byte for byte', async () => {
    const { agent, claude, bodies } = bench(stream, { compaction: true }, [
      { text: 'Hello!' },
      { compaction: { summary: SUMMARY, toolChanges: TOOL_CHANGES }, text: 'Let me look.', toolUses: [{ input: view }] },
      { text: 'Nothing new.' },
      { compaction: { summary: SUMMARY, toolChanges: TOOL_CHANGES }, text: 'Noted.' },
      { text: 'Still here.' },
    ]);
    await agent.send('hi');
    await agent.send('what do you know?');
    const changes = JSON.stringify(TOOL_CHANGES);
    expect(bodies.received[1]).toContain(changes);
    const turn = await agent.send('remember this');
    // The same turn went on from the summary, and so did the next one.
    for (const at of [2, 3]) {
      expect(claude.requests[at]?.messages?.[0]).toEqual({ role: 'assistant', content: [block(1, TOOL_CHANGES), { type: 'text', text: 'Let me look.' }, expect.objectContaining({ type: 'tool_use' })] });
      expect(bodies.sent[at]).toContain(changes);
    }

    // The block as the SDK handed it over, serialized, is in the next request as it is.
    const [compaction] = turn.message.content;
    expect(compaction).toEqual(block(3, TOOL_CHANGES));
    await agent.send('and now?');
    expect(bodies.sent[4]).toContain(JSON.stringify(compaction));
    expect(claude.requests[4]?.messages?.[0]).toEqual({ role: 'assistant', content: [compaction, { type: 'text', text: 'Noted.' }] });
  });

  it('continues a conversation restored from the messages saved after a compaction by the API', async () => {
    const { agent, claude, again } = bench(stream, { compaction: true }, [
      { compaction: { summary: SUMMARY, toolChanges: TOOL_CHANGES }, text: 'Noted.' },
      { text: 'You like green tea.' },
    ]);
    await agent.send('I like green tea.');
    const saved = JSON.parse(JSON.stringify(agent.messages)) as BetaMessageParam[];
    expect(saved).toEqual([{ role: 'assistant', content: [block(0, TOOL_CHANGES), { type: 'text', text: 'Noted.' }] }]);

    const turn = await again(saved).send('What do I drink?');
    expect(turn.text).toBe('You like green tea.');
    expect(claude.requests[1]?.messages).toEqual([...saved, { role: 'user', content: 'What do I drink?' }]);
    expect(claude.requests[1]?.headers['anthropic-beta']).toBe('compact-2026-01-12');
  });

  it('continues a conversation restored from the messages saved after compact()', async () => {
    const { agent, claude, again } = bench(stream, { contextManagement: true }, [
      { text: 'Hello!' },
      { compaction: { summary: SUMMARY } },
      { text: 'You like green tea.' },
    ]);
    await agent.send('I like green tea.');
    await expect(agent.compact()).resolves.toEqual({ trigger: 'request', summary: SUMMARY, summaryChars: SUMMARY.length, replacedMessages: 2 });
    const saved = JSON.parse(JSON.stringify(agent.messages)) as BetaMessageParam[];
    expect(saved).toEqual([{ role: 'assistant', content: [block(1)] }]);

    const turn = await again(saved).send('What do I drink?');
    expect(turn.text).toBe('You like green tea.');
    const request = claude.requests[2];
    expect(request?.messages).toEqual([...saved, { role: 'user', content: 'What do I drink?' }]);
    // A summary made on request goes back with the beta that made it, and no second compaction is asked for.
    expect(request?.headers['anthropic-beta']).toBe('context-management-2025-06-27,compact-2026-09-04');
    expect(request).not.toHaveProperty('compaction');
    expect(request?.context_management).toEqual({ edits: [{ type: 'clear_tool_uses_20250919' }] });
  });

  it('composes the three edits into one context_management in the API’s order, with both betas on every request', async () => {
    const { agent, claude } = bench(
      stream,
      {
        thinking: { type: 'adaptive' },
        clearThinking: { keep: { type: 'thinking_turns', value: 1 } },
        contextManagement: { exclude_tools: ['memory'], keep: { type: 'tool_uses', value: 3 } },
        compaction: { trigger: { type: 'input_tokens', value: 60_000 }, pauseAfterCompaction: true },
      },
      [{ compaction: { summary: SUMMARY } }, { text: 'Green tea.' }],
    );
    await agent.send('what do I drink?');
    expect(claude.requests).toHaveLength(2);
    for (const request of claude.requests) {
      expect(request.context_management).toEqual({
        edits: [
          { type: 'clear_thinking_20251015', keep: { type: 'thinking_turns', value: 1 } },
          { type: 'clear_tool_uses_20250919', exclude_tools: ['memory'], keep: { type: 'tool_uses', value: 3 } },
          { type: 'compact_20260112', trigger: { type: 'input_tokens', value: 60_000 }, pause_after_compaction: true },
        ],
      });
      expect(request.headers['anthropic-beta']).toBe('context-management-2025-06-27,compact-2026-01-12');
    }
    expect(claude.requests[1]?.messages).toEqual([{ role: 'assistant', content: [block(0)] }]);
  });

  it('tells a subscriber what was cleared and compacted, the summary first, and its text once whole when not streamed', async () => {
    const { agent, events } = bench(stream, { compaction: true, contextManagement: true }, [
      {
        compaction: { summary: SUMMARY },
        text: 'Let me look.',
        toolUses: [{ input: view }],
        appliedEdits: [{ type: 'clear_tool_uses_20250919', cleared_tool_uses: 4, cleared_input_tokens: 9_000 }],
      },
      { text: 'Nothing new.' },
    ]);
    const seen: MemoryAgentEvent[] = [];
    agent.subscribe((event) => seen.push(event));
    await agent.send('look');

    expect(eventsOf(seen, 'compacted')).toEqual([
      { type: 'compacted', trigger: 'auto', summary: SUMMARY, summaryChars: SUMMARY.length, replacedMessages: 1 },
    ]);
    expect(eventsOf(seen, 'context_cleared')).toEqual([
      { type: 'context_cleared', toolUses: 4, thinkingTurns: 0, tokens: 9_000, edits: [{ type: 'clear_tool_uses_20250919', cleared_tool_uses: 4, cleared_input_tokens: 9_000 }] },
    ]);
    expect(seen).toEqual(events);
    const texts = eventsOf(seen, 'text').map((event) => event.delta);
    if (stream) expect(texts.length).toBeGreaterThan(2);
    else expect(texts).toEqual(['Let me look.', 'Nothing new.']);
    const order = [...new Set(seen.map((event) => event.type))];
    expect(order).toEqual(['turn_start', 'compacted', 'text', 'tool_call', 'context_cleared', 'usage', 'tool_result', 'turn_end']);
  });

  it('leaves a turn stopped during the compaction so the next send() goes on: the summary alone once it came', async () => {
    const { agent, claude } = bench(stream, { compaction: true }, [
      { text: 'Hello!' },
      { compaction: { summary: SUMMARY }, text: 'A long answer.' },
      { text: 'Back.' },
    ]);
    await agent.send('hi');
    const stopOnSummary = agent.subscribe((event) => {
      if (event.type === 'compacted') agent.stop();
    });
    expect(await kindOf(agent.send('tell me everything'))).toBe('aborted');
    stopOnSummary();
    expect(agent.messages).toEqual([{ role: 'assistant', content: [block(1)] }]);
    await expect(agent.send('go on')).resolves.toMatchObject({ outcome: 'done', text: 'Back.' });
    expect(claude.requests[2]?.messages).toEqual([{ role: 'assistant', content: [block(1)] }, { role: 'user', content: 'go on' }]);
  });

  it('leaves a turn stopped while the API compacts, or a compact() stopped, as the conversation was', async () => {
    let stop = () => {};
    const compacting = (): ScriptedStep => () => {
      stop();
      return { compaction: { summary: SUMMARY }, text: 'never read' };
    };
    const { agent, claude } = bench(stream, { compaction: true }, [{ text: 'Hello!' }, compacting(), { text: 'Back.' }], { delayMs: 5 });
    stop = () => agent.stop();
    await agent.send('hi');
    const before = agent.messages;
    expect(await kindOf(agent.send('tell me everything'))).toBe('aborted');
    expect(agent.messages).toEqual(before);
    await expect(agent.send('go on')).resolves.toMatchObject({ text: 'Back.' });
    expect(claude.requests.at(-1)?.messages).toEqual([...before, { role: 'user', content: 'go on' }]);

    const onRequest = bench(stream, {}, [{ text: 'Hello!' }, compacting(), { text: 'Back.' }], { delayMs: 5 });
    stop = () => onRequest.agent.stop();
    await onRequest.agent.send('hi');
    const idle = onRequest.agent.messages;
    expect(await kindOf(onRequest.agent.compact())).toBe('aborted');
    expect(onRequest.agent.messages).toEqual(idle);
    await expect(onRequest.agent.send('go on')).resolves.toMatchObject({ text: 'Back.' });
  });
});

it('tells the same events, counts the same usage and keeps the same history, streamed or not', async () => {
  const script: ScriptedStep[] = [
    { text: 'Let me check.', toolUses: [{ input: view }] },
    { compaction: { summary: SUMMARY }, toolUses: [{ input: { command: 'create', path: '/memories/tea.md', file_text: 'green\n' } }] },
    { text: 'Noted: green tea.' },
  ];
  const run = async (stream: boolean) => {
    const { agent, events } = bench(stream, { compaction: true }, script);
    await agent.send('I like green tea.');
    await tool.execute({ command: 'delete', path: '/memories/tea.md' });
    // A message's text in one piece, however it came.
    const joined = events.reduce<MemoryAgentEvent[]>((all, event) => {
      const last = all.at(-1);
      if (event.type === 'text' && last?.type === 'text') all[all.length - 1] = { ...last, delta: last.delta + event.delta };
      else all.push(event);
      return all;
    }, []);
    return { events: joined, usage: agent.usage, messages: agent.messages };
  };
  const streamed = await run(true);
  expect(await run(false)).toEqual(streamed);
  expect(streamed.usage).toMatchObject({ compactions: 1 });
});
