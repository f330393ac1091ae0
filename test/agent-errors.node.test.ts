// describeAgentError on what a real HTTP server on loopback can do to a turn after (or instead of) the API's
// answer: an error event inside a stream it has started, a proxy's HTML page, a page where the stream should be,
// and a connection that drops mid-stream. Node-only (a server); the status cases are in agent.test.ts.

import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IndexedDBMemoryTool, createMemoryAgent, isMemoryAgentError } from '../src/index.js';
import type { AgentErrorDescription } from '../src/index.js';

let tool: IndexedDBMemoryTool;
const closers: Array<() => void> = [];
beforeEach(async () => {
  tool = await IndexedDBMemoryTool.init({ dbName: `agent-errors-${crypto.randomUUID()}` });
});
afterEach(() => {
  tool.close();
  for (const close of closers.splice(0)) close();
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

async function failureOf(baseURL: string): Promise<AgentErrorDescription> {
  const agent = createMemoryAgent({ tool, baseURL, maxRetries: 0 });
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

  it('tells a connection that dropped mid-stream as the network, worth trying again', async () => {
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(MESSAGE_START + TEXT_STARTED);
      setTimeout(() => res.destroy(), 20);
    });
    expect(await failureOf(url)).toMatchObject({ kind: 'network', title: 'Connection dropped', retryable: true });
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
});
