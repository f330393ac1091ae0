// What is known of the connection's key (or the proxy's): unchecked until something tells, then working or refused.
// The check is the cheapest call the API has, `GET /v1/models?limit=1`, made when the person presses Connect; a turn
// that succeeds or answers 401 tells as much, later.

import { loadAgent } from '../page/lazy-code.js';
import { messageOf } from '../page/dom.js';

/** `none`: no key or proxy to check. No green before a call has answered. */
export type KeyState = 'none' | 'unchecked' | 'checking' | 'working' | 'refused';

/** Where a key goes: what a check is about. A change of either forgets what was known. */
export interface KeyRoute {
  apiKey?: string;
  baseURL?: string;
}

/** The check's answer: the state, and why (in words) when it is not `working`. */
export type KeyVerdict = { state: 'working' } | { state: 'refused' | 'unchecked'; why: string };

/** One models call, no retry: a refused key answers 401 at once, and a dead route should not wait for retries. */
export async function checkKey(route: KeyRoute): Promise<KeyVerdict> {
  const where = `GET ${(route.baseURL ?? 'https://api.anthropic.com').replace(/\/+$/u, '')}/v1/models`;
  let agent: Awaited<ReturnType<typeof loadAgent>>;
  try {
    agent = await loadAgent();
  } catch (error) {
    return { state: 'unchecked', why: `Not checked: the code for it did not load (${messageOf(error)}).` };
  }
  try {
    const client = agent.createAgentClient({ ...route, maxRetries: 0 });
    await client.models.list({ limit: 1 });
    return { state: 'working' };
  } catch (error) {
    const failure = agent.describeAgentError(error);
    const answered = failure.status !== undefined ? `${where} answered ${failure.status}` : `${where}: ${failure.title}`;
    if (failure.kind === 'auth') return { state: 'refused', why: `Refused: ${answered}. ${failure.message}` };
    return { state: 'unchecked', why: `Not checked: ${answered}. ${failure.message}` };
  }
}
