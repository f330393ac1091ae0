// A failed message told so the person knows what to do: the URL tried, and what the browser lets the page tell
// apart. fetch() fails with one TypeError for a closed port, a missing network and a CORS refusal alike, so
// `navigator.onLine` and a no-cors probe of the server (which any answer satisfies, CORS or not) separate them.

import type { AgentErrorDescription } from '../../src/entries/agent.js';
import type { Problem } from './transcript.js';

/** The request a failure is about: what the SDK asked for, and the status if an answer came. */
export interface Attempt {
  method: string;
  url: string;
  status?: number;
}

export interface RecordingFetch {
  fetch: typeof fetch;
  /** The last request made, and its status once answered. */
  last(): Attempt | undefined;
}

/** A fetch for the SDK that notes its last request, so a failure can name the URL it tried. */
export function recordingFetch(): RecordingFetch {
  let last: Attempt | undefined;
  const recording = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : undefined;
    const attempt: Attempt = {
      method: init?.method ?? request?.method ?? 'GET',
      url: request?.url ?? String(input),
    };
    last = attempt;
    const response = await globalThis.fetch(input, init);
    attempt.status = response.status;
    return response;
  };
  return { fetch: recording, last: () => last };
}

/** How the page was connected when it failed. */
export interface Route {
  /** A key typed into the page (else a proxy adds one). */
  ownKey: boolean;
  /** The dev server's own proxy (`npm run dev` with ANTHROPIC_API_KEY). */
  devProxy: boolean;
}

const API_ORIGIN = 'https://api.anthropic.com';
const OR_OFFLINE = 'or play the Offline demo, which needs none.';

/** What the SDK error says, told with the URL tried and the way on; a probe may refine it (see {@link probe}). */
export function explainFailure(
  error: AgentErrorDescription,
  cause: unknown,
  tried: Attempt | undefined,
  route: Route,
): Problem {
  const url = tried ? `${tried.method} ${tried.url}` : 'the API';
  const detail = error.apiMessage ? { detail: error.apiMessage } : {};
  const base: Problem = { kind: error.kind, title: error.title, lines: [error.message], ...detail };
  if (error.kind === 'aborted') return base;
  const said = causeText(cause);
  const unreached = proxyCouldNotReach(error, cause);
  if (unreached !== undefined) {
    // The dev proxy (../vite/anthropic-dev-proxy.ts) names why the API was out of its reach: said as it is.
    const where = route.devProxy ? "this machine's network (and ANTHROPIC_PROXY_TARGET, if set)" : 'the network of the proxy';
    const lines = [`${url} answered ${error.status ?? 502} from the proxy: ${unreached}`, `Check ${where}, then Send again — ${OR_OFFLINE}`];
    return { kind: 'network', title: 'The proxy could not reach the API', lines, offerOffline: true };
  }
  switch (error.status) {
    case 401: {
      const whose = route.ownKey ? 'the key typed in Connection' : 'the key the proxy adds';
      const check = route.ownKey
        ? 'Check that it is whole and has not been revoked, or clear it to use a proxy.'
        : route.devProxy
          ? 'Check the key the dev server was started with (ANTHROPIC_API_KEY), then restart it.'
          : 'Check the key the proxy is set up with, or type a key of your own in Connection.';
      return { ...base, lines: [`${url} answered 401: the API did not accept ${whose}.`, check] };
    }
    case 403:
      // The dev server's guard (../vite/anthropic-dev-proxy.ts) answers in its own words, which say why.
      if (/Refused: the dev server's API proxy/u.test(said)) {
        const why = said.replace(/^403\s*/u, '').trim();
        const open = 'Open the demo at the address npm run dev printed.';
        const lines = [`${url} was refused by the dev server: ${why}`, open];
        return { ...base, title: 'Refused by the dev server', lines };
      }
      return { ...base, lines: [`${url} answered 403. ${error.message}`] };
    case 404:
      return {
        ...base,
        title: 'Not found (404)',
        lines: [
          `${url} answered 404: nothing there forwards to the Messages API.`,
          'Check the Proxy URL: it is the base the API would have (e.g. http://localhost:8080 or /anthropic), ' +
            'without /v1/messages.',
        ],
      };
  }
  if (noAnswer(error)) {
    if (!navigator.onLine) {
      const lines = [`This browser is offline, so ${url} was not reached.`, `Connect, then Send again — ${OR_OFFLINE}`];
      return { kind: 'network', title: 'No network', lines, offerOffline: true };
    }
    const lines = [`${url} got no answer. Checking whether anything answers there…`];
    return { kind: 'network', title: `No answer from ${originOf(tried)}`, lines };
  }
  return tried ? { ...base, lines: [...base.lines, `(${url})`] } : base;
}

