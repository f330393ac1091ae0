// createMemoryAgent() through the real SDK toolRunner, streaming from the scripted Claude, on a real tool:
// the conversation it keeps, the events a page shows, stopping, error kinds, and what goes on the wire.

import Anthropic from '@anthropic-ai/sdk';
import { beforeEach, describe, expect, it } from 'vitest';
import { IndexedDBMemoryTool } from '../../src/index.js';
import { createMemoryAgent, describeAgentError, isMemoryAgentError } from '../../src/entries/agent.js';
import type { MemoryAgentEvent, MemoryAgentOptions } from '../../src/entries/agent.js';
import { createErrorResponse } from '../../src/offline/responses.js';
import { createScriptedClaude } from '../../src/offline/scripted-claude.js';
import type { ScriptedStep } from '../../src/offline/scripted-claude.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';

let tool: IndexedDBMemoryTool;
const open = toolsClosedAfterEach('agent');
beforeEach(async () => {
  tool = await open();
});

const NOTE = '/memories/notes.md';

/** Claude views the memory, writes a note, edits it, and answers. */
const WRITES_A_NOTE: ScriptedStep[] = [
  { text: 'Let me check my memory.', toolUses: [{ input: { command: 'view', path: '/memories' } }] },
  { toolUses: [{ input: { command: 'create', path: NOTE, file_text: 'likes tea\n' } }] },
  { toolUses: [{ input: { command: 'str_replace', path: NOTE, old_str: 'tea', new_str: 'green tea' } }] },
  { text: 'Noted: you like green tea.' },
];

function agentWith(turns: ScriptedStep[], options: Partial<MemoryAgentOptions> = {}) {
  const claude = createScriptedClaude(turns);
  const events: MemoryAgentEvent[] = [];
  const agent = createMemoryAgent({
    tool,
    apiKey: 'sk-ant-test-key',
    fetch: claude.fetch,
    maxRetries: 0,
    onEvent: (event) => events.push(event),
    ...options,
  });
  return { agent, claude, events };
}

/** A fetch that answers every request with the API's error for `status` (retry-after 0, so retries are instant). */
function failingFetch(status: number, type: string) {
  let calls = 0;
  const fetch = async () => {
    calls++;
    return createErrorResponse(status, type, `scripted ${status}`, { 'retry-after': '0', 'retry-after-ms': '1' });
  };
  return { fetch: fetch as typeof globalThis.fetch, calls: () => calls };
}

async function kindOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isMemoryAgentError(error)) return error.kind;
    throw error;
  }
  throw new Error('expected the turn to fail');
}

