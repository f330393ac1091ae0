// The scripted Claude's compaction and context management, read by the real SDK: a compaction block as JSON and as
// a stream (`compaction_delta`), the usage iterations, applied edits, the SDK runner's compactBeforeNextTurn(), and
// the API's refusal of a compaction block not sent back as it came.

import Anthropic, { BadRequestError } from '@anthropic-ai/sdk';
import { betaTool } from '@anthropic-ai/sdk/helpers/beta/json-schema';
import { describe, expect, it } from 'vitest';
import { createScriptedClaude } from '../../src/offline/scripted-claude.js';
import type { ScriptedTurn } from '../../src/offline/wire-message.js';

const model = 'claude-test-model';
const hello = [{ role: 'user' as const, content: 'Hello' }];
const SUMMARY = 'The user said hello; Claude looked at /memories.';

function newClient(fetch: typeof globalThis.fetch): Anthropic {
  return new Anthropic({ apiKey: 'test', dangerouslyAllowBrowser: true, fetch, maxRetries: 0 });
}

const compacted: ScriptedTurn = {
  compaction: { summary: SUMMARY },
  text: 'Hi again.',
  appliedEdits: [{ type: 'clear_tool_uses_20250919', cleared_tool_uses: 2, cleared_input_tokens: 900 }],
};

const block = {
  type: 'compaction',
  content: SUMMARY,
  encrypted_content: 'scripted-opaque-0',
  signature: 'scripted-signature-0',
  tool_changes: [],
};

