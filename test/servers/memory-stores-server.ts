// A loopback Memory Stores API (`client.beta.memoryStores` of @anthropic-ai/sdk) for tests and benchmarks, to be driven
// through the real SDK client: `new Anthropic({ apiKey: 'test', baseURL: server.url })`. Node-only (node:http). The
// rules live in memory-stores/ (model.ts: the calls; paths.ts: the path rules; requests.ts: paging and refusals).
//
// Not covered: workspaces (`anthropic-workspace-id` is logged, never checked); listing, updating, archiving and
// deleting stores, and an archived store's read-only rule; the versions listing's `created_at`,
// actor and session filters, version retention and any version cap; rate limits and overload beyond `fail()`;
// request size limits; the sessions endpoints (test/sync/sdk-session-sync.node.test.ts hands the SDK's own
// SessionMemoryStores a session object, and runs its download and syncs here); message wording. Undocumented, so
// guessed here: the count limit answers 400 invalid_request_error, a create with `content: null` is refused, versions
// list newest first, redacting a version already redacted answers it unchanged, redacting a live memory's current
// version leaves the memory's own content as it is, a `limit` over 100 is refused (with `view=full`, up to 100 is capped to 20), no answer sends
// `x-should-retry`, and a request whose caller gave up during `latencyMs` is still carried out (the service may well
// do the same).

import { Buffer } from 'node:buffer';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { MemoryStoresModel, type Store } from './memory-stores/model.js';
import { ApiRefusal, type Body, type ErrorObject, type Query } from './memory-stores/requests.js';

/** One request as it arrived (OPTIONS and refused ones too). */
export interface LoggedRequest {
  method: string;
  /** The URL's path, e.g. `/v1/memory_stores/memstore_…/memories`. */
  path: string;
  query: Query;
  /** Lower-case names. */
  headers: Record<string, string>;
}

/** An answer `fail()` gives instead of the real one. */
export interface InjectedFailure {
  status: number;
  /** The error's `type`; by default the API's for the status (`rate_limit_error`, `api_error`, …). */
  type?: ErrorObject['type'];
  /** How many requests in a row it answers (OPTIONS aside); 1 by default. */
  times?: number;
  /** Sent as `retry-after` (seconds or a date), as given. */
  retryAfter?: string;
  /** Sent as `retry-after-ms`. A 429 or 5xx sends 1 unless `retryAfter` is given: the SDK's own retry comes at once. */
  retryAfterMs?: number;
}

/**
 * Plays a hostile or broken service: called for each request a route answers, with `answer()` giving the real body
 * (or throwing the real refusal); what it returns is sent instead, with status 200.
 */
export type Tamper = (request: LoggedRequest, answer: () => unknown) => unknown;

export interface MemoryStoresServerOptions {
  /** Every answer waits this long first (a benchmark's round trip). Changeable later through the handle. */
  latencyMs?: number;
  /** Memories per store; 2,000 by default, as the service. */
  maxMemories?: number;
  /** UTF-8 bytes per memory; 102,400 by default, as the service. */
  maxContentBytes?: number;
  /** Items in a page when the call gives no `limit`; 20 by default. */
  pageSize?: number;
  /** The one key accepted (`x-api-key` or `Authorization: Bearer`); any non-empty key by default. */
  apiKey?: string;
}

export interface MemoryStoresServer {
  /** e.g. `http://127.0.0.1:54321`: the SDK client's `baseURL`. */
  readonly url: string;
  /** Every request received, in order; `reset()` empties it. */
  readonly requests: LoggedRequest[];
  /** The delay before each answer, in ms. */
  latencyMs: number;
  /** The service's state, for a test to seed, inspect, or play another writer without HTTP. */
  readonly api: MemoryStoresModel;
  /** A new, empty store (no request). */
  createStore(name?: string): Store;
  /** Empties the request log and drops failures not yet given. */
  reset(): void;
  /** Answers the next request(s) with `next` instead. */
  fail(next: InjectedFailure): void;
  /** Sends what `tamper` makes of each answer from now on (undefined: the real answers again). */
  tamper(tamper: Tamper | undefined): void;
  /** Stops listening and cuts every open connection. */
  close(): Promise<void>;
}

const BETAS = ['agent-memory-2026-07-22', 'managed-agents-2026-04-01'];

const ERROR_TYPES: Record<number, ErrorObject['type']> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'conflict_error',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'request-id, retry-after, retry-after-ms',
};

type Handler = (params: string[], body: Body, query: Query) => unknown;

