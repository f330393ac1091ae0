// Compaction through the agent: the API's own (the `compaction` option) and on request (`compact()`, the SDK runner's
// compactBeforeNextTurn), through the real SDK runner streaming from the scripted Claude, on a real tool.

import { beforeEach, describe, expect, it } from 'vitest';
import { IndexedDBMemoryTool } from '../../src/index.js';
import { createMemoryAgent } from '../../src/entries/agent.js';
import type { MemoryAgentEvent } from '../../src/entries/agent.js';
import type { BetaMessageParam } from '../../src/core/sdk-types.js';
import type { ScriptedRequest } from '../../src/offline/scripted-claude.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { eventsOf, kindOf, scriptedAgent, stoppingAfter } from './scripted-agent.js';

let tool: IndexedDBMemoryTool;
const open = toolsClosedAfterEach('agent-compaction');
beforeEach(async () => {
  tool = await open();
});

const SUMMARY = 'The user likes green tea. Claude keeps notes in /memories/notes.md.';
const view = { command: 'view', path: '/memories' };

/** The compaction block the scripted Claude sends for the turn at `index` of its script (its defaults). */
function compactionBlock(summary: string, index: number) {
  return {
    type: 'compaction',
    content: summary,
    encrypted_content: `scripted-opaque-${index}`,
    signature: `scripted-signature-${index}`,
    tool_changes: [],
  };
}

function firstBlock(request: ScriptedRequest | undefined) {
  const first = request?.messages?.[0];
  return Array.isArray(first?.content) ? first.content[0] : undefined;
}

