import Anthropic, { APIUserAbortError, AuthenticationError, NotFoundError } from '@anthropic-ai/sdk';
import { betaTool } from '@anthropic-ai/sdk/helpers/beta/json-schema';
import type { BetaRunnableTool } from '@anthropic-ai/sdk/lib/tools/BetaRunnableTool';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedResponse } from '../../src/offline/responses.js';
import { SCRIPT_FINISHED_TEXT, createScriptedClaude, type ScriptedRequest } from '../../src/offline/scripted-claude.js';
import type { ScriptedTurn } from '../../src/offline/wire-message.js';
import { engine } from '../helpers/engine.js';
import type { MessagesApiServer, startMessagesApiServer } from '../helpers/messages-api-server.js';

const model = 'claude-test-model';
/** The server tests need `node:http`; the rest also run in the browser projects. */
const inNode = engine === 'node';

/** A real SDK client; `dangerouslyAllowBrowser` lets the same tests run in a page. */
function newClient(options: { fetch?: typeof fetch; baseURL?: string; maxRetries?: number }): Anthropic {
  return new Anthropic({ apiKey: 'test', dangerouslyAllowBrowser: true, ...options });
}
const hello = [{ role: 'user' as const, content: 'Hello' }];

/** A stand-in for the memory tool: answers `ran <command> <path>`. */
function echoTool(): BetaRunnableTool<{ command: string; path: string }> {
  return betaTool({
    name: 'memory',
    description: 'Echoes the command it was given.',
    inputSchema: {
      type: 'object',
      properties: { command: { type: 'string' }, path: { type: 'string' } },
      required: ['command', 'path'],
      additionalProperties: false,
    },
    run: ({ command, path }) => `ran ${command} ${path}`,
  });
}

/** Two tool turns, the second made from the result of the first, then a closing text turn. */
function twoToolTurns(): Array<ScriptedTurn | ((request: ScriptedRequest) => ScriptedTurn)> {
  return [
    { text: 'Let me look.', toolUses: [{ input: { command: 'view', path: '/memories' } }] },
    (request) => {
      const last = request.messages?.at(-1);
      const block = Array.isArray(last?.content) ? last.content[0] : undefined;
      const seen = block?.type === 'tool_result' && typeof block.content === 'string' ? block.content : '?';
      return { toolUses: [{ input: { command: 'create', path: `/memories/${seen.split(' ')[1]}.md` } }] };
    },
    { text: 'All done.' },
  ];
}

