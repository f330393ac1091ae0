// A real HTTP server on 127.0.0.1 that plays the Messages API from a script (src/offline/scripted-claude.ts), with CORS,
// request recording and scripted failures, for tests that need a URL (browsers, `baseURL`). Node-only.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createErrorResponse } from '../../src/offline/responses.js';
import {
  createScriptedClaude,
  type ReceivedToolResult,
  type ScriptedClaudeOptions,
  type ScriptedStep,
} from '../../src/offline/scripted-claude.js';

/** One HTTP request the server received, whatever its method or path. */
export interface RecordedRequest {
  method: string;
  /** Path and query as sent, e.g. `/v1/messages?beta=true`. */
  url: string;
  /** Lower-case names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** The body parsed as JSON, else its text; `undefined` when empty. */
  body: unknown;
}

/** Statuses `failNext` knows the API's error `type` for; any other status answers `api_error`. */
export type FailureStatus = 400 | 401 | 403 | 404 | 413 | 429 | 500 | 529 | (number & {});

export interface MessagesApiServer {
  /** e.g. `http://127.0.0.1:54321`: pass as `baseURL`. */
  url: string;
  /** Every request received, OPTIONS and failed ones included, in order. */
  requests: RecordedRequest[];
  /** Every `tool_result` block the scripted turns received (see `ScriptedClaude.toolResults`). */
  toolResults(): ReceivedToolResult[];
  /**
   * Answer the next `times` requests (not OPTIONS) with `status` in the API's error shape, without using up a
   * turn. 429 and 5xx carry `retry-after: 0` and `retry-after-ms: 1`, so the SDK's retries come at once.
   */
  failNext(status: FailureStatus, times?: number): void;
  /** Each request (OPTIONS too) as `METHOD path: state`, the state one of received, answering, answered, failed. */
  progress(): string;
  /** Stop listening and destroy every open socket. */
  close(): Promise<void>;
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

const ALLOWED_HEADERS = [
  'authorization',
  'x-api-key',
  'anthropic-version',
  'anthropic-beta',
  'anthropic-dangerous-direct-browser-access',
  'content-type',
];

const EXPOSED_HEADERS = 'request-id, retry-after, retry-after-ms';

/** Headers that describe the connection rather than the request, left out of the request handed to the fake. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade', 'expect']);

function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function corsHeaders(req: IncomingMessage): Record<string, string> {
  const origin = req.headers.origin;
  return origin ?
      { 'access-control-allow-origin': origin, vary: 'Origin', 'access-control-expose-headers': EXPOSED_HEADERS }
    : { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED_HEADERS };
}

function preflightHeaders(req: IncomingMessage): Record<string, string> {
  const requested = (req.headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  return {
    ...corsHeaders(req),
    'access-control-allow-methods': 'POST, OPTIONS',
    'access-control-allow-headers': [...new Set([...ALLOWED_HEADERS, ...requested])].join(', '),
    'access-control-max-age': '600',
  };
}

/** Write `response` to `res`, streaming its body; a client that goes away aborts `abort`. */
async function pipeResponse(
  response: Response,
  res: ServerResponse,
  extraHeaders: Record<string, string>,
  abort: AbortController,
): Promise<void> {
  const headers: Record<string, string> = { ...extraHeaders };
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.on('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
    res.end();
  } catch {
    // Aborted or failed mid-body: cut the connection, as a dropped stream would.
    res.destroy();
  }
}

/** Start a Messages API server on 127.0.0.1 (a free port) that answers with `turns`, as `createScriptedClaude` does. */
export async function startMessagesApiServer(
  turns: ScriptedStep[],
  options: ScriptedClaudeOptions = {},
): Promise<MessagesApiServer> {
  const scripted = createScriptedClaude(turns, options);
  const requests: RecordedRequest[] = [];
  const failures: number[] = [];
  const sockets = new Set<Socket>();
  let url = '';

  const states: string[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = (req.method ?? 'GET').toUpperCase();
    const path = req.url ?? '/';
    const at = states.push(`${method} ${path}: received`) - 1;
    res.on('close', () => (states[at] = `${method} ${path}: ${res.writableFinished ? 'answered' : 'failed'}`));
    const headers = headersOf(req);
    const text = await readBody(req);
    requests.push({ method, url: path, headers, body: parseBody(text) });
    states[at] = `${method} ${path}: answering`;

    if (method === 'OPTIONS') {
      res.writeHead(204, preflightHeaders(req));
      res.end();
      return;
    }

    const abort = new AbortController();
    const failure = failures.shift();
    let response: Response;
    if (failure !== undefined) {
      const retryable = failure === 429 || failure >= 500;
      response = createErrorResponse(
        failure,
        ERROR_TYPES[failure] ?? 'api_error',
        `Scripted failure: ${failure}`,
        retryable ? { 'retry-after': '0', 'retry-after-ms': '1' } : {},
      );
    } else {
      const forwarded = new Headers();
      for (const [name, value] of Object.entries(headers)) {
        if (!HOP_BY_HOP.has(name)) forwarded.set(name, value);
      }
      const hasBody = method !== 'GET' && method !== 'HEAD';
      response = await scripted.fetch(new URL(path, url), {
        method,
        headers: forwarded,
        ...(hasBody ? { body: text } : {}),
        signal: abort.signal,
      });
    }
    await pipeResponse(response, res, corsHeaders(req), abort);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(500, { 'content-type': 'application/json', ...corsHeaders(req) });
      res.end(
        JSON.stringify({ type: 'error', error: { type: 'api_error', message: `Scripted server failed: ${String(error)}` } }),
      );
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // A test that forgets close() must not keep the process alive.
  server.unref();
  const { port } = server.address() as AddressInfo;
  url = `http://127.0.0.1:${port}`;

  let closing: Promise<void> | undefined;
  return {
    url,
    requests,
    toolResults: () => scripted.toolResults(),
    failNext(status, times = 1) {
      for (let i = 0; i < times; i++) failures.push(status);
    },
    progress: () => states.join('; ') || 'no request',
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}
