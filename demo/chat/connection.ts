// The connection panel: API key (in memory, or in localStorage only if the person opts in), proxy URL, model,
// context editing. Turns the fields into agent options; never puts the key anywhere else. Knows whether the dev
// server holds a key, so its `/anthropic` is never tried when it proxies nothing, and what is known of the key.

import { byId } from '../page/dom.js';
import { setupConnectionPopover } from './connection-popover.js';
import type { KeyRoute, KeyState } from './key-check.js';
import { DEFAULT_MODEL } from './default-model.js';

const REMEMBER_KEY = 'idb-memory-tool-demo:api-key';

/** What the chat needs to make an agent, or why it cannot (`title`, and `summary` saying what to do). */
export type Connection =
  | {
      ok: true;
      apiKey?: string;
      baseURL?: string;
      model: string;
      contextManagement: boolean;
      summary: string;
      /** Through the dev server's own proxy, which adds its key. */
      devProxy: boolean;
    }
  | { ok: false; title: string; summary: string };

/** The dev server's proxy path (vite.config.ts). */
const DEV_PROXY_PATH = '/anthropic';
/** How to give the dev server a key, said wherever the page finds it has none. */
const DEV_KEY_HOWTO = 'stop it and start it again with a key: ANTHROPIC_API_KEY=sk-ant-… npm run dev';

export interface ConnectionPanel {
  /** The fields as they are now; the chat reads them before each message. */
  read(): Connection;
  /** What a turn found out about the key of `choice` (a good answer, or a 401); dropped if the fields changed since. */
  report(choice: Connection, state: 'working' | 'refused', why?: string): void;
  /** Called after each change of the fields, with whether Claude can be tried. */
  onChange(listener: (ok: boolean) => void): void;
  /** Closes the popover (the person sent a message). */
  close(): void;
}

/** Where `choice` sends its key, as text to compare; undefined when it cannot connect. */
function routeOf(choice: Connection): string | undefined {
  return choice.ok ? JSON.stringify([choice.apiKey ?? null, choice.baseURL ?? null]) : undefined;
}

function keyRoute(choice: Connection & { ok: true }): KeyRoute {
  return { ...(choice.apiKey !== undefined ? { apiKey: choice.apiKey } : {}), ...(choice.baseURL !== undefined ? { baseURL: choice.baseURL } : {}) };
}