describe('createScriptedClaude with the real SDK', () => {
  it('answers create() with a JSON message the SDK parses', async () => {
    const scripted = createScriptedClaude([
      { text: 'Looking.', toolUses: [{ input: { command: 'view', path: '/memories' } }] },
    ]);
    const client = newClient({ fetch: scripted.fetch });

    const message = await client.beta.messages.create({ model, max_tokens: 100, messages: hello });

    expect(message).toMatchObject({
      id: 'msg_scripted_0',
      type: 'message',
      role: 'assistant',
      model,
      stop_reason: 'tool_use',
      stop_sequence: null,
      content: [
        { type: 'text', text: 'Looking.' },
        { type: 'tool_use', id: 'toolu_scripted_1', name: 'memory', input: { command: 'view', path: '/memories' } },
      ],
    });
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
    expect(message._request_id).toBe('req_scripted_0');
    expect(scripted.requests).toHaveLength(1);
    expect(scripted.requests[0]).toMatchObject({ model, max_tokens: 100, messages: hello });
    // SDK 1.16 sends `apiKey` as a bearer token, not as `x-api-key`.
    expect(scripted.requests[0]?.headers['authorization']).toBe('Bearer test');
    expect(scripted.requests[0]?.headers['anthropic-version']).toBeTypeOf('string');
  });

  it('streams with stream(): text deltas arrive and finalMessage() has the tool_use input', async () => {
    const input = { command: 'str_replace', path: '/memories/notes.md', old_str: 'a "quoted" ✓', new_str: 'b' };
    const scripted = createScriptedClaude([{ text: 'I will edit the notes now.', toolUses: [{ input }] }]);
    const client = newClient({ fetch: scripted.fetch });

    const deltas: string[] = [];
    const jsonChunks: string[] = [];
    const stream = client.beta.messages
      .stream({ model, max_tokens: 100, messages: hello })
      .on('text', (delta) => deltas.push(delta))
      .on('inputJson', (partial) => jsonChunks.push(partial));
    const message = await stream.finalMessage();

    expect(scripted.requests[0]?.stream).toBe(true);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('I will edit the notes now.');
    expect(jsonChunks.length).toBeGreaterThan(1);
    expect(JSON.parse(jsonChunks.join(''))).toEqual(input);
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toEqual([
      { type: 'text', text: 'I will edit the notes now.' },
      { type: 'tool_use', id: 'toolu_scripted_1', name: 'memory', input },
    ]);
  });

  it('sends the real event sequence (create with stream: true)', async () => {
    const scripted = createScriptedClaude([{ text: 'Hi', toolUses: [{ input: { command: 'view', path: '/' } }] }]);
    const client = newClient({ fetch: scripted.fetch });

    const stream = await client.beta.messages.create({ model, max_tokens: 100, messages: hello, stream: true });
    const types: string[] = [];
    for await (const event of stream) {
      types.push(event.type === 'content_block_delta' ? `${event.type}:${event.delta.type}` : event.type);
    }

    expect(types[0]).toBe('message_start');
    expect(types.at(-2)).toBe('message_delta');
    expect(types.at(-1)).toBe('message_stop');
    expect(types).toContain('content_block_delta:text_delta');
    expect(types).toContain('content_block_delta:input_json_delta');
    expect(types.filter((type) => type === 'content_block_start')).toHaveLength(2);
    expect(types.filter((type) => type === 'content_block_stop')).toHaveLength(2);
    expect(types).not.toContain('ping'); // sent, but the SDK drops it
  });

  it('builds a standalone Response with createScriptedResponse', async () => {
    const response = createScriptedResponse(
      { toolUses: [{ input: { a: 1 } }, { name: 'other', input: { b: 2 }, id: 'toolu_mine' }] },
      { model, index: 4, toolUseNumber: 7 },
    );
    expect(response.headers.get('request-id')).toBe('req_scripted_4');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toMatchObject({
      id: 'msg_scripted_4',
      stop_reason: 'tool_use',
      content: [
        { type: 'tool_use', id: 'toolu_scripted_7', name: 'memory', input: { a: 1 } },
        { type: 'tool_use', id: 'toolu_mine', name: 'other', input: { b: 2 } },
      ],
    });

    const streamed = createScriptedResponse({ text: 'x', stopReason: 'max_tokens' }, { stream: true });
    expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await streamed.text();
    expect(text.startsWith('event: message_start\ndata: {')).toBe(true);
    expect(text).toContain('"stop_reason":"max_tokens"');
    expect(text.endsWith('event: message_stop\ndata: {"type":"message_stop"}\n\n')).toBe(true);
  });

  it('answers "(script finished)" once the script is exhausted, and 404 elsewhere', async () => {
    const scripted = createScriptedClaude([]);
    const client = newClient({ fetch: scripted.fetch, maxRetries: 0 });

    const message = await client.beta.messages.create({ model, max_tokens: 100, messages: hello });
    expect(message.stop_reason).toBe('end_turn');
    expect(message.content).toEqual([{ type: 'text', text: SCRIPT_FINISHED_TEXT }]);

    const error = await client.models.list().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, type: 'not_found_error' });
    expect(scripted.requests).toHaveLength(1);
  });

  for (const stream of [false, true]) {
    it(`runs two tool turns through toolRunner (stream: ${stream})`, async () => {
      const scripted = createScriptedClaude(twoToolTurns(), { delayMs: stream ? 1 : 0 });
      const client = newClient({ fetch: scripted.fetch });

      const runner = client.beta.messages.toolRunner({
        model,
        max_tokens: 100,
        messages: [{ role: 'user', content: 'Remember this.' }],
        tools: [echoTool()],
        stream,
      });
      const stopReasons: Array<string | null> = [];
      for await (const item of runner) {
        const message = 'finalMessage' in item ? await item.finalMessage() : item;
        stopReasons.push(message.stop_reason);
      }
      const final = await runner.done();

      expect(stopReasons).toEqual(['tool_use', 'tool_use', 'end_turn']);
      expect(final.content).toEqual([{ type: 'text', text: 'All done.' }]);
      expect(scripted.requests).toHaveLength(3);
      expect(scripted.requests.map((request) => request.stream === true)).toEqual([stream, stream, stream]);
      // The runner threads by default: later turns continue from the reply's id and send only the new messages.
      expect(scripted.requests[1]).toMatchObject({
        thread: { type: 'continue', previous_message_id: 'msg_scripted_0' },
        messages: [{ role: 'user' }],
      });
      expect(scripted.toolResults()).toEqual([
        { tool_use_id: 'toolu_scripted_1', content: 'ran view /memories' },
        { tool_use_id: 'toolu_scripted_2', content: 'ran create /memories/view.md' },
      ]);
    });
  }

  it('lists each tool result once when the runner re-sends the whole history (thread: false)', async () => {
    const scripted = createScriptedClaude(twoToolTurns());
    const client = newClient({ fetch: scripted.fetch });

    await client.beta.messages
      .toolRunner({ model, max_tokens: 100, messages: hello, tools: [echoTool()], thread: false })
      .runUntilDone();

    expect(scripted.requests.map((request) => request.messages?.length)).toEqual([1, 3, 5]);
    expect(scripted.toolResults().map((result) => result.tool_use_id)).toEqual([
      'toolu_scripted_1',
      'toolu_scripted_2',
    ]);
  });

  it('stops a delayed stream when the SDK aborts it', async () => {
    const scripted = createScriptedClaude([{ text: 'one two three four five six' }], { delayMs: 20 });
    const client = newClient({ fetch: scripted.fetch });

    const stream = client.beta.messages.stream({ model, max_tokens: 100, messages: hello });
    const deltas: string[] = [];
    stream.on('text', (delta) => {
      deltas.push(delta);
      stream.abort();
    });
    await expect(stream.finalMessage()).rejects.toThrow(APIUserAbortError);
    expect(deltas).toHaveLength(1);
  });

  it('reports tool errors with is_error', async () => {
    const scripted = createScriptedClaude([{ toolUses: [{ name: 'missing', input: {} }] }, { text: 'ok' }]);
    const client = newClient({ fetch: scripted.fetch });

    await client.beta.messages
      .toolRunner({ model, max_tokens: 100, messages: hello, tools: [echoTool()] })
      .runUntilDone();

    expect(scripted.toolResults()).toEqual([
      { tool_use_id: 'toolu_scripted_1', content: "Error: Tool 'missing' not found", is_error: true },
    ]);
  });
});