describe('createMemoryAgent', () => {
  it('runs the memory loop while streaming and answers with the exact tool results', async () => {
    const { agent, claude } = agentWith(WRITES_A_NOTE);
    const turn = await agent.send('I like tea.');

    expect(turn).toMatchObject({ outcome: 'done', text: 'Noted: you like green tea.' });
    expect(claude.requests.every((request) => request.stream === true)).toBe(true);
    expect(claude.toolResults().map(({ content, is_error }) => ({ content, is_error }))).toEqual([
      {
        content: expect.stringMatching(/^Here're the files and directories up to 2 levels deep in \/memories.*\n\S+\t\/memories$/) as unknown,
        is_error: undefined,
      },
      { content: `File created successfully at: ${NOTE}`, is_error: undefined },
      {
        content: expect.stringMatching(/^The memory file has been edited\./) as unknown,
        is_error: undefined,
      },
    ]);
    expect(await tool.view({ command: 'view', path: NOTE })).toContain('likes green tea');
  });

  it('keeps the conversation across send() calls and sends all of it each time', async () => {
    const { agent, claude } = agentWith([{ text: 'Hello!' }, { text: 'You said hi before.' }]);
    await agent.send('hi');
    await agent.send('what did I say?');

    expect(agent.messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello!' }] },
      { role: 'user', content: 'what did I say?' },
      { role: 'assistant', content: [{ type: 'text', text: 'You said hi before.' }] },
    ]);
    expect(claude.requests[1]?.messages).toEqual(agent.messages.slice(0, 3));
  });

  it('reports text deltas, the tool call, usage, the tool result and the turn end, in that order', async () => {
    const { agent, events } = agentWith([
      { text: 'Checking memory now.', toolUses: [{ input: { command: 'view', path: '/memories/none.md' } }] },
      { text: 'Nothing there.' },
    ]);
    await agent.send('anything?');

    const kinds = events.map((event) => event.type);
    expect(kinds[0]).toBe('turn_start');
    expect(kinds.at(-1)).toBe('turn_end');
    const firstRequest = kinds.slice(1, kinds.indexOf('tool_result') + 1).filter((kind, i, all) => kind !== all[i - 1]);
    expect(firstRequest).toEqual(['text', 'tool_call', 'usage', 'tool_result']);
    expect(kinds.filter((kind) => kind === 'text').length).toBeGreaterThan(2);

    const text = events.flatMap((event) => (event.type === 'text' ? [event.delta] : [])).join('');
    expect(text).toBe('Checking memory now.Nothing there.');
    expect(events.find((event) => event.type === 'tool_call')).toEqual({
      type: 'tool_call',
      id: 'toolu_scripted_1',
      name: 'memory',
      input: { command: 'view', path: '/memories/none.md' },
    });
    expect(events.find((event) => event.type === 'tool_result')).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_scripted_1',
      content: 'Error: The path /memories/none.md does not exist. Please provide a valid path.',
      is_error: true,
    });
    const usage = events.filter((event) => event.type === 'usage');
    expect(usage).toHaveLength(2);
    expect(usage[1]).toMatchObject({ total: agent.usage });
    expect(agent.usage.output_tokens).toBeGreaterThan(0);
    expect(events.at(-1)).toEqual({ type: 'turn_end', outcome: 'done', stopReason: 'end_turn' });
  });

  it('stops a streaming turn with stop(): aborted kind, the history stays as before the turn', async () => {
    const claude = createScriptedClaude([{ text: 'A long answer that streams slowly.' }], { delayMs: 40 });
    const events: MemoryAgentEvent[] = [];
    const agent = createMemoryAgent({ tool, apiKey: 'k', fetch: claude.fetch, maxRetries: 0, onEvent: (e) => events.push(e) });
    agent.subscribe((event) => {
      if (event.type === 'text') agent.stop();
    });

    expect(await kindOf(agent.send('tell me a story'))).toBe('aborted');
    expect(agent.running).toBe(false);
    expect(agent.messages).toEqual([]);
    expect(events.slice(-2)).toEqual([
      { type: 'error', error: expect.objectContaining({ kind: 'aborted', title: 'Stopped' }) as unknown },
      { type: 'turn_end', outcome: 'aborted', stopReason: null },
    ]);
  });

  it('stops with the caller’s signal and keeps the finished tool round trips', async () => {
    const controller = new AbortController();
    const { agent, claude } = agentWith([
      { toolUses: [{ input: { command: 'create', path: NOTE, file_text: 'x' } }] },
      () => {
        controller.abort();
        return { text: 'never read' };
      },
      { text: 'Saved.' },
    ]);

    expect(await kindOf(agent.send('save x', { signal: controller.signal }))).toBe('aborted');
    expect(agent.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(await tool.view({ command: 'view', path: NOTE })).toContain('x');

    // The next turn goes on from the tool result, in the same user message.
    await agent.send('and then?');
    expect(claude.requests.at(-1)?.messages?.at(-1)).toMatchObject({
      role: 'user',
      content: [{ type: 'tool_result' }, { type: 'text', text: 'and then?' }],
    });
  });

  it('tells 401, 403, 429, 529 and a dead network apart, after the SDK retries', async () => {
    const cases: Array<[number, string, string]> = [
      [401, 'authentication_error', 'auth'],
      [403, 'permission_error', 'permission'],
      [429, 'rate_limit_error', 'rate_limit'],
      [529, 'overloaded_error', 'overloaded'],
      [500, 'api_error', 'other'],
    ];
    for (const [status, type, kind] of cases) {
      const failing = failingFetch(status, type);
      const agent = createMemoryAgent({ tool, apiKey: 'k', fetch: failing.fetch, maxRetries: 1 });
      expect(await kindOf(agent.send('hi')), `status ${status}`).toBe(kind);
      // 429 and 5xx are retried once (maxRetries: 1); 401 and 403 are not.
      expect(failing.calls(), `calls for ${status}`).toBe(status === 401 || status === 403 ? 1 : 2);
    }

    const down = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    const agent = createMemoryAgent({ tool, apiKey: 'k', fetch: down, maxRetries: 0 });
    // In a browser a request with no answer may be a CORS refusal; in Node it is the network.
    const inBrowser = typeof (globalThis as { navigator?: { onLine?: unknown } }).navigator?.onLine === 'boolean';
    expect(await kindOf(agent.send('hi'))).toBe(inBrowser ? 'permission' : 'network');
  });

  it('describes errors in plain words, by status, name and environment', () => {
    const connection = Object.assign(new Error('Connection error.'), { name: 'APIConnectionError' });
    expect(describeAgentError(connection, { browser: true, online: false }).kind).toBe('network');
    expect(describeAgentError(connection, { browser: false }).kind).toBe('network');
    expect(describeAgentError(connection, { browser: true, online: true })).toMatchObject({
      kind: 'permission',
      message: expect.stringContaining('CORS') as unknown,
    });
    expect(describeAgentError(new DOMException('x', 'AbortError')).kind).toBe('aborted');
    expect(describeAgentError(Object.assign(new Error('t'), { name: 'APIConnectionTimeoutError' }))).toMatchObject({
      kind: 'network',
      title: 'Timed out',
    });
    const auth = new Anthropic.AuthenticationError(401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }, undefined, new Headers({ 'request-id': 'req_1' }));
    expect(describeAgentError(auth)).toMatchObject({ kind: 'auth', title: 'Bad API key', status: 401, apiMessage: 'invalid x-api-key', requestId: 'req_1', retryable: false });
    expect(describeAgentError('boom')).toMatchObject({ kind: 'other', message: 'boom' });
    // An error type off the wire that names an Object.prototype member is no known stream error.
    expect(describeAgentError(Object.assign(new Error('odd'), { type: 'toString' }))).toMatchObject({ kind: 'other', message: 'odd', retryable: false });
  });

  it('tells a dropped answer from one that never came, and a missing key, in both SDK versions’ shapes', () => {
    const fetchError = (message: string) => new TypeError(message);
    const connection = (cause: unknown) => Object.assign(new Error('Connection error.'), { name: 'APIConnectionError', cause });
    // SDK 1.16: the stream's AnthropicError around fetch's own TypeError; any engine's words for a broken-off body.
    for (const words of ['terminated', 'network error', 'Error in body stream', 'NetworkError when attempting to fetch resource.', 'Load failed']) {
      const old = Object.assign(new Error(words), { name: 'AnthropicError', cause: fetchError(words) });
      expect(describeAgentError(old, { browser: true, online: true }), words).toMatchObject({ kind: 'network', title: 'Connection dropped' });
    }
    // SDK 1.17: an APIConnectionError whichever it was. Words only a broken-off body gets tell it alone...
    for (const words of ['terminated', 'network error', 'Error in body stream']) {
      expect(describeAgentError(connection(fetchError(words)), { browser: true, online: true }), words).toMatchObject({ title: 'Connection dropped' });
    }
    // ...Firefox's and Safari's words may mean a request that got no answer (CORS), so only `answered` tells.
    const ambiguous = connection(fetchError('Load failed'));
    expect(describeAgentError(ambiguous, { browser: true, online: true })).toMatchObject({ kind: 'permission', title: 'No answer (blocked?)' });
    expect(describeAgentError(ambiguous, { browser: true, online: true, answered: true })).toMatchObject({ kind: 'network', title: 'Connection dropped' });
    expect(describeAgentError(connection(fetchError('terminated')), { browser: false, answered: false })).toMatchObject({ title: 'Network down' });

    const noKey = 'Could not resolve authentication method. Expected one of apiKey, authToken, credentials, config, or profile to be set.';
    for (const error of [Object.assign(new Error(noKey), { name: 'CredentialsError' }), new Error(noKey), Object.assign(new Error(noKey), { name: 'AnthropicError' })]) {
      expect(describeAgentError(error)).toMatchObject({ kind: 'auth', title: 'No API key', message: expect.stringMatching(/^No key to send: pass apiKey, or a proxy baseURL/) as unknown, retryable: false });
    }
  });

  it('tells a body that broke off after the headers as a dropped connection, in a page as in Node', async () => {
    const claude = createScriptedClaude([{ text: 'Hello there, this answer breaks off.' }]);
    // The first chunk of the real answer, then Safari's words for a body that broke off (also its words for no answer).
    const cut = (async (...args: Parameters<typeof globalThis.fetch>) => {
      const response = await claude.fetch(...args);
      const reader = response.body!.getReader();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { value } = await reader.read();
          if (value) controller.enqueue(value);
          controller.error(new TypeError('Load failed'));
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    }) as typeof globalThis.fetch;
    const agent = createMemoryAgent({ tool, apiKey: 'k', fetch: cut, maxRetries: 0 });
    const error: unknown = await agent.send('hi').catch((e: unknown) => e);
    // SDK 1.17 wraps it in an APIConnectionError: that the headers came is what tells it from no answer at all.
    expect(isMemoryAgentError(error) && error.description).toMatchObject({ kind: 'network', title: 'Connection dropped', retryable: true });
  });

  it('sends the key as the SDK does, with the browser-access header, and only in headers', async () => {
    const { agent, claude } = agentWith([{ text: 'hi' }], { apiKey: 'sk-ant-secret-123' });
    await agent.send('hello');
    const [request] = claude.requests;
    expect(request?.headers['authorization']).toBe('Bearer sk-ant-secret-123');
    expect(request?.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
    const { headers, ...body } = request ?? { headers: {} };
    void headers;
    expect(JSON.stringify(body)).not.toContain('sk-ant-secret-123');
  });

  it('sends no key header at all through a proxy', async () => {
    const claude = createScriptedClaude([{ text: 'hi' }]);
    const seen: string[] = [];
    const spy = ((input: RequestInfo | URL, init?: RequestInit) => {
      seen.push(new Request(input, init).url);
      return claude.fetch(input, init);
    }) as typeof fetch;
    const agent = createMemoryAgent({ tool, baseURL: 'http://127.0.0.1:9/anthropic/', fetch: spy, maxRetries: 0 });
    await agent.send('hello');
    const headers = claude.requests[0]?.headers ?? {};
    expect(headers['authorization']).toBeUndefined();
    expect(headers['x-api-key']).toBeUndefined();
    expect(seen[0]).toMatch(/^http:\/\/127\.0\.0\.1:9\/anthropic\/v1\/messages(\?|$)/);
  });

  it('refuses a missing connection, a relative proxy URL and a busy send()', async () => {
    expect(() => createMemoryAgent({ tool })).toThrow(/apiKey.*baseURL.*client/);
    expect(() => createMemoryAgent({ tool, baseURL: '/anthropic' })).toThrow(/absolute URL/);
    // The SDK's runner would take 0 as no cap at all.
    for (const maxIterations of [0, -1, 1.5]) {
      expect(() => createMemoryAgent({ tool, apiKey: 'k', maxIterations })).toThrow(`\`maxIterations\` must be a positive integer, got ${maxIterations}`);
    }
    expect(() => createMemoryAgent({ tool, apiKey: 'k', maxTokens: 0 })).toThrow(/`maxTokens` must be a positive integer/);
    const claude = createScriptedClaude([{ text: 'slow' }], { delayMs: 20 });
    const agent = createMemoryAgent({ tool, apiKey: 'k', fetch: claude.fetch, maxRetries: 0 });
    const first = agent.send('one');
    await expect(agent.send('two')).rejects.toThrow(/already running/);
    await first;
  });

  it('counts the input read from and written to the prompt cache apart, over every request', async () => {
    const claude = createScriptedClaude([{ toolUses: [{ input: { command: 'view', path: '/memories' } }] }, { text: 'done' }]);
    // The scripted API reports no cache use: add it to each reply's usage, as the real API words it.
    const fetch = (async (...args: Parameters<typeof globalThis.fetch>) => {
      const text = await (await claude.fetch(...args)).text();
      const cached = text.replace('"usage":{"input_tokens":', '"usage":{"cache_read_input_tokens":7,"cache_creation_input_tokens":3,"input_tokens":');
      return new Response(cached, { headers: { 'content-type': 'text/event-stream' } });
    }) as typeof globalThis.fetch;
    const agent = createMemoryAgent({ tool, apiKey: 'k', fetch, maxRetries: 0 });
    await agent.send('look');
    expect(agent.usage).toMatchObject({ cache_read_input_tokens: 14, cache_creation_input_tokens: 6 });
    expect(agent.usage.input_tokens).toBeGreaterThan(0);
  });

  it('uses a ready client as given', async () => {
    const claude = createScriptedClaude([{ text: 'from my client' }]);
    const client = new Anthropic({ apiKey: 'own', fetch: claude.fetch, dangerouslyAllowBrowser: true });
    const agent = createMemoryAgent({ tool, client, model: 'claude-opus-4-1', maxTokens: 123, system: 'Be brief.' });
    expect(agent.client).toBe(client);
    await agent.send('hi');
    expect(claude.requests[0]).toMatchObject({ model: 'claude-opus-4-1', max_tokens: 123, system: 'Be brief.' });
  });

  it('sends context_management when asked, with the API defaults or the given edit', async () => {
    const plain = agentWith([{ text: 'a' }]);
    await plain.agent.send('x');
    expect(plain.claude.requests[0]).not.toHaveProperty('context_management');
    // The memory tool is generally available: no beta header unless context editing is on.
    expect(plain.claude.requests[0]?.headers['anthropic-beta'] ?? '').not.toContain('context-management');

    const on = agentWith([{ text: 'a' }], { contextManagement: true });
    await on.agent.send('x');
    expect(on.claude.requests[0]?.context_management).toEqual({ edits: [{ type: 'clear_tool_uses_20250919' }] });
    expect(on.claude.requests[0]?.headers['anthropic-beta']).toContain('context-management-2025-06-27');

    const tuned = agentWith([{ text: 'a' }], {
      contextManagement: { trigger: { type: 'input_tokens', value: 30000 }, keep: { type: 'tool_uses', value: 2 } },
    });
    await tuned.agent.send('x');
    expect(tuned.claude.requests[0]?.context_management).toEqual({
      edits: [
        {
          type: 'clear_tool_uses_20250919',
          trigger: { type: 'input_tokens', value: 30000 },
          keep: { type: 'tool_uses', value: 2 },
        },
      ],
    });
  });

  it('stops at maxIterations and goes on from the unanswered tool results next time', async () => {
    const view = { toolUses: [{ input: { command: 'view', path: '/memories' } }] };
    const { agent, claude } = agentWith([view, view, { text: 'done' }], { maxIterations: 1 });
    const turn = await agent.send('look');
    expect(turn.outcome).toBe('max_iterations');
    expect(agent.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);

    await agent.send('go on');
    const sent = claude.requests[1]?.messages ?? [];
    const last = sent.at(-1);
    expect(last?.role).toBe('user');
    expect(Array.isArray(last?.content) && last.content.map((block) => block.type)).toEqual(['tool_result', 'text']);
  });

  it('runs no tool call that max_tokens cut off, and answers it as not run so the conversation can go on', async () => {
    const { agent, claude, events } = agentWith([
      { text: 'Writing', toolUses: [{ input: { command: 'create', path: NOTE, file_text: 'half' } }], stopReason: 'max_tokens' },
      { text: 'Let me try again.' },
    ]);
    const turn = await agent.send('write');
    expect(turn.outcome).toBe('done');
    expect(turn.message.stop_reason).toBe('max_tokens');
    expect(events.some((event) => event.type === 'tool_result')).toBe(false);
    expect((await tool.run({ command: 'view', path: NOTE })).is_error).toBe(true);
    // The API refuses a history with a tool_use no tool_result answers: the cut call gets an error result.
    const [, reply, answer] = agent.messages;
    const callId = Array.isArray(reply?.content) ? reply.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []))[0] : undefined;
    expect(callId).toBeDefined();
    expect(answer).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: callId, is_error: true, content: expect.stringMatching(/^Not run: the reply was cut off/) as unknown }],
    });
    await agent.send('go on');
    expect(claude.requests[1]?.messages?.at(-1)).toMatchObject({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: callId, is_error: true }, { type: 'text', text: 'go on' }],
    });
  });

  it('keeps no text of a failed turn that went on from tool results an iteration cap left unanswered', async () => {
    const view = { toolUses: [{ input: { command: 'view', path: '/memories' } }] };
    const claude = createScriptedClaude([view, { text: 'done' }]);
    let calls = 0;
    const fetch = (async (...args: Parameters<typeof globalThis.fetch>) =>
      ++calls === 2 ? createErrorResponse(429, 'rate_limit_error', 'slow down') : claude.fetch(...args)) as typeof globalThis.fetch;
    const agent = createMemoryAgent({ tool, apiKey: 'k', fetch, maxRetries: 0, maxIterations: 1 });
    await agent.send('look');
    const before = agent.messages;
    expect(before.at(-1)?.role).toBe('user');
    // The text was merged into the last message (the tool results): the history must not keep that message so.
    expect(await kindOf(agent.send('first try'))).toBe('rate_limit');
    expect(agent.messages).toEqual(before);
  });

  it('keeps the round trip of tools that ran before a stop, and runs none once stopped', async () => {
    for (const at of ['tool_result', 'usage'] as const) {
      const { agent } = agentWith([{ toolUses: [{ input: { command: 'create', path: `/memories/${at}.md`, file_text: 'plan' } }] }, { text: 'Saved.' }]);
      const stop = agent.subscribe((event) => {
        if (event.type === at) agent.stop();
      });
      expect(await kindOf(agent.send('save my plan'))).toBe('aborted');
      stop();
      const written = !(await tool.run({ command: 'view', path: `/memories/${at}.md` })).is_error;
      if (at === 'tool_result') {
        // The write is done: Claude must hear of it next time, so the call and its result stay.
        expect(written).toBe(true);
        expect(agent.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
      } else {
        // Stopped as the reply came in, before its call ran: nothing written, nothing kept.
        expect(written).toBe(false);
        expect(agent.messages).toEqual([]);
      }
    }
  });

  it('is idle at turn_end: a listener can send the next message from there', async () => {
    const { agent, events } = agentWith([{ text: 'one' }, { text: 'two' }]);
    let queued: Promise<unknown> | undefined;
    let runningAtEnd: boolean | undefined;
    const stop = agent.subscribe((event) => {
      if (event.type !== 'turn_end' || queued) return;
      runningAtEnd = agent.running;
      queued = agent.send('queued');
    });
    await agent.send('first');
    stop();
    expect(runningAtEnd).toBe(false);
    await expect(queued).resolves.toMatchObject({ text: 'two' });
    expect(events.filter((event) => event.type === 'turn_start' || event.type === 'turn_end').map((event) => event.type)).toEqual([
      'turn_start',
      'turn_end',
      'turn_start',
      'turn_end',
    ]);
  });
});
