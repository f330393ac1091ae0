// The approve hook behind the loops Claude's calls come through: the SDK's toolRunner with memoryTool(tool, { source }),
// the memory agent (each conversation's id as the source; Stop withdraws an open question), and the AI SDK in its two
// modes (the tool's own hook inside `execute`, and the AI SDK's `needsApproval`).

import Anthropic from '@anthropic-ai/sdk';
import { createAnthropic } from '@ai-sdk/anthropic';
import { generateText, stepCountIs } from 'ai';
import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { aiSdkMemoryTool } from '../../src/adapters/ai-sdk.js';
import { memoryTool } from '../../src/adapters/sdk-runnable.js';
import { isMemoryToolError } from '../../src/index.js';
import type { ApproveAnswer, IndexedDBMemoryTool, MemoryCommandRunner, WriteProposal } from '../../src/index.js';
import { createScriptedClaude } from '../../src/offline/scripted-claude.js';
import { scriptedAgent, kindOf } from '../agent/scripted-agent.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { dumpStores } from '../helpers/store-dump.js';
import { questions } from '../tool/approve-questions.js';

const open = toolsClosedAfterEach('approve-runner');

const CREATE_A = { command: 'create', path: '/memories/a.md', file_text: 'a\n' };
const CREATE_B = { command: 'create', path: '/memories/b.md', file_text: 'b\n' };

/** Denies `/memories/a.md` with a reason and allows the rest; the proposals it was shown. */
function judge() {
  const shown: WriteProposal[] = [];
  const approve = (proposal: WriteProposal): ApproveAnswer => {
    shown.push(proposal);
    return proposal.path === '/memories/a.md' ? { deny: 'a web page asked for it' } : 'allow';
  };
  return { shown, approve };
}

const DECLINED_A =
  'Error: The person declined this write to /memories/a.md: a web page asked for it. Nothing was written; do not ' +
  'write it again unless they ask.';

describe('approve through the loops', () => {
  it("SDK toolRunner: Claude gets the denial as a tool_result with is_error, and the allowed write's usual reply", async () => {
    const { shown, approve } = judge();
    const tool = await open({ approve });
    const claude = createScriptedClaude([{ toolUses: [{ name: 'memory', input: CREATE_A }, { name: 'memory', input: CREATE_B }] }, { text: 'Done.' }]);
    const client = new Anthropic({ apiKey: 'k', fetch: claude.fetch, maxRetries: 0, dangerouslyAllowBrowser: true });
    await client.beta.messages
      .toolRunner({
        model: 'claude-sonnet-4-5',
        max_tokens: 1024,
        messages: [{ role: 'user', content: 'Remember this.' }],
        tools: [memoryTool(tool, { source: 'conversation-1' })],
      })
      .runUntilDone();
    const [a, b] = claude.toolResults();
    expect(a).toMatchObject({ content: DECLINED_A, is_error: true });
    expect(b?.content).toBe('File created successfully at: /memories/b.md');
    expect(b && 'is_error' in b).toBe(false);
    expect(shown.map((p) => p.source)).toEqual(['conversation-1', 'conversation-1']);
    expect((await tool.list()).map((e) => e.path)).toEqual(['/memories/b.md']);
    expect((await tool.history())[0]?.source).toBe('conversation-1');
    // The definition sent to the API holds no `source`.
    expect(claude.requests[0]?.tools).toEqual([{ type: 'memory_20250818', name: 'memory' }]);
  });

  it("agent: each conversation's writes carry its id, a new one after reset", async () => {
    const tool = await open({ approve: () => 'allow' });
    const { agent } = scriptedAgent({ tool, stream: false }, [
      { toolUses: [{ name: 'memory', input: CREATE_A }] },
      { text: 'Noted.' },
      { toolUses: [{ name: 'memory', input: CREATE_B }] },
      { text: 'Noted too.' },
    ]);
    const first = agent.conversationId;
    await agent.send('Remember a.');
    agent.reset();
    expect(agent.conversationId).not.toBe(first);
    await agent.send('Remember b.');
    const [b, a] = await tool.history();
    expect(a?.source).toBe(first);
    expect(b?.source).toBe(agent.conversationId);
  });

  it("agent: Stop withdraws the turn's open question and stores nothing", async () => {
    const asked = questions();
    const tool = await open({ approve: asked.approve });
    const before = await dumpStores(tool.dbName);
    // The command's own outcome, which the aborted turn no longer reports.
    const outcomes: Array<Promise<unknown>> = [];
    const runner: MemoryCommandRunner = {
      execute: (command, options) => {
        const running = tool.execute(command, options);
        outcomes.push(running.then(() => 'stored', (error: unknown) => (isMemoryToolError(error) ? error.code : error)));
        return running;
      },
    };
    const { agent } = scriptedAgent({ tool: runner, stream: false }, [{ toolUses: [{ name: 'memory', input: CREATE_A }] }, { text: 'x' }]);
    const turn = agent.send('Remember a.');
    const question = await asked.nth(0);
    agent.stop();
    expect(await kindOf(turn)).toBe('aborted');
    expect(await outcomes[0]).toBe('withdrawn');
    question.answer('allow');
    await tool.list();
    expect(await dumpStores(tool.dbName)).toBe(before);
  });

  it("AI SDK, the tool's hook: the denial reaches Claude as the runner's error block", async () => {
    const { approve } = judge();
    const tool = await open({ approve });
    const claude = createScriptedClaude([{ toolUses: [{ name: 'memory', input: CREATE_A }, { name: 'memory', input: CREATE_B }] }, { text: 'Done.' }]);
    await generateText({
      model: createAnthropic({ apiKey: 'offline', fetch: claude.fetch })('claude-sonnet-4-5'),
      prompt: 'Remember this.',
      tools: { memory: aiSdkMemoryTool(tool, { source: 'chat-1' }) },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    const [a, b] = claude.toolResults();
    expect(a).toMatchObject({ content: DECLINED_A, is_error: true });
    expect(b?.content).toBe('File created successfully at: /memories/b.md');
    expect((await tool.history())[0]?.source).toBe('chat-1');
  });

  it("AI SDK, its own needsApproval: 'writes' stops at a write for the app to answer; a view runs unasked", async () => {
    const tool: IndexedDBMemoryTool = await open();
    const claude = createScriptedClaude([
      { toolUses: [{ name: 'memory', input: { command: 'view', path: '/memories' } }, { name: 'memory', input: CREATE_A }] },
      { text: 'Done.' },
    ]);
    const settings = {
      model: createAnthropic({ apiKey: 'offline', fetch: claude.fetch })('claude-sonnet-4-5'),
      tools: { memory: aiSdkMemoryTool(tool, { needsApproval: 'writes' }) },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    };
    const first = await generateText({ ...settings, prompt: 'Remember this.' });
    const requests = first.content.filter((part) => part.type === 'tool-approval-request');
    expect(requests).toHaveLength(1);
    expect(requests[0]?.toolCall.input).toEqual(CREATE_A);
    expect(await tool.list()).toEqual([]);
    const answer: ModelMessage = {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: requests[0]?.approvalId ?? '', approved: false, reason: 'not that' }],
    };
    await generateText({ ...settings, messages: [{ role: 'user', content: 'Remember this.' }, ...first.response.messages, answer] });
    const received = claude.toolResults();
    expect(received.map((r) => r.content)).toContainEqual('not that');
    expect(await tool.list()).toEqual([]);
  });
});