/** The API's routes: method, path pattern (ids captured), and the model call that answers. */
function routesOf(model: MemoryStoresModel): [string, RegExp, Handler][] {
  const stores = '^/v1/memory_stores';
  const memories = `${stores}/([^/]+)/memories`;
  const versions = `${stores}/([^/]+)/memory_versions`;
  const at = (id: string | undefined): string => id ?? '';
  return [
    ['POST', new RegExp(`${stores}$`), (_, body) => model.createStore(body)],
    ['GET', new RegExp(`${stores}/([^/]+)$`), ([store]) => model.retrieveStore(at(store))],
    ['POST', new RegExp(`${memories}$`), ([store], body, query) => model.createMemory(at(store), body, query)],
    ['GET', new RegExp(`${memories}$`), ([store], _, query) => model.listMemories(at(store), query)],
    [
      'GET',
      new RegExp(`${memories}/([^/]+)$`),
      ([store, id], _, query) => model.retrieveMemory(at(store), at(id), query),
    ],
    [
      'POST',
      new RegExp(`${memories}/([^/]+)$`),
      ([store, id], body, query) => model.updateMemory(at(store), at(id), body, query),
    ],
    [
      'DELETE',
      new RegExp(`${memories}/([^/]+)$`),
      ([store, id], _, query) => model.deleteMemory(at(store), at(id), query),
    ],
    ['GET', new RegExp(`${versions}$`), ([store], _, query) => model.listVersions(at(store), query)],
    [
      'GET',
      new RegExp(`${versions}/([^/]+)$`),
      ([store, id], _, query) => model.retrieveVersion(at(store), at(id), query),
    ],
    ['POST', new RegExp(`${versions}/([^/]+)/redact$`), ([store, id]) => model.redactVersion(at(store), at(id))],
  ];
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(text: string): Body {
  if (text === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    throw ApiRefusal.invalid('The request body is not valid JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw ApiRefusal.invalid('The request body must be a JSON object.');
  return body as Body;
}

/** Why the request's credentials are refused, or undefined. */
function authProblem(headers: Record<string, string>, apiKey: string | undefined): string | undefined {
  const key = headers['x-api-key'] ?? /^Bearer (.+)$/i.exec(headers.authorization ?? '')?.[1];
  if (key === undefined || key === '') return 'Send an API key in x-api-key or Authorization: Bearer.';
  return apiKey === undefined || key === apiKey ? undefined : 'invalid x-api-key';
}

/** Start the server on 127.0.0.1 at a free port. */
export async function startMemoryStoresServer(options: MemoryStoresServerOptions = {}): Promise<MemoryStoresServer> {
  const api = new MemoryStoresModel({
    maxMemories: options.maxMemories ?? 2000,
    maxContentBytes: options.maxContentBytes ?? 102_400,
    pageSize: options.pageSize ?? 20,
  });
  const routes = routesOf(api);
  const requests: LoggedRequest[] = [];
  let failures: InjectedFailure[] = [];
  let tampering: Tamper | undefined;
  let answered = 0;

  const send = (res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void => {
    answered += 1;
    const requestId = `req_loopback${String(answered).padStart(6, '0')}`;
    const payload = status >= 400 ? { type: 'error', error: body, request_id: requestId } : body;
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': requestId, ...CORS, ...extra });
    res.end(JSON.stringify(payload));
  };

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://loopback');
    const method = (req.method ?? 'GET').toUpperCase();
    const headers = headersOf(req);
    const text = await readText(req);
    const logged: LoggedRequest = { method, path: url.pathname, query: Object.fromEntries(url.searchParams), headers };
    requests.push(logged);
    if (handle.latencyMs > 0) await sleep(handle.latencyMs);

    if (method === 'OPTIONS') {
      res.writeHead(204, {
        ...CORS,
        'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
        // Whatever the page asks to send (the SDK's x-stainless-* and anthropic-* headers among them).
        'access-control-allow-headers': headers['access-control-request-headers'] ?? '*',
        'access-control-max-age': '600',
      });
      res.end();
      return;
    }
    const failure = failures[0];
    if (failure) {
      if ((failure.times ?? 1) <= 1) failures.shift();
      else failures[0] = { ...failure, times: (failure.times ?? 1) - 1 };
      const retryable = failure.status === 429 || failure.status >= 500;
      const extra: Record<string, string> = {};
      if (failure.retryAfter !== undefined) extra['retry-after'] = failure.retryAfter;
      const retryAfterMs = failure.retryAfterMs ?? (retryable && failure.retryAfter === undefined ? 1 : undefined);
      if (retryAfterMs !== undefined) extra['retry-after-ms'] = String(retryAfterMs);
      const type = failure.type ?? ERROR_TYPES[failure.status] ?? 'api_error';
      send(res, failure.status, { type, message: `Injected failure: ${failure.status} ${type}.` }, extra);
      return;
    }

    try {
      const auth = authProblem(headers, options.apiKey);
      if (auth !== undefined) throw new ApiRefusal(401, { type: 'authentication_error', message: auth });
      const betas = (headers['anthropic-beta'] ?? '').split(',').map((beta) => beta.trim());
      if (!BETAS.some((beta) => betas.includes(beta))) {
        throw ApiRefusal.invalid(`This endpoint is in beta: send anthropic-beta: ${BETAS[0]}.`);
      }
      for (const [routeMethod, pattern, handler] of routes) {
        const match = pattern.exec(url.pathname);
        if (routeMethod !== method || !match) continue;
        const params = match.slice(1).map((param) => decodeURIComponent(param));
        const real = () => handler(params, parseBody(text), Object.fromEntries(url.searchParams));
        send(res, 200, tampering === undefined ? real() : tampering(logged, real));
        return;
      }
      throw new ApiRefusal(404, { type: 'not_found_error', message: `No route ${method} ${url.pathname}.` });
    } catch (error) {
      if (!(error instanceof ApiRefusal)) throw error;
      send(res, error.status, error.error);
    }
  };

  const server = createServer((req, res) => {
    answer(req, res).catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else send(res, 500, { type: 'api_error', message: `The loopback server failed: ${String(error)}` });
    });
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

  let closing: Promise<void> | undefined;
  const handle: MemoryStoresServer = {
    url: `http://127.0.0.1:${port}`,
    requests,
    latencyMs: options.latencyMs ?? 0,
    api,
    createStore: (name = 'loopback store') => api.createStore({ name }),
    reset() {
      requests.length = 0;
      failures = [];
      tampering = undefined;
    },
    fail(next) {
      failures.push(next);
    },
    tamper(tamper) {
      tampering = tamper;
    },
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
  return handle;
}
