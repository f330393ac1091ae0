// The SDK client of a memory agent, made from how the page connects: a key it holds, a proxy that holds the
// key (so the page sends none), or a client made elsewhere. Keeps the key only inside the client, in memory.

import { Anthropic } from '@anthropic-ai/sdk';

/** How the agent reaches the Messages API. Give `apiKey`, `baseURL` (a proxy), or `client`. */
export interface AgentConnection {
  /** Sent by the SDK from the page (`Authorization: Bearer …`), with `anthropic-dangerous-direct-browser-access`. */
  apiKey?: string | undefined;
  /** An absolute URL in place of `https://api.anthropic.com`; without `apiKey`, a proxy that adds the key. */
  baseURL?: string | undefined;
  /** A ready client; `apiKey`, `baseURL`, `fetch` and `maxRetries` are then not allowed. */
  client?: Anthropic | undefined;
  /** In place of the global `fetch`, e.g. `createScriptedClaude(turns).fetch` to run offline. */
  fetch?: typeof fetch | undefined;
  /** The SDK's retries of 408/409/429/5xx and connection errors. Default: the SDK's (2). */
  maxRetries?: number | undefined;
}

const AUTH_HEADERS = ['authorization', 'x-api-key'];

/** The client for `connection`; throws a TypeError when the connection is missing or contradictory. */
export function createAgentClient(connection: AgentConnection): Anthropic {
  const { apiKey, baseURL, client, fetch: customFetch, maxRetries } = connection;
  if (client) {
    if (apiKey !== undefined || baseURL !== undefined || customFetch !== undefined || maxRetries !== undefined) {
      throw new TypeError('Pass `client` alone, or `apiKey`/`baseURL`/`fetch`/`maxRetries` without it.');
    }
    return client;
  }
  if (apiKey !== undefined && apiKey.trim() === '') throw new TypeError('`apiKey` is empty.');
  if (apiKey === undefined && baseURL === undefined) {
    throw new TypeError('Give `apiKey`, `baseURL` (a proxy that adds the key) or `client`.');
  }
  if (baseURL !== undefined) checkAbsolute(baseURL);

  const shared = {
    // The page is the browser this warns about; the key (if any) is the person's own, typed into it.
    dangerouslyAllowBrowser: true,
    ...(baseURL !== undefined ? { baseURL: baseURL.replace(/\/+$/, '') } : {}),
    ...(maxRetries !== undefined ? { maxRetries } : {}),
  };
  if (apiKey !== undefined) {
    return new Anthropic({ ...shared, apiKey: apiKey.trim(), ...(customFetch ? { fetch: customFetch } : {}) });
  }
  // Proxy mode: no key read from the environment, none meant, none sent (README.md, "The key").
  const base = customFetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  return new Anthropic({
    ...shared,
    apiKey: null,
    authToken: null,
    defaultHeaders: { Authorization: null, 'X-Api-Key': null },
    fetch: withoutAuthHeaders(base),
  });
}

function withoutAuthHeaders(base: typeof fetch): typeof fetch {
  return (input: RequestInfo | URL, init?: RequestInit) => {
    if (!init?.headers) return base(input, init);
    const headers = new Headers(init.headers);
    for (const name of AUTH_HEADERS) headers.delete(name);
    return base(input, { ...init, headers });
  };
}

function checkAbsolute(baseURL: string): void {
  try {
    new URL(baseURL);
  } catch {
    throw new TypeError(
      `\`baseURL\` must be an absolute URL (got ${JSON.stringify(baseURL)}); resolve a path such as "/anthropic" ` +
        'against the page first: new URL("/anthropic", location.href).href',
    );
  }
}