/** An `error` the browser had no answer for: the no-cors probe can tell more. */
export function needsProbe(error: AgentErrorDescription): boolean {
  return noAnswer(error) && navigator.onLine;
}

/**
 * Asks `tried`'s server for anything at all (no-cors: an answer without CORS headers still counts) and says what
 * the failure was: nothing listening, or an answer the browser kept from the page.
 */
export async function probe(tried: Attempt | undefined): Promise<Problem> {
  const url = tried ? `${tried.method} ${tried.url}` : 'The request';
  const origin = originOf(tried);
  let answers: boolean;
  try {
    const signal = AbortSignal.timeout(5_000);
    await fetch(`${origin}/`, { mode: 'no-cors', cache: 'no-store', credentials: 'omit', signal });
    answers = true;
  } catch {
    answers = false;
  }
  const direct = origin === API_ORIGIN;
  if (!answers) {
    const none = `${url} got no answer, nor did a plain request to ${origin}:`;
    return {
      kind: 'network',
      title: `Nothing answers at ${origin}`,
      lines: direct
        ? [
            `${none} this network cannot reach the API (no way out, a name that does not resolve, or a firewall).`,
            `Check the network and press Send again — ${OR_OFFLINE}`,
          ]
        : [
            `${none} no server listens there (a closed port or a wrong address).`,
            origin === location.origin
              ? 'The server of this page has stopped: start it again (npm run dev) and reload.'
              : 'Start the proxy, or correct the Proxy URL.',
          ],
      offerOffline: true,
    };
  }
  return {
    kind: 'permission',
    title: 'Blocked by the browser (CORS)',
    lines: [
      `${origin} answers, but the browser kept its answer to ${url} from this page: the server does not allow ` +
        `calls from ${location.origin}.`,
      direct
        ? 'Check that your organization allows the API to be called from a browser, or use a proxy that adds the key.'
        : 'The proxy must answer the preflight (OPTIONS) and send Access-Control-Allow-Origin for this page.',
    ],
  };
}

/** No status and not a drop, a timeout or a stop: the request got no answer at all. */
function noAnswer(error: AgentErrorDescription): boolean {
  if (error.status !== undefined) return false;
  // describeAgentError's titles for a connection that broke off mid-answer, or took too long: an answer began.
  if (error.title === 'Connection dropped' || error.title === 'Timed out') return false;
  return error.kind === 'permission' || error.kind === 'network';
}

function originOf(tried: Attempt | undefined): string {
  try {
    return new URL(tried?.url ?? API_ORIGIN).origin;
  } catch {
    return API_ORIGIN;
  }
}

/**
 * The dev proxy's words when it could not reach the API (a 502 or 504 whose body is the API's error shape with type
 * `proxy_error`), else undefined. The SDK's error, the cause, carries the type; its message says "Could not reach".
 */
function proxyCouldNotReach(error: AgentErrorDescription, cause: unknown): string | undefined {
  if ((error.status !== 502 && error.status !== 504) || error.apiMessage === undefined) return undefined;
  const type = typeof cause === 'object' && cause !== null ? Reflect.get(cause, 'type') : undefined;
  return type === 'proxy_error' || error.apiMessage.startsWith('Could not reach ') ? error.apiMessage : undefined;
}

function causeText(cause: unknown): string {
  return cause instanceof Error ? cause.message : typeof cause === 'string' ? cause : '';
}