describe.runIf(inNode)('startMessagesApiServer (Node only: an HTTP server on loopback)', () => {
  let server: MessagesApiServer | undefined;
  let start: typeof startMessagesApiServer;
  beforeAll(async () => {
    // Imported here so that a browser run never loads node:http.
    ({ startMessagesApiServer: start } = await import('../helpers/messages-api-server.js'));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('serves the scripted answers to the SDK at baseURL and records the requests', async () => {
    server = await start([{ text: 'From the server.' }, { text: 'Streamed.' }]);
    const client = newClient({ baseURL: server.url });

    const message = await client.beta.messages.create({ model, max_tokens: 100, messages: hello });
    expect(message.content).toEqual([{ type: 'text', text: 'From the server.' }]);
    expect(message._request_id).toBe('req_scripted_0');

    const deltas: string[] = [];
    const streamed = await client.beta.messages
      .stream({ model, max_tokens: 100, messages: hello })
      .on('text', (delta) => deltas.push(delta))
      .finalMessage();
    expect(streamed.content).toEqual([{ type: 'text', text: 'Streamed.' }]);
    expect(deltas.join('')).toBe('Streamed.');

    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      url: '/v1/messages',
      headers: { authorization: 'Bearer test', 'content-type': 'application/json' },
      body: { model, max_tokens: 100, messages: hello },
    });
    expect(server.requests[1]?.body).toMatchObject({ stream: true });
  });

  it('runs the tool runner against the server, streaming', async () => {
    server = await start(twoToolTurns());
    const client = newClient({ baseURL: server.url });

    const final = await client.beta.messages
      .toolRunner({ model, max_tokens: 100, messages: hello, tools: [echoTool()], stream: true })
      .runUntilDone();

    expect(final.content).toEqual([{ type: 'text', text: 'All done.' }]);
    expect(server.toolResults()).toEqual([
      { tool_use_id: 'toolu_scripted_1', content: 'ran view /memories' },
      { tool_use_id: 'toolu_scripted_2', content: 'ran create /memories/view.md' },
    ]);
  });

  it('answers a CORS preflight with 204 and the allowed headers', async () => {
    server = await start([]);
    const response = await fetch(`${server.url}/v1/messages?beta=true`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-api-key, anthropic-version, X-Stainless-Os',
      },
    });

    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(response.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    const allowed = response.headers.get('access-control-allow-headers')?.split(', ') ?? [];
    expect(allowed).toEqual(
      expect.arrayContaining([
        'authorization',
        'x-api-key',
        'anthropic-version',
        'anthropic-beta',
        'anthropic-dangerous-direct-browser-access',
        'content-type',
        'x-stainless-os',
      ]),
    );
    expect(response.headers.get('access-control-expose-headers')).toContain('request-id');
    expect(server.requests).toEqual([expect.objectContaining({ method: 'OPTIONS', body: undefined })]);

    const plain = await fetch(`${server.url}/v1/messages`, { method: 'POST', body: '{}' });
    expect(plain.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('failNext(401) makes the SDK throw AuthenticationError without using up a turn', async () => {
    server = await start([{ text: 'After the failure.' }]);
    const client = newClient({ baseURL: server.url });
    server.failNext(401);

    const error = await client.beta.messages.create({ model, max_tokens: 100, messages: hello }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, type: 'authentication_error' });

    const message = await client.beta.messages.create({ model, max_tokens: 100, messages: hello });
    expect(message.content).toEqual([{ type: 'text', text: 'After the failure.' }]);
    expect(server.requests).toHaveLength(2);
  });

  it('failNext(429) and failNext(529) are retried by the SDK at once', async () => {
    server = await start([{ text: 'Finally.' }]);
    // What the SDK was told to wait, read off the answers it got (no clock: a busy machine must not fail this).
    const waits: (string | null)[] = [];
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!response.ok) waits.push(response.headers.get('retry-after-ms'));
      return response;
    };
    const client = newClient({ baseURL: server.url, maxRetries: 2, fetch: recording });
    server.failNext(429);
    server.failNext(529);

    const message = await client.beta.messages.create({ model, max_tokens: 100, messages: hello });
    expect(message.content).toEqual([{ type: 'text', text: 'Finally.' }]);
    expect(server.requests).toHaveLength(3);
    expect(server.requests[1]?.headers['x-stainless-retry-count']).toBe('1');
    expect(waits).toEqual(['1', '1']);
  });

  it('stops streaming when the client goes away mid-stream', async () => {
    server = await start([{ text: 'one two three four five six' }, { text: 'next' }], { delayMs: 20 });
    const client = newClient({ baseURL: server.url });

    const stream = client.beta.messages.stream({ model, max_tokens: 100, messages: hello });
    stream.on('text', () => stream.abort());
    await expect(stream.finalMessage()).rejects.toThrow(APIUserAbortError);

    const message = await client.beta.messages.create({ model, max_tokens: 100, messages: hello });
    expect(message.content).toEqual([{ type: 'text', text: 'next' }]);
  });

  it('close() resolves while the client holds a keep-alive connection', async () => {
    server = await start([{ text: 'One.' }]);
    const client = newClient({ baseURL: server.url });
    await client.beta.messages.create({ model, max_tokens: 100, messages: hello });

    await server.close();
    await server.close(); // twice is fine
    await expect(fetch(`${server.url}/v1/messages`, { method: 'POST', body: '{}' })).rejects.toThrow();
  });
});
