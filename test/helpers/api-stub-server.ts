// A small HTTP server on 127.0.0.1 for what the scripted Messages API server (messages-api-server.ts) does not
// play: the model list (GET /v1/models) and an answer whose connection drops mid-stream. It answers CORS as the
// API does, so the demo on another origin can call it, and records every request. Node-only.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request the stub received. */
export interface StubRequest {
  method: string;
  /** Path and query, e.g. `/v1/models?limit=100`. */
  url: string;
  /** Lower-case names. */
  headers: Record<string, string>;
}

export interface ApiStub {
  /** e.g. `http://127.0.0.1:54321`: pass as `baseURL` or the demo's Proxy URL. */
  url: string;
  /** Every request but CORS preflights, in order. */
  requests: StubRequest[];
  /** Drops the connection of every `dropMidStream` answer begun so far (the test calls it once the page showed it). */
  drop(): void;
  close(): Promise<void>;
}

/** A model as `GET /v1/models` lists it (the fields the SDK's `ModelInfo` needs for the demo). */
export interface ListedModel {
  id: string;
  display_name: string;
  lifecycle?: 'active' | 'deprecated';
}

export interface StubRoutes {
  /** Answers `GET /v1/models` with these, in one page. */
  models?: ListedModel[];
  /**
   * Answers `POST /v1/messages` with a stream that starts (`message_start`, then `text`) and is left open until
   * `drop()` drops the connection, as a network that fails mid-answer does. The test drops it once the page shows the
   * text, not after a delay: on a busy machine the page may not have read it yet.
   */
  dropMidStream?: { text: string };
}

const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

function cors(req: IncomingMessage): Record<string, string> {
  return {
    'access-control-allow-origin': req.headers.origin ?? '*',
    vary: 'Origin',
    'access-control-expose-headers': 'request-id, retry-after, retry-after-ms',
  };
}

function notFound(res: ServerResponse, headers: Record<string, string>, what: string): void {
  res.writeHead(404, { ...headers, 'content-type': 'application/json' });
  res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `Not found: ${what}` } }));
}

function listModels(res: ServerResponse, headers: Record<string, string>, models: ListedModel[]): void {
  const data = models.map(({ id, display_name, lifecycle = 'active' }) => ({
    type: 'model',
    id,
    display_name,
    created_at: '2026-01-01T00:00:00Z',
    lifecycle,
    deprecated_at: lifecycle === 'deprecated' ? '2026-06-01T00:00:00Z' : null,
    capabilities: null,
  }));
  res.writeHead(200, { ...headers, 'content-type': 'application/json', 'request-id': 'req_stub_models' });
  res.end(JSON.stringify({ data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null }));
}

function beginStream(res: ServerResponse, headers: Record<string, string>, text: string): void {
  res.writeHead(200, { ...headers, 'content-type': 'text/event-stream', 'request-id': 'req_stub_drop' });
  const message = { id: 'msg_stub', type: 'message', role: 'assistant', model: 'claude-stub', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } };
  res.write(
    event('message_start', { type: 'message_start', message }) +
      event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }) +
      event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }),
  );
}

/** Starts the stub on a free port of 127.0.0.1; anything `routes` does not name gets the API's 404. */
export async function startApiStub(routes: StubRoutes): Promise<ApiStub> {
  const requests: StubRequest[] = [];
  const sockets = new Set<Socket>();
  const begun = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const headers = cors(req);
    const method = (req.method ?? 'GET').toUpperCase();
    if (method === 'OPTIONS') {
      res.writeHead(204, {
        ...headers,
        'access-control-allow-methods': 'GET, POST, OPTIONS',
        'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '',
      });
      res.end();
      return;
    }
    const url = req.url ?? '/';
    const recorded: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) recorded[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    requests.push({ method, url, headers: recorded });
    req.resume();
    req.on('end', () => {
      const path = new URL(url, 'http://stub').pathname;
      if (method === 'GET' && path === '/v1/models' && routes.models) listModels(res, headers, routes.models);
      else if (method === 'POST' && path === '/v1/messages' && routes.dropMidStream) {
        begun.add(res);
        beginStream(res, headers, routes.dropMidStream.text);
      }
      else notFound(res, headers, `${method} ${url}`);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // A test that forgets close() must not keep the process alive.
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    drop: () => {
      for (const res of begun) res.destroy();
      begun.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
