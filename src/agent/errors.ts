// Why a turn failed, in plain words: the SDK's errors sorted into a few `kind`s a page can act on (the rules are
// in README.md, "Errors"). All of the agent's error wording lives here; none of it holds a key or a header.

/** What went wrong, as a page would tell it apart. */
export type AgentErrorKind =
  /** 401: the key (or a proxy's) was refused; or the client had no key to send at all. */
  | 'auth'
  /** 403, or a browser that got no answer at all (most likely CORS). */
  | 'permission'
  /** 429 after the SDK's retries. */
  | 'rate_limit'
  /** 529 after the SDK's retries. */
  | 'overloaded'
  /** No connection: offline, DNS, refused, timed out, or dropped while Claude was answering. */
  | 'network'
  /** Stopped by `agent.stop()` or the caller's signal. */
  | 'aborted'
  | 'other';

/** An error told in words for a person, with what a program needs to branch on. */
export interface AgentErrorDescription {
  /** What went wrong, for a program to branch on. */
  kind: AgentErrorKind;
  /** A few words, e.g. "Bad API key". */
  title: string;
  /** One or two sentences: what happened and what to do. */
  message: string;
  /** The HTTP status, when an answer came. */
  status?: number;
  /** The API's own error message, when it sent one. */
  apiMessage?: string;
  /** The answer's `request-id`, for a support request. */
  requestId?: string;
  /** Whether trying the same thing again later may work. */
  retryable: boolean;
}

/** Where the error happened, when guessing from `navigator` is not wanted (tests, workers). */
export interface AgentErrorContext {
  /** A browser enforces CORS, so an unanswered request may be a blocked one. Default: `navigator.onLine` exists. */
  browser?: boolean | undefined;
  /** Default: `navigator.onLine`, else `true`. */
  online?: boolean | undefined;
  /** Whether the answer's headers had come: a connection error is then a drop, never a refusal. */
  answered?: boolean | undefined;
}

const WORDING: Record<AgentErrorKind, { title: string; message: string; retryable: boolean }> = {
  auth: {
    title: 'Bad API key',
    message:
      'The API did not accept the key (401). Check that it is a whole, valid key that has not been revoked; ' +
      'with a proxy, check the key the proxy adds.',
    retryable: false,
  },
  permission: {
    title: 'Access refused',
    message: 'The API refused this request (403): the key is not allowed to use this model or feature.',
    retryable: false,
  },
  rate_limit: {
    title: 'Rate limited',
    message:
      'Too many requests or tokens for this key right now (429), even after retrying. Wait a minute and try again.',
    retryable: true,
  },
  overloaded: {
    title: 'Claude is overloaded',
    message: 'The API is overloaded right now (529), even after retrying. Try again in a little while.',
    retryable: true,
  },
  network: {
    title: 'Network down',
    message: 'Could not reach the API: the network is down or the server cannot be reached. Check the connection.',
    retryable: true,
  },
  aborted: {
    title: 'Stopped',
    message: 'The turn was stopped before it finished.',
    retryable: true,
  },
  other: {
    title: 'Something went wrong',
    message: 'The request failed.',
    retryable: false,
  },
};

const BLOCKED_MESSAGE =
  'The browser got no answer from the API. Either it blocked the request (CORS: the server or proxy does not ' +
  'allow calls from this page) or the server cannot be reached. With a direct key, check that browser access is ' +
  'allowed for your organization; with a proxy, check that it is running.';

const TIMEOUT_MESSAGE = 'The API did not answer in time, even after retrying. Try again.';

/** Errors the API sends inside a stream it has started (no status, no retry): their kind and words. */
const STREAM_ERRORS: Record<string, { kind: AgentErrorKind; message: string; retryable?: boolean }> = {
  overloaded_error: {
    kind: 'overloaded',
    message: 'The API became overloaded while it was answering. Try again in a little while.',
  },
  rate_limit_error: {
    kind: 'rate_limit',
    message: 'The key hit its rate limit while the API was answering. Wait a minute and try again.',
  },
  api_error: { kind: 'other', message: 'The API failed while it was answering. Try again.', retryable: true },
};

// fetch's own words in its TypeError: Node's, Chromium's and Firefox's for a body that broke off; then Firefox's
// and Safari's, which may also mean a request that got no answer at all.
const BODY_BROKE_OFF = /^(?:terminated|network error|error in body stream)/iu;
const BODY_OR_REQUEST_FAILED = /^(?:networkerror|load failed)/iu;

