// describeAgentError on what a real HTTP server on loopback can do to a turn after (or instead of) the API's
// answer: an error event inside a stream it has started, a proxy's HTML page, a page where the stream should be,
// a connection that drops mid-stream or before any answer, and a client with no key. Node-only (a server); the
// status cases are in agent.test.ts. Run against the oldest SDK the peer range allows too (npm run test:sdk-oldest).

import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IndexedDBMemoryTool } from '../../src/index.js';
import { createMemoryAgent, isMemoryAgentError } from '../../src/entries/agent.js';
import type { AgentErrorDescription, MemoryAgentOptions } from '../../src/entries/agent.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';

let tool: IndexedDBMemoryTool;
const closers: Array<() => void> = [];
const open = toolsClosedAfterEach('agent-errors');
beforeEach(async () => {
  tool = await open();
});
afterEach(() => {
  for (const close of closers.splice(0)) close();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

/** A server on 127.0.0.1 that answers every request with `answer`, after reading the body. */
async function serve(answer: (res: ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
const MESSAGE_START = event('message_start', {
  type: 'message_start',
  message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } },
});
const TEXT_STARTED =
  event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }) +
  event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } });

/** Where describeAgentError runs: Node, or (as far as it can tell) a browser that says it is online. */
const PLACES: ReadonlyArray<readonly [string, () => void]> = [
  ['in Node', () => {}],
  // Node 20 has no navigator; a browser's (and its workers') has `onLine`, which is how a browser is told apart.
  ['in a browser', inBrowser],
];

function inBrowser(): void {
  vi.stubGlobal('navigator', { onLine: true });
}

async function failureOf(baseURL: string, connection: Omit<MemoryAgentOptions, 'tool'> = { baseURL, maxRetries: 0 }): Promise<AgentErrorDescription> {
  const agent = createMemoryAgent({ tool, ...connection });
  const error = await agent.send('hi').then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isMemoryAgentError(error)) throw new Error(`expected a MemoryAgentError, got ${String(error)}`);
  // A failed turn keeps no half of itself.
  expect(agent.messages).toEqual([]);
  return error.description;
}

describe('errors after the answer began', () => {
  it.each([
    ['overloaded_error', { kind: 'overloaded', retryable: true, message: expect.stringMatching(/overloaded while it was answering/) }],
    ['rate_limit_error', { kind: 'rate_limit', retryable: true }],
    ['api_error', { kind: 'other', retryable: true, message: expect.stringMatching(/failed while it was answering/) }],
  ])('tells an %s event inside a started stream by its type (it has no status)', async (type, expected) => {
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': 'req_stream' });
      res.end(MESSAGE_START + TEXT_STARTED + event('error', { type: 'error', error: { type, message: 'Overloaded' } }));
    });
    const description = await failureOf(url);
    expect(description).toMatchObject(expected);
    expect(description.status).toBeUndefined();
  });

  // SDK 1.17 wraps the broken-off body in an APIConnectionError, which alone reads as a request with no answer.
  it.each(PLACES)('tells a connection that dropped mid-stream as dropped %s, worth trying again', async (_place, enter) => {
    enter();
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(MESSAGE_START + TEXT_STARTED);
      setTimeout(() => res.destroy(), 20);
    });
    expect(await failureOf(url)).toMatchObject({
      kind: 'network',
      title: 'Connection dropped',
      message: 'The connection dropped while Claude was answering. Check the network and try again.',
      retryable: true,
    });
  });

  it('tells a drop in a later request of the turn (after a tool round trip) as dropped too', async () => {
    let requests = 0;
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (requests++ === 0) {
        const call = { type: 'tool_use', id: 'toolu_1', name: 'memory', input: { command: 'view', path: '/memories' } };
        res.end(
          MESSAGE_START +
            event('content_block_start', { type: 'content_block_start', index: 0, content_block: call }) +
            event('content_block_stop', { type: 'content_block_stop', index: 0 }) +
            event('message_delta', { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 9 } }) +
            event('message_stop', { type: 'message_stop' }),
        );
        return;
      }
      res.write(MESSAGE_START + TEXT_STARTED);
      setTimeout(() => res.destroy(), 20);
    });
    inBrowser();
    const agent = createMemoryAgent({ tool, baseURL: url, maxRetries: 0 });
    const error: unknown = await agent.send('hi').catch((e: unknown) => e);
    expect(isMemoryAgentError(error) && error.description).toMatchObject({ kind: 'network', title: 'Connection dropped' });
    expect(requests).toBe(2);
  });
});

