// WebKitGTK's tabs over classic WebDriver (fetch to WebKitWebDriver, MiniBrowser under Xvfb: test/engines/
// webkit-driver.ts): one session, one window per tab. A session runs one command at a time and switching window is a
// command, so every call here takes the session's turn, and an evaluation is started in the page and then polled:
// that way several run at once, in one tab or in several.

import type { WebKitDriver } from '../../engines/webkit-driver.js';
import { startWebKitDriver, webkitCapabilities } from '../../engines/webkit-driver.js';
import type { Engine, Tab, TabBrowser } from './driver.js';
import { WAIT_MS, sleep } from './driver.js';

/** Starts `fn(arg)` in the page and keeps its outcome under `id` on `window.__tabJobs`, for {@link POLL}. */
const start = (source: string): string => `
  const [id, arg] = arguments;
  const jobs = (window.__tabJobs ??= new Map());
  jobs.set(id, { done: false });
  Promise.resolve()
    .then(() => (${source})(arg))
    .then(
      (value) => jobs.set(id, { done: true, ok: true, json: value === undefined ? null : JSON.stringify(value) }),
      (error) => jobs.set(id, { done: true, ok: false, error: error instanceof Error ? error.name + ': ' + error.message : String(error) }),
    );`;

/** The outcome of the evaluation `id`, taken off the page once it is done. */
const POLL = `
  const [id] = arguments;
  const job = window.__tabJobs?.get(id);
  if (!job) return { done: true, ok: false, error: 'the page no longer has this evaluation (it navigated or reloaded)' };
  if (job.done) window.__tabJobs.delete(id);
  return job;`;

/** `json` is null for `undefined`, which WebDriver would not carry. */
type Job = { done: false } | { done: true; ok: true; json: string | null } | { done: true; ok: false; error: string };

/** One WebDriver session; `turn` runs its calls one at a time, each in the window it names. */
class Session {
  #queue: Promise<unknown> = Promise.resolve();
  #window: string | undefined;
  #jobs = 0;

  /**
   * The session's first window, left open and blank: closing the last window would end the session, and a new
   * window is opened from it (WebDriver opens one only from a window that is still there).
   */
  readonly home: string;

  private constructor(
    private readonly url: string,
    home: string,
  ) {
    this.home = home;
    this.#window = home;
  }

  static async create(driver: WebKitDriver): Promise<Session> {
    const value = await call(driver.url, 'POST', '/session', { capabilities: { alwaysMatch: webkitCapabilities } });
    const url = `${driver.url}/session/${(value as { sessionId: string }).sessionId}`;
    return new Session(url, (await call(url, 'GET', '/window')) as string);
  }

  call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, signal?: AbortSignal): Promise<unknown> {
    return call(this.url, method, path, body, signal);
  }

  /** `work` in window `handle`, when no other call of the session is under way. */
  turn<T>(handle: string | undefined, work: () => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      if (handle !== undefined && handle !== this.#window) {
        await this.call('POST', '/window', { handle });
        this.#window = handle;
      }
      return work();
    };
    const result = this.#queue.then(run, run);
    this.#queue = result.catch(() => undefined);
    return result;
  }

  execute(handle: string, script: string, args: unknown[]): Promise<unknown> {
    return this.turn(handle, () => this.call('POST', '/execute/sync', { script, args }));
  }

  async newWindow(): Promise<string> {
    const { handle } = (await this.turn(this.home, () => this.call('POST', '/window/new', { type: 'window' }))) as { handle: string };
    return handle;
  }

  closeWindow(handle: string): Promise<void> {
    return this.turn(handle, async () => {
      await this.call('DELETE', '/window');
      this.#window = undefined;
    });
  }

  nextJob(): string {
    return `job-${++this.#jobs}`;
  }
}

async function call(base: string, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, signal?: AbortSignal): Promise<unknown> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(signal ? { signal } : {}),
  });
  const { value } = (await response.json()) as { value: unknown };
  if (!response.ok) {
    const { error, message } = (value ?? {}) as { error?: string; message?: string };
    throw new Error(`WebKitWebDriver ${method} ${path}: ${error}: ${message}`);
  }
  return value;
}

class WebKitTab implements Tab {
  constructor(
    private readonly session: Session,
    private readonly handle: string,
  ) {}

  async evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R> {
    const id = this.session.nextJob();
    await this.session.execute(this.handle, start(fn.toString()), arg === undefined ? [id] : [id, arg]);
    // Short polls first (most calls answer in milliseconds), then at most four a second per evaluation.
    for (let wait = 5; ; wait = Math.min(2 * wait, 250)) {
      const job = (await this.session.execute(this.handle, POLL, [id])) as Job;
      if (job.done) {
        if (!job.ok) throw new Error(`evaluate in WebKit: ${job.error}`);
        return (job.json === null ? undefined : JSON.parse(job.json)) as R;
      }
      await sleep(wait);
    }
  }

  async waitFor<A>(fn: (arg: A) => unknown, arg: A, timeoutMs = WAIT_MS): Promise<void> {
    const script = `return Boolean((${fn.toString()})(arguments[0]));`;
    const end = Date.now() + timeoutMs;
    for (let wait = 5; ; wait = Math.min(2 * wait, 250)) {
      if (await this.session.execute(this.handle, script, [arg])) return;
      if (Date.now() > end) throw new Error(`waitFor in WebKit: still false after ${timeoutMs} ms: ${fn.toString()}`);
      await sleep(wait);
    }
  }

  setOffline(): Promise<void> {
    return Promise.reject(new Error(`WebKit: ${CANNOT_OFFLINE}`));
  }

  close(): Promise<void> {
    return this.session.closeWindow(this.handle);
  }
}

const CANNOT_KILL = 'MiniBrowser under automation keeps IndexedDB in memory, so nothing survives a kill';
const CANNOT_OFFLINE = 'classic WebDriver has no network emulation';

async function launch(): Promise<TabBrowser> {
  const driver = await startWebKitDriver();
  let session: Session;
  try {
    session = await Session.create(driver);
  } catch (error) {
    await driver.stop();
    throw error;
  }
  let closed: Promise<void> | undefined;
  return {
    async openTab(url) {
      const handle = await session.newWindow();
      await session.turn(handle, () => session.call('POST', '/url', { url }));
      return new WebKitTab(session, handle);
    },
    kill: () => Promise.reject(new Error(`WebKit: ${CANNOT_KILL}`)),
    relaunch: () => Promise.reject(new Error(`WebKit: ${CANNOT_KILL}`)),
    close() {
      closed ??= (async () => {
        try {
          // Out of turn (a test that timed out may have left a poll waiting) and bounded: the driver and Xvfb are
          // stopped after it whatever it answers.
          await session.call('DELETE', '', undefined, AbortSignal.timeout(15_000));
        } catch {
          // The session is gone already; the driver's stop ends its MiniBrowser too.
        } finally {
          await driver.stop();
        }
      })();
      return closed;
    },
  };
}

export const webkitEngine: Engine = {
  name: 'webkit',
  label: 'WebKit',
  cannot: { kill: CANNOT_KILL, offline: CANNOT_OFFLINE },
  launch,
};