const DROPPED_MESSAGE = 'The connection dropped while Claude was answering. Check the network and try again.';

/** The SDK's words for a client with no credential (a plain `Error` up to 1.16, a `CredentialsError` from 1.17). */
const NO_CREDENTIALS = /^Could not resolve authentication method/u;

const NO_KEY_MESSAGE =
  'No key to send: pass apiKey, or a proxy baseURL that adds the key (a client of your own needs its own apiKey).';

/** The SDK's words for a 200 answer that held no event stream: a proxy or server answering with a page instead. */
const NO_STREAM = /ended without sending any chunks/u;

const NO_STREAM_MESSAGE =
  'The server answered, but not with a stream from the API: with a proxy, check that its path forwards to the ' +
  'Messages API (it may be answering with a web page instead).';

/** The start of the error reply.ts throws for a reply not streamed that is no message (a page where JSON should be). */
export const NOT_A_MESSAGE = 'The server answered without a message from the API';

const NO_MESSAGE_MESSAGE =
  'The server answered, but not with a message from the API: with a proxy, check that its path forwards to the ' +
  'Messages API (it may be answering with a web page instead).';

/** Thrown by `agent.send()`: a failed turn, told by its {@link AgentErrorDescription}, the original as `cause`. */
export class MemoryAgentError extends Error {
  /** Always `'MemoryAgentError'`, so {@link isMemoryAgentError} can tell it across realms. */
  override readonly name = 'MemoryAgentError' as const;
  /** The description's `kind`, for a program to branch on. */
  readonly kind: AgentErrorKind;
  /** The description's `title`: a few words for a person. */
  readonly title: string;
  /** The HTTP status, when an answer came. */
  readonly status: number | undefined;
  /** The whole description, as the `error` event carried it. */
  readonly description: AgentErrorDescription;