describe('no answer at all', () => {
  it.each([
    ['in Node', () => {}, { kind: 'network', title: 'Network down' }],
    ['in a browser', inBrowser, { kind: 'permission', title: 'No answer (blocked?)' }],
  ] as const)('tells a connection closed before any answer %s as no answer, not as dropped', async (_place, enter, expected) => {
    enter();
    const url = await serve((res) => res.destroy());
    expect(await failureOf(url)).toMatchObject({ ...expected, retryable: true });
  });
});

describe('a client with no key', () => {
  it("tells an app's own keyless client (SDK 1.17: CredentialsError) that it has no key, and sends nothing", async () => {
    // The SDK would take a key or profile from the environment; this client has none to find.
    const empty = await mkdtemp(join(tmpdir(), 'no-anthropic-config-'));
    closers.push(() => void rm(empty, { recursive: true, force: true }));
    for (const name of ['API_KEY', 'AUTH_TOKEN', 'PROFILE', 'IDENTITY_TOKEN', 'IDENTITY_TOKEN_FILE', 'FEDERATION_RULE_ID']) {
      vi.stubEnv(`ANTHROPIC_${name}`, undefined);
    }
    vi.stubEnv('ANTHROPIC_CONFIG_DIR', empty);
    let requests = 0;
    const url = await serve((res) => {
      requests++;
      res.writeHead(500).end();
    });
    const client = new Anthropic({ baseURL: url, maxRetries: 0 });
    expect(await failureOf(url, { client })).toEqual({
      kind: 'auth',
      title: 'No API key',
      message: 'No key to send: pass apiKey, or a proxy baseURL that adds the key (a client of your own needs its own apiKey).',
      retryable: false,
    });
    expect(requests).toBe(0);
  });
});

describe('a server that is not the API', () => {
  it("names a proxy's HTML error page by its title, never shows the page", async () => {
    const page = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>';
    const url = await serve((res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end(page);
    });
    const description = await failureOf(url);
    expect(description).toMatchObject({ kind: 'other', status: 502, retryable: true });
    expect(description.message).toBe('The server answered 502 ("502 Bad Gateway"), not the API: with a proxy, check that it is running and forwards to the API.');
  });

  it('keeps the API\'s own words when it sent them', async () => {
    const url = await serve((res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: too large' } }));
    });
    expect(await failureOf(url)).toMatchObject({ status: 400, message: 'The API answered 400: max_tokens: too large', retryable: false });
  });

  it('says so when a web page comes back where the stream should be (a proxy path falling back to the app)', async () => {
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><html><body>app</body></html>');
    });
    expect(await failureOf(url)).toMatchObject({ kind: 'other', title: 'Not the API', message: expect.stringMatching(/not with a stream from the API/) });
  });

  it('says so when a web page comes back where a reply not streamed should be (`stream: false`)', async () => {
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><html><body>app</body></html>');
    });
    const description = await failureOf(url, { baseURL: url, maxRetries: 0, stream: false });
    expect(description).toMatchObject({ kind: 'other', title: 'Not the API', message: expect.stringMatching(/not with a message from the API/) });
    expect(description.message).not.toContain('<');

    // JSON, but not a message: a proxy's own answer.
    const json = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":"ok"}');
    });
    expect(await failureOf(json, { baseURL: json, maxRetries: 0, stream: false })).toMatchObject({ title: 'Not the API' });
  });
});