describe('compaction by the API (the `compaction` option)', () => {
  it('keeps a compaction that came mid-turn and sends it back verbatim, first, on every later request', async () => {
    const { agent, claude, events } = scriptedAgent({ tool, compaction: true }, [
      { text: 'Hello!' },
      { compaction: { summary: SUMMARY }, text: 'Let me look.', toolUses: [{ input: view }] },
      { text: 'Nothing new.' },
      { text: 'Still here.' },
    ]);
    await agent.send('hi');
    const turn = await agent.send('what do you know?');
    expect(turn).toMatchObject({ outcome: 'done', text: 'Nothing new.' });

    // Mid-turn, the runner went on from the summary: the messages it replaced are no longer sent.
    const afterTools = claude.requests[2];
    expect(afterTools?.messages?.map((message) => message.role)).toEqual(['assistant', 'user']);
    expect(firstBlock(afterTools)).toEqual(compactionBlock(SUMMARY, 1));
    expect(agent.messages).toEqual([
      { role: 'assistant', content: [compactionBlock(SUMMARY, 1), { type: 'text', text: 'Let me look.' }, expect.objectContaining({ type: 'tool_use' })] },
      { role: 'user', content: [expect.objectContaining({ type: 'tool_result' })] },
      { role: 'assistant', content: [{ type: 'text', text: 'Nothing new.' }] },
    ]);

    await agent.send('and now?');
    expect(claude.requests[3]?.messages).toEqual([...agent.messages.slice(0, 3), { role: 'user', content: 'and now?' }]);
    expect(eventsOf(events, 'compacted')).toEqual([
      { type: 'compacted', trigger: 'auto', summary: SUMMARY, summaryChars: SUMMARY.length, replacedMessages: 3 },
    ]);
    // Told as the block came whole, before the answer that follows it in the reply.
    const second = events.slice(events.findIndex((event) => event.type === 'turn_end') + 1).map((event) => event.type);
    expect(second.slice(0, 3)).toEqual(['turn_start', 'compacted', 'text']);
  });

  it('continues a conversation restored from the saved messages of one that was compacted', async () => {
    const { agent, claude } = scriptedAgent({ tool, compaction: true }, [
      { compaction: { summary: SUMMARY }, text: 'Noted.' },
      { text: 'You like green tea.' },
    ]);
    await agent.send('I like green tea.');
    const saved = JSON.parse(JSON.stringify(agent.messages)) as BetaMessageParam[];
    expect(saved).toEqual([{ role: 'assistant', content: [compactionBlock(SUMMARY, 0), { type: 'text', text: 'Noted.' }] }]);

    // A page reloaded: a new agent on the saved conversation, the same API.
    const restored = createMemoryAgent({ tool, apiKey: 'k', fetch: claude.fetch, maxRetries: 0, compaction: true, messages: saved });
    const turn = await restored.send('What do I drink?');
    expect(turn.text).toBe('You like green tea.');
    expect(claude.requests[1]?.messages).toEqual([...saved, { role: 'user', content: 'What do I drink?' }]);
    expect(claude.requests[1]?.headers['anthropic-beta']).toBe('compact-2026-01-12');
  });

  it('goes on by itself after a pause for the compaction, the summary told before the answer', async () => {
    const { agent, claude, events } = scriptedAgent({ tool, compaction: { pauseAfterCompaction: true } }, [
      { text: 'Hello!' },
      { compaction: { summary: SUMMARY } },
      { text: 'Green tea, then.' },
    ]);
    await agent.send('hi');
    const turn = await agent.send('what do I drink?');

    expect(claude.requests[1]?.context_management).toEqual({ edits: [{ type: 'compact_20260112', pause_after_compaction: true }] });
    expect(claude.requests[2]?.messages).toEqual([{ role: 'assistant', content: [compactionBlock(SUMMARY, 1)] }]);
    expect(turn).toMatchObject({ outcome: 'done', text: 'Green tea, then.' });
    const second = events.slice(events.findIndex((event) => event.type === 'turn_end') + 1).map((event) => event.type);
    expect(second.filter((type) => type === 'compacted' || type === 'text')).toEqual(['compacted', 'text', 'text', 'text']);
    expect(agent.messages.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Green tea, then.' }] });
  });

  it('counts the compaction’s tokens apart, from usage.iterations, and not in the answer’s', async () => {
    const { agent, events } = scriptedAgent({ tool, compaction: true }, [{ compaction: { summary: SUMMARY }, text: 'Noted.' }]);
    await agent.send('remember this');
    const [usage] = eventsOf(events, 'usage');
    expect(usage?.usage.iterations?.map((iteration) => iteration.type)).toEqual(['compaction', 'message']);
    const [compaction, answer] = usage?.usage.iterations ?? [];
    expect(agent.usage).toEqual({
      input_tokens: answer?.input_tokens,
      output_tokens: answer?.output_tokens,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
      compactions: 1,
      compaction_input_tokens: compaction?.input_tokens,
      compaction_output_tokens: compaction?.output_tokens,
    });
  });

  it('leaves a turn stopped during the compaction so the next send() continues, with the summary if it came whole', async () => {
    // Stopped as the compaction block came whole, before Claude's answer: the summary is kept, and stands alone.
    const whole = scriptedAgent({ tool, compaction: true }, [{ text: 'Hello!' }, { compaction: { summary: SUMMARY }, text: 'A long answer.' }, { text: 'Back.' }], { delayMs: 15 });
    const stopping = stoppingAfter(whole.claude.fetch, /compaction_delta[^]*"content_block_stop"/, () => stopper.stop());
    const stopper = createMemoryAgent({ tool, apiKey: 'k', fetch: stopping, maxRetries: 0, compaction: true });
    await stopper.send('hi');
    expect(await kindOf(stopper.send('tell me everything'))).toBe('aborted');
    expect(stopper.messages).toEqual([{ role: 'assistant', content: [compactionBlock(SUMMARY, 1)] }]);
    await stopper.send('go on');
    expect(whole.claude.requests[2]?.messages).toEqual([...stopper.messages.slice(0, 1), { role: 'user', content: 'go on' }]);
    expect(stopper.messages.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Back.' }] });

    // Stopped while the API was still compacting: nothing came, the conversation is as it was.
    let stop = () => {};
    const early = scriptedAgent({ tool, compaction: true }, [
      { text: 'Hello!' },
      () => {
        stop();
        return { compaction: { summary: SUMMARY }, text: 'never read' };
      },
      { text: 'Back.' },
    ]);
    stop = () => early.agent.stop();
    await early.agent.send('hi');
    const before = early.agent.messages;
    expect(await kindOf(early.agent.send('tell me everything'))).toBe('aborted');
    expect(early.agent.messages).toEqual(before);
    await early.agent.send('go on');
    expect(early.claude.requests.at(-1)?.messages).toEqual([...before, { role: 'user', content: 'go on' }]);
  });
});

describe('compact(): compaction on request, through the SDK runner', () => {
  it('summarizes an idle conversation with the compaction beta, and the next send() goes on from the summary', async () => {
    const { agent, claude, events } = scriptedAgent({ tool, contextManagement: true }, [
      { text: 'Hello!' },
      { compaction: { summary: SUMMARY } },
      { text: 'Green tea.' },
    ]);
    await agent.send('I like green tea.');
    const compaction = await agent.compact({ instructions: 'Keep what the user likes.' });

    expect(compaction).toEqual({ trigger: 'request', summary: SUMMARY, summaryChars: SUMMARY.length, replacedMessages: 2 });
    const request = claude.requests[1];
    expect(request).toMatchObject({ compaction: { type: 'summarize', instructions: 'Keep what the user likes.' } });
    // The SDK leaves context_management off a compaction request (the API refuses the two together).
    expect(request).not.toHaveProperty('context_management');
    expect(request?.headers['anthropic-beta']).toBe('context-management-2025-06-27,compact-2026-09-04');
    expect(agent.messages).toEqual([{ role: 'assistant', content: [compactionBlock(SUMMARY, 1)] }]);
    expect(eventsOf(events, 'compacted')).toEqual([{ type: 'compacted', ...compaction }]);
    expect(agent.usage).toMatchObject({ compactions: 1 });

    await agent.send('What do I drink?');
    expect(claude.requests[2]?.messages).toEqual([...agent.messages.slice(0, 1), { role: 'user', content: 'What do I drink?' }]);
    // The summary goes back with the beta that made it.
    expect(claude.requests[2]?.headers['anthropic-beta']).toBe('context-management-2025-06-27,compact-2026-09-04');
    expect(claude.requests[2]?.context_management).toEqual({ edits: [{ type: 'clear_tool_uses_20250919' }] });
  });

  it('during a turn, compacts before its next request; the turn’s answer is Claude’s, not the summary', async () => {
    const { agent, claude } = scriptedAgent({ tool }, [
      { text: 'Looking.', toolUses: [{ input: view }] },
      { compaction: { summary: SUMMARY } },
      { text: 'All done.' },
    ]);
    let compacting: Promise<unknown> | undefined;
    agent.subscribe((event) => {
      if (event.type === 'tool_result') compacting ??= agent.compact();
    });
    const turn = await agent.send('look around');

    expect(turn).toMatchObject({ outcome: 'done', text: 'All done.' });
    await expect(compacting).resolves.toMatchObject({ trigger: 'request', summary: SUMMARY, replacedMessages: 3 });
    expect(claude.requests[1]).toMatchObject({ compaction: { type: 'summarize' } });
    expect(claude.requests[1]?.messages?.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(claude.requests[1]?.headers['anthropic-beta']).toBe('compact-2026-09-04');
    expect(claude.requests[2]?.messages).toEqual([{ role: 'assistant', content: [compactionBlock(SUMMARY, 1)] }]);
    expect(agent.messages).toEqual([
      { role: 'assistant', content: [compactionBlock(SUMMARY, 1)] },
      { role: 'assistant', content: [{ type: 'text', text: 'All done.' }] },
    ]);
  });

  it('leaves the conversation as it was when stopped during the compaction, idle or in a turn', async () => {
    let stop = () => {};
    const compactingStep = () => {
      stop();
      return { compaction: { summary: SUMMARY } };
    };
    const { agent, claude } = scriptedAgent({ tool }, [{ text: 'Hello!' }, compactingStep, { text: 'Looking.', toolUses: [{ input: view }] }, compactingStep, { text: 'Still here.' }]);
    stop = () => agent.stop();
    await agent.send('hi');
    const before = agent.messages;
    expect(await kindOf(agent.compact())).toBe('aborted');
    expect(agent.messages).toEqual(before);
    expect(agent.running).toBe(false);

    // In a turn: the tool round trip that ran stays, and the next send() goes on from its result.
    agent.subscribe((event) => {
      if (event.type === 'tool_result') void agent.compact();
    });
    expect(await kindOf(agent.send('look'))).toBe('aborted');
    expect(agent.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    await agent.send('go on');
    expect(claude.requests.at(-1)?.messages?.at(-1)).toMatchObject({ role: 'user', content: [{ type: 'tool_result' }, { type: 'text', text: 'go on' }] });
  });

  it('refuses an empty conversation, the compaction option, a busy agent and unknown options, before any request', async () => {
    const summary = { compaction: { summary: SUMMARY } };
    const { agent, claude } = scriptedAgent({ tool }, [{ text: 'slow' }, summary, summary], { delayMs: 20 });
    await expect(agent.compact()).rejects.toThrow(/conversation is empty/);
    await expect(agent.compact({ instruction: 'x' } as never)).rejects.toThrow(/unknown options: instruction/);
    const auto = scriptedAgent({ tool, compaction: true, messages: [{ role: 'user', content: 'hi' }] }, []);
    await expect(auto.agent.compact()).rejects.toThrow(/compaction/);
    expect(auto.claude.requests).toHaveLength(0);

    const turn = agent.send('one');
    // During a turn: after its last reply, and answered once the turn is over.
    await expect(agent.compact()).resolves.toMatchObject({ trigger: 'request' });
    await turn;
    const idle = agent.compact();
    await expect(agent.send('two')).rejects.toThrow(/already running/);
    await expect(agent.compact()).rejects.toThrow(/already running/);
    await idle;
    expect(claude.requests.map((request) => 'compaction' in request)).toEqual([false, true, true]);
  });
});

describe('events of compaction', () => {
  it('reach a subscriber as well as onEvent, with the summary and what it replaced', async () => {
    const { agent } = scriptedAgent({ tool, compaction: true }, [{ compaction: { summary: SUMMARY }, text: 'Noted.' }]);
    const seen: MemoryAgentEvent[] = [];
    agent.subscribe((event) => seen.push(event));
    await agent.send('remember');
    expect(eventsOf(seen, 'compacted')).toEqual([expect.objectContaining({ summary: SUMMARY, replacedMessages: 1 })]);
  });

  it('tell nothing of a compaction that failed, and keep its empty block as the API sent it', async () => {
    const { agent, claude, events } = scriptedAgent({ tool, compaction: true }, [{ text: 'Hello!' }, { compaction: { summary: null }, text: 'Answer.' }, { text: 'Next.' }]);
    await agent.send('hi');
    await agent.send('more');
    expect(eventsOf(events, 'compacted')).toEqual([]);
    expect(agent.messages).toHaveLength(4);
    await agent.send('again');
    expect(claude.requests[2]?.messages?.[3]).toMatchObject({ content: [{ type: 'compaction', content: null }, { type: 'text' }] });
  });
});