export function setupConnection(): ConnectionPanel {
  const key = byId('api-key', HTMLInputElement);
  const remember = byId('remember-key', HTMLInputElement);
  const proxy = byId('proxy-url', HTMLInputElement);
  const model = byId('model', HTMLInputElement);
  const contextEditing = byId('context-editing', HTMLInputElement);
  const status = byId('connection-status', HTMLElement);
  const state = byId('connection-state', HTMLElement);
  const connect = byId('connect', HTMLButtonElement);
  const popover = setupConnectionPopover(
    byId('connection', HTMLElement),
    byId('connection-button', HTMLButtonElement),
    byId('chat', HTMLElement),
    byId('message', HTMLTextAreaElement),
  );
  const listeners: Array<(ok: boolean) => void> = [];
  /** What is known of the key on `route`; forgotten when the key or the proxy changes. */
  let known: { route: string | undefined; state: KeyState; why: string } = { route: undefined, state: 'none', why: '' };

  const stored = readStored();
  if (stored) {
    key.value = stored;
    remember.checked = true;
  }
  // The dev server says only whether it holds a key; the key itself never reaches the page.
  if (__DEV_PROXY__) proxy.value = DEV_PROXY_PATH;
  // That proxy puts the dev server's key on every request and drops whatever the page sent.
  const devProxyURL = new URL(DEV_PROXY_PATH, location.href).href;
  const devProxy = __DEV_PROXY__ ? devProxyURL : undefined;
  // The dev server without a key: its /anthropic is a 404, so it is not tried at all. `vite` serves in mode
  // development, `vite build` builds in production (import.meta.env.DEV follows NODE_ENV, which a test run sets).
  const keylessDevServer = import.meta.env.MODE === 'development' && !__DEV_PROXY__;
  model.value = DEFAULT_MODEL;

  const read = (): Connection => {
    const apiKey = key.value.trim();
    const proxyText = proxy.value.trim();
    const chosenModel = model.value.trim() || DEFAULT_MODEL;
    let baseURL: string | undefined;
    if (proxyText !== '') {
      try {
        baseURL = new URL(proxyText, location.href).href;
      } catch {
        const summary = `The proxy URL ${JSON.stringify(proxyText)} is not a URL: correct it, or clear it.`;
        return { ok: false, title: 'Not a URL', summary };
      }
    }
    if (keylessDevServer && baseURL?.replace(/\/+$/u, '') === devProxyURL) {
      return {
        ok: false,
        title: 'The dev server has no API key',
        summary:
          `This dev server was started without ANTHROPIC_API_KEY, so ${DEV_PROXY_PATH} forwards nothing: ` +
          `${DEV_KEY_HOWTO}. Or clear the Proxy URL and type your key in Connection — or play the Offline demo.`,
      };
    }
    const common = {
      ok: true as const,
      model: chosenModel,
      contextManagement: contextEditing.checked,
      devProxy: baseURL !== undefined && baseURL === devProxy,
    };
    if (apiKey !== '' && baseURL !== undefined && baseURL === devProxy) {
      // The key typed here would be dropped there, so it is not sent at all; the status says whose key is used.
      return {
        ...common,
        baseURL,
        summary: `Through the dev server's proxy ${baseURL}, with the dev server's key: the key typed here is not sent (clear the Proxy URL to use it).`,
      };
    }
    if (apiKey !== '') {
      const where = baseURL ? `to ${baseURL}` : 'to api.anthropic.com';
      return { ...common, apiKey, ...(baseURL ? { baseURL } : {}), summary: `Direct ${where}, with your key (held in ${remember.checked ? 'localStorage' : 'this tab only'}).` };
    }
    if (baseURL) return { ...common, baseURL, summary: `Through the proxy ${baseURL}; this page sends no key.` };
    const devNote = keylessDevServer ? ` (This dev server holds no key for ${DEV_PROXY_PATH}: ${DEV_KEY_HOWTO}.)` : '';
    const summary = `Not connected: enter an API key or a proxy URL — or try the Offline demo.${devNote}`;
    return { ok: false, title: 'Not connected', summary };
  };

  // The button shows the state in a few words; the page leads with Send once Claude can be tried, with the
  // Offline demo before.
  const changed = () => {
    const choice = read();
    const route = routeOf(choice);
    if (route !== known.route) known = { route, state: route === undefined ? 'none' : 'unchecked', why: '' };
    status.textContent = known.why === '' ? choice.summary : `${choice.summary} ${known.why}`;
    state.textContent = shortState(choice, known.state);
    state.dataset.state = known.state;
    document.body.dataset.connected = String(choice.ok);
    for (const listener of listeners) listener(choice.ok);
  };

  const report = (choice: Connection, next: 'working' | 'refused' | 'unchecked', why = '') => {
    const route = routeOf(choice);
    if (route === undefined || route !== routeOf(read())) return;
    known = { route, state: next, why };
    changed();
  };

  // Connect: the cheapest call the API has, with the fields as they are; a good answer closes the popover.
  connect.addEventListener('click', () => {
    const choice = read();
    if (!choice.ok) {
      status.textContent = choice.summary;
      return;
    }
    const route = routeOf(choice);
    known = { route, state: 'checking', why: '' };
    changed();
    // The check's code (and the SDK under it) loads with the first Connect.
    const checked = import('./key-check.js').then(({ checkKey }) => checkKey(keyRoute(choice)));
    void checked.catch((error: unknown) => ({ state: 'unchecked' as const, why: `Not checked: its code did not load (${String(error)}).` })).then((verdict) => {
      report(choice, verdict.state, verdict.state === 'working' ? '' : verdict.why);
      if (verdict.state === 'working' && routeOf(read()) === route) popover.close();
    });
  });

  key.addEventListener('input', () => {
    if (remember.checked) store(key.value.trim());
    changed();
  });
  remember.addEventListener('change', () => {
    if (remember.checked) store(key.value.trim());
    else forget();
    changed();
  });
  // The models the key (or the proxy's) can use, asked for with the connection as it is when the field is focused.
  // Its code loads as the popover first opens, out of the first load.
  const list = byId('models', HTMLDataListElement);
  const help = byId('model-help', HTMLElement);
  const loadModels = () =>
    void import('./models.js')
      .then(({ setupModelList }) =>
        setupModelList(model, list, help, () => {
          const choice = read();
          return choice.ok ? keyRoute(choice) : undefined;
        }),
      )
      .catch(() => undefined); // offline before it came: the field stays free text, without suggestions
  byId('connection', HTMLElement).addEventListener('toggle', loadModels, { once: true });

  for (const input of [proxy, model, contextEditing]) input.addEventListener('change', changed);
  proxy.addEventListener('input', changed);
  changed();

  return {
    read,
    report: (choice, next, why) => report(choice, next, why),
    onChange(listener) {
      listeners.push(listener);
      listener(read().ok);
    },
    close: () => popover.close(),
  };
}

const VERDICT: Record<Exclude<KeyState, 'none'>, string> = {
  unchecked: 'not checked',
  checking: 'checking…',
  working: 'working',
  refused: 'refused',
};

/** The connection in a few words, for its button: whose key, and what is known of it. */
function shortState(choice: Connection, known: KeyState): string {
  if (!choice.ok || known === 'none') return choice.ok ? 'Not connected' : choice.title;
  const whose = choice.devProxy ? "dev server's key" : choice.apiKey !== undefined ? 'your key' : 'through a proxy';
  return `${whose}: ${VERDICT[known]}`;
}

function readStored(): string | null {
  try {
    return localStorage.getItem(REMEMBER_KEY);
  } catch {
    return null; // storage disabled: nothing was remembered
  }
}

function store(value: string): void {
  try {
    if (value === '') localStorage.removeItem(REMEMBER_KEY);
    else localStorage.setItem(REMEMBER_KEY, value);
  } catch {
    // Storage disabled or full: the key simply stays in memory only.
  }
}

function forget(): void {
  try {
    localStorage.removeItem(REMEMBER_KEY);
  } catch {
    // Nothing to forget.
  }
}