describe('the scripted Claude’s compaction, through the real SDK', () => {
  it('answers with the compaction block first, its tokens only in usage.iterations, and the applied edits', async () => {
    const claude = createScriptedClaude([compacted]);
    const message = await newClient(claude.fetch).beta.messages.create({ model, max_tokens: 100, messages: hello });

    expect(message.content).toEqual([block, { type: 'text', text: 'Hi again.' }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.context_management).toEqual({ applied_edits: compacted.appliedEdits });
    const [compaction, answer] = message.usage.iterations ?? [];
    expect(compaction).toMatchObject({ type: 'compaction', output_tokens: Math.ceil(SUMMARY.length / 4) });
    expect(answer).toMatchObject({ type: 'message', input_tokens: compaction?.output_tokens, model });
    expect(message.usage).toMatchObject({ input_tokens: answer?.input_tokens, output_tokens: answer?.output_tokens });
  });

  it('streams it as a null-content shell and one compaction_delta; the SDK builds the same message', async () => {
    const claude = createScriptedClaude([compacted, compacted]);
    const client = newClient(claude.fetch);
    const whole = await client.beta.messages.create({ model, max_tokens: 100, messages: hello });
    const summaries: string[] = [];
    const stream = client.beta.messages.stream({ model, max_tokens: 100, messages: hello }).on('compaction', (summary) => summaries.push(summary));
    const events: unknown[] = [];
    stream.on('streamEvent', (event) => events.push(event));
    const streamed = await stream.finalMessage();

    expect(summaries).toEqual([SUMMARY]);
    expect(events).toContainEqual({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'compaction', content: null, encrypted_content: null, signature: 'scripted-signature-1', tool_changes: [] },
    });
    expect(events).toContainEqual({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'compaction_delta', content: SUMMARY, encrypted_content: 'scripted-opaque-1' },
    });
    expect(events).toContainEqual(expect.objectContaining({ type: 'message_delta', context_management: { applied_edits: compacted.appliedEdits } }));
    const sameButIndex = JSON.parse(JSON.stringify(whole).replaceAll('-0"', '-1"').replace('msg_scripted_0', 'msg_scripted_1')) as unknown;
    expect(streamed).toMatchObject(sameButIndex as object);
  });

  it('serves tool_changes whole and streamed alike, and refuses them changed in any way, their keys’ order too', async () => {
    const toolChanges = [
      { type: 'tool_removal', tool: { type: 'tool_reference', name: 'search' } },
      { type: 'tool_addition', tool: { type: 'mcp_tool_reference', server_name: 'docs', name: 'lookup' } },
    ];
    const turn: ScriptedTurn = { compaction: { summary: SUMMARY, toolChanges }, stopReason: 'pause_turn' };
    const claude = createScriptedClaude([turn, turn, { text: 'ok' }]);
    const client = newClient(claude.fetch);
    const whole = await client.beta.messages.create({ model, max_tokens: 100, messages: hello });
    const streamed = await client.beta.messages.stream({ model, max_tokens: 100, messages: hello }).finalMessage();
    expect(whole).toMatchObject({ content: [{ ...block, tool_changes: toolChanges }], stop_reason: 'pause_turn' });
    expect(streamed).toMatchObject({ content: [{ ...block, encrypted_content: 'scripted-opaque-1', signature: 'scripted-signature-1', tool_changes: toolChanges }], stop_reason: 'pause_turn' });

    const [sent] = whole.content;
    const back = (content: unknown) =>
      client.beta.messages.create({ model, max_tokens: 100, messages: [{ role: 'assistant', content: [content] } as never, { role: 'user', content: 'go on' }] });
    const reordered = toolChanges.map(({ type, tool }) => ({ tool, type }));
    await expect(back({ ...sent, tool_changes: reordered })).rejects.toThrow(/send it back verbatim/);
    await expect(back({ ...sent, tool_changes: toolChanges.slice(1) })).rejects.toThrow(/send it back verbatim/);
    await expect(back(sent)).resolves.toMatchObject({ content: [{ type: 'text', text: 'ok' }] });
  });

  it('stops a compaction alone with `compaction`, with no tokens outside its iteration', async () => {
    const claude = createScriptedClaude([{ compaction: { summary: SUMMARY } }]);
    const message = await newClient(claude.fetch).beta.messages.create({ model, max_tokens: 100, messages: hello });
    expect(message).toMatchObject({ content: [block], stop_reason: 'compaction', usage: { input_tokens: 0, output_tokens: 0 } });
    expect(message.usage.iterations?.map((iteration) => iteration.type)).toEqual(['compaction']);
  });

  for (const stream of [false, true]) {
    it(`plays the SDK runner’s compactBeforeNextTurn() (stream: ${stream}) and takes the summary back as it came`, async () => {
      const claude = createScriptedClaude([{ toolUses: [{ input: { path: '/memories' } }] }, { compaction: { summary: SUMMARY } }, { text: 'Done.' }]);
      const look = betaTool({
        name: 'memory',
        description: 'Looks.',
        inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
        run: ({ path }) => `looked at ${path}`,
      });
      const runner = newClient(claude.fetch).beta.messages.toolRunner({ model, max_tokens: 100, messages: hello, tools: [look], thread: false, stream });
      const stops: Array<string | null> = [];
      for await (const item of runner) {
        const message = 'finalMessage' in item ? await item.finalMessage() : item;
        stops.push(message.stop_reason);
        if (stops.length === 1) runner.compactBeforeNextTurn({ type: 'summarize', instructions: 'Short.' });
      }

      expect(stops).toEqual(['tool_use', 'compaction', 'end_turn']);
      expect(claude.requests[1]).toMatchObject({ compaction: { type: 'summarize', instructions: 'Short.' } });
      expect(claude.requests[1]?.messages).toHaveLength(3);
      expect(claude.requests[2]?.messages).toEqual([{ role: 'assistant', content: [{ ...block, encrypted_content: 'scripted-opaque-1', signature: 'scripted-signature-1' }] }]);
    });
  }

  for (const stream of [false, true]) {
    it(`has the SDK runner send an automatic compaction back verbatim on its next request (stream: ${stream})`, async () => {
      const claude = createScriptedClaude([{ compaction: { summary: SUMMARY }, toolUses: [{ input: { path: '/memories' } }] }, { text: 'Done.' }]);
      const look = betaTool({
        name: 'memory',
        description: 'Looks.',
        inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
        run: ({ path }) => `looked at ${path}`,
      });
      const final = await newClient(claude.fetch)
        .beta.messages.toolRunner({
          model,
          max_tokens: 100,
          messages: hello,
          tools: [look],
          thread: false,
          stream,
          context_management: { edits: [{ type: 'compact_20260112' }] },
          betas: ['compact-2026-01-12'],
        })
        .runUntilDone();

      expect(final.content).toEqual([{ type: 'text', text: 'Done.' }]);
      // The runner keeps the whole history: the summary sits after the messages it replaced (the agent drops them).
      expect(claude.requests[1]?.messages?.[1]).toEqual({ role: 'assistant', content: [block, expect.objectContaining({ type: 'tool_use' })] });
      expect(claude.requests[1]?.headers['anthropic-beta']).toBe('compact-2026-01-12');
    });
  }

  it('refuses, as the API does, a compaction block changed on its way back and two with a summary', async () => {
    const claude = createScriptedClaude([{ compaction: { summary: SUMMARY } }, { text: 'never' }]);
    const client = newClient(claude.fetch);
    const message = await client.beta.messages.create({ model, max_tokens: 100, messages: hello });
    const [sent] = message.content;
    const refused = async (content: unknown[]) =>
      client.beta.messages.create({ model, max_tokens: 100, messages: [{ role: 'assistant', content } as never, { role: 'user', content: 'go on' }] }).then(
        () => undefined,
        (error: unknown) => error,
      );

    const edited = await refused([{ ...sent, content: 'A summary of my own.' }]);
    expect(edited).toBeInstanceOf(BadRequestError);
    expect((edited as BadRequestError).message).toMatch(/differs from the one returned: send it back verbatim/);
    const unsigned = await refused([{ ...sent, signature: null }]);
    expect(unsigned).toBeInstanceOf(BadRequestError);
    const twice = await refused([sent, sent]);
    expect((twice as BadRequestError).message).toMatch(/more than one `compaction` block with content/);
    // A refused request uses up no turn of the script.
    expect(claude.requests).toHaveLength(4);
    const next = await client.beta.messages.create({ model, max_tokens: 100, messages: [{ role: 'assistant', content: [sent] } as never, { role: 'user', content: 'go on' }] });
    expect(next.content).toEqual([{ type: 'text', text: 'never' }]);
  });
});