  constructor(description: AgentErrorDescription, options?: { cause?: unknown }) {
    super(description.message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.kind = description.kind;
    this.title = description.title;
    this.status = description.status;
    this.description = description;
  }
}

/** True for a {@link MemoryAgentError}, also one from another realm (checks the literal `name` and `kind`). */
export function isMemoryAgentError(error: unknown): error is MemoryAgentError {
  if (error instanceof MemoryAgentError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const candidate = error as { name?: unknown; kind?: unknown };
  return candidate.name === 'MemoryAgentError' && typeof candidate.kind === 'string' && candidate.kind in WORDING;
}

/**
 * Tells any error of a turn in plain words: an SDK error (1.16 and 1.17 alike), an `AbortError`, anything else.
 * @example
 * catch (e) { const { kind, title, message } = describeAgentError(e); if (kind === 'auth') askForKey(); }
 */
export function describeAgentError(error: unknown, context: AgentErrorContext = {}): AgentErrorDescription {
  if (isMemoryAgentError(error)) return error.description;
  const fields = (typeof error === 'object' && error !== null ? error : {}) as {
    name?: unknown;
    status?: unknown;
    apiMessage?: unknown;
    requestID?: unknown;
    message?: unknown;
    type?: unknown;
  };
  const name = typeof fields.name === 'string' ? fields.name : '';
  const said = typeof fields.message === 'string' && fields.message !== '' ? fields.message : String(error);
  // Read by name, not instanceof: the SDK's classes may come from another copy of the package.
  if (name === 'APIUserAbortError' || name === 'AbortError') return describe('aborted');
  if (name === 'APIConnectionTimeoutError' || name === 'TimeoutError') {
    return { ...describe('network'), title: 'Timed out', message: TIMEOUT_MESSAGE };
  }
  if (name === 'CredentialsError' || NO_CREDENTIALS.test(said)) {
    return { ...describe('auth'), title: 'No API key', message: NO_KEY_MESSAGE };
  }
  if (name === 'APIConnectionError') {
    // From SDK 1.17 a dropped answer and no answer are this one error: the caller or fetch's words tell them apart.
    if (context.answered ?? brokeOff(error, false)) return dropped();
    const { browser, online } = environment(context);
    // A browser reports a CORS refusal like a dead connection; online, the refusal is the likelier cause.
    if (browser && online) {
      return { ...describe('permission'), title: 'No answer (blocked?)', message: BLOCKED_MESSAGE, retryable: true };
    }
    return describe('network');
  }
  // Up to SDK 1.16 a body that broke off came as fetch's own TypeError (a request with no answer was wrapped).
  if (brokeOff(error, true)) return dropped();
  if (NO_STREAM.test(said)) return { ...describe('other'), title: 'Not the API', message: NO_STREAM_MESSAGE };
  // `stream: false`: the SDK passes a 200 that is not JSON on as text, which is no message (reply.ts); a page may
  // fail in the SDK first, in a TypeError that quotes it (never shown).
  if (said.startsWith(NOT_A_MESSAGE) || (name === 'TypeError' && /<(?:!doctype|html)/iu.test(said))) {
    return { ...describe('other'), title: 'Not the API', message: NO_MESSAGE_MESSAGE };
  }

  const status = typeof fields.status === 'number' ? fields.status : undefined;
  const extra: Partial<AgentErrorDescription> = {};
  if (status !== undefined) extra.status = status;
  if (typeof fields.apiMessage === 'string' && fields.apiMessage !== '') extra.apiMessage = fields.apiMessage;
  if (typeof fields.requestID === 'string' && fields.requestID !== '') extra.requestId = fields.requestID;

  switch (status) {
    case 401:
      return { ...describe('auth'), ...extra };
    case 403:
      return { ...describe('permission'), ...extra };
    case 429:
      return { ...describe('rate_limit'), ...extra };
    case 529:
      return { ...describe('overloaded'), ...extra };
  }
  // Own keys only: the type comes off the wire, and `toString` must not find Object.prototype's.
  const streamType = status === undefined && typeof fields.type === 'string' ? fields.type : undefined;
  const streamError =
    streamType !== undefined && Object.hasOwn(STREAM_ERRORS, streamType) ? STREAM_ERRORS[streamType] : undefined;
  if (streamError) {
    const { kind, message, retryable } = streamError;
    return { ...describe(kind), message, ...(retryable === undefined ? {} : { retryable }), ...extra };
  }
  let message = said;
  if (status !== undefined) {
    // No `error.message`: the body was not the API's JSON but, most likely, a proxy's or gateway's page.
    message =
      extra.apiMessage !== undefined
        ? `The API answered ${status}: ${extra.apiMessage}`
        : `The server answered ${status}${pageTitle(said)}, not the API: ` +
          'with a proxy, check that it is running and forwards to the API.';
  }
  return {
    ...describe('other'),
    message,
    retryable: status !== undefined && (status >= 500 || status === 408 || status === 409),
    ...extra,
  };
}

/** fetch's TypeError for a body that broke off, in `error` or its causes; `unwrapped`: `error` is not the SDK's. */
function brokeOff(error: unknown, unwrapped: boolean): boolean {
  const causeOf = (value: unknown) => (value as { cause?: unknown }).cause;
  for (let at = error, depth = 0; typeof at === 'object' && at !== null && depth < 3; at = causeOf(at), depth++) {
    const { name, message } = at as { name?: unknown; message?: unknown };
    if (name !== 'TypeError' || typeof message !== 'string') continue;
    if (BODY_BROKE_OFF.test(message) || (unwrapped && BODY_OR_REQUEST_FAILED.test(message))) return true;
  }
  return false;
}

function dropped(): AgentErrorDescription {
  return { ...describe('network'), title: 'Connection dropped', message: DROPPED_MESSAGE };
}

/** ` ("502 Bad Gateway")` for an HTML page's title in `text`, else nothing: never the page itself. */
function pageTitle(text: string): string {
  const title = /<title[^>]*>([^<]{1,120})<\/title>/iu.exec(text)?.[1]?.trim();
  return title ? ` ("${title}")` : '';
}

function describe(kind: AgentErrorKind): AgentErrorDescription {
  return { kind, ...WORDING[kind] };
}

function environment(context: AgentErrorContext): { browser: boolean; online: boolean } {
  // Node's `navigator` (v21+) has no `onLine`; browsers and their workers do, and both enforce CORS.
  const onLine = (globalThis as { navigator?: { onLine?: unknown } }).navigator?.onLine;
  return {
    browser: context.browser ?? typeof onLine === 'boolean',
    online: context.online ?? (typeof onLine === 'boolean' ? onLine : true),
  };
}
