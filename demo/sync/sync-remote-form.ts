// The Sync panel's remote fields: a Memory Store (its id; the Connection panel's key or proxy) or a WebDAV folder (a
// URL, a username and password or a token, end-to-end encryption with a passphrase). Held in this tab's memory, in
// localStorage only if the person opts in (the passphrase never).

import { createAgentClient } from '../../src/entries/agent.js';
import { memoryStoreRemote, webdavRemote } from '../../src/entries/sync.js';
import type { SyncRemote } from '../../src/entries/sync.js';
import type { ConnectionPanel } from '../chat/connection.js';
import { byId } from '../page/dom.js';

const REMEMBER_KEY = 'idb-memory-tool-demo:sync';

/** A remote made from the fields, and how the status line names it. */
export interface ChosenRemote {
  remote: SyncRemote;
  where: string;
}

export interface SyncRemoteForm {
  /** The remote the fields describe now; throws an error worded for the person when they describe none. */
  make(): ChosenRemote;
  /** While connected the fields are locked: the sync runs with what they said at Connect. */
  lock(locked: boolean): void;
}

/** Everything the fields hold, as remembered (all strings: what was typed). */
interface Fields {
  kind: 'memory-store' | 'webdav';
  storeId: string;
  url: string;
  auth: 'password' | 'token';
  username: string;
  password: string;
  token: string;
  encrypt: boolean;
}

export function setupSyncRemoteForm(connection: ConnectionPanel): SyncRemoteForm {
  const setup = byId('sync-setup', HTMLFieldSetElement);
  const kindStore = byId('sync-kind-store', HTMLInputElement);
  const kindWebdav = byId('sync-kind-webdav', HTMLInputElement);
  const storeFields = byId('sync-store-fields', HTMLElement);
  const webdavFields = byId('sync-webdav-fields', HTMLElement);
  const storeId = byId('sync-store-id', HTMLInputElement);
  const url = byId('sync-url', HTMLInputElement);
  const authPassword = byId('sync-auth-password', HTMLInputElement);
  const authToken = byId('sync-auth-token', HTMLInputElement);
  const passwordFields = byId('sync-password-fields', HTMLElement);
  const tokenFields = byId('sync-token-fields', HTMLElement);
  const username = byId('sync-username', HTMLInputElement);
  const password = byId('sync-password', HTMLInputElement);
  const token = byId('sync-token', HTMLInputElement);
  const remember = byId('sync-remember', HTMLInputElement);
  const encrypt = byId('sync-encrypt', HTMLInputElement);
  const passphraseFields = byId('sync-passphrase-fields', HTMLElement);
  const passphrase = byId('sync-passphrase', HTMLInputElement);

  const read = (): Fields => ({
    kind: kindWebdav.checked ? 'webdav' : 'memory-store',
    storeId: storeId.value,
    url: url.value,
    auth: authToken.checked ? 'token' : 'password',
    username: username.value,
    password: password.value,
    token: token.value,
    encrypt: encrypt.checked,
  });

  // Only the fields of the choice made are shown, so a hidden field is never sent by mistake.
  const showChoice = () => {
    storeFields.hidden = kindWebdav.checked;
    webdavFields.hidden = !kindWebdav.checked;
    passwordFields.hidden = authToken.checked;
    tokenFields.hidden = !authToken.checked;
    passphraseFields.hidden = !encrypt.checked;
  };

  const stored = readStored();
  if (stored) {
    (stored.kind === 'webdav' ? kindWebdav : kindStore).checked = true;
    (stored.auth === 'token' ? authToken : authPassword).checked = true;
    storeId.value = stored.storeId;
    url.value = stored.url;
    username.value = stored.username;
    password.value = stored.password;
    token.value = stored.token;
    encrypt.checked = stored.encrypt;
    remember.checked = true;
  }
  showChoice();

  // As the key's opt-in: every change is saved while the box is ticked, and unticking removes what was saved.
  setup.addEventListener('input', () => {
    if (remember.checked) store(read());
  });
  setup.addEventListener('change', () => {
    showChoice();
    if (remember.checked) store(read());
  });
  remember.addEventListener('change', () => {
    if (remember.checked) store(read());
    else forget();
  });

  const make = (): ChosenRemote => {
    const fields = read();
    if (fields.kind === 'memory-store') {
      const id = fields.storeId.trim();
      if (id === '') throw new Error('Enter the id of the Memory Store (memstore_…).');
      const choice = connection.read();
      if (!choice.ok) throw new Error(`A Memory Store is reached through the Connection panel. ${choice.summary}`);
      // The connection's key or proxy as it is now, in one client kept for this sync's life.
      const client = createAgentClient({
        ...(choice.apiKey !== undefined ? { apiKey: choice.apiKey } : {}),
        ...(choice.baseURL !== undefined ? { baseURL: choice.baseURL } : {}),
      });
      return { remote: memoryStoreRemote({ client, storeId: id }), where: `Memory Store ${id}` };
    }
    const address = fields.url.trim();
    if (address === '') throw new Error('Enter the URL of the WebDAV folder.');
    // Both empty: a server that asks for nothing. Otherwise the library says what is missing.
    const credentials =
      fields.auth === 'token'
        ? { token: fields.token }
        : fields.username === '' && fields.password === ''
          ? {}
          : { username: fields.username, password: fields.password };
    if (fields.encrypt && passphrase.value === '') throw new Error('Enter the passphrase of the encrypted folder.');
    const encryption = fields.encrypt ? { encryption: { passphrase: passphrase.value } } : {};
    const remote = webdavRemote({ url: address, ...credentials, ...encryption });
    const where = remote.id.replace(/^webdav(-e2ee)?:/u, '');
    return { remote, where: `WebDAV ${where}${fields.encrypt ? ' (encrypted end to end)' : ''}` };
  };

  return {
    make,
    lock(locked) {
      setup.disabled = locked;
    },
  };
}

/** What localStorage holds, checked field by field: it is the browser's, and anything may have put it there. */
function readStored(): Fields | undefined {
  let text: string | null;
  try {
    text = localStorage.getItem(REMEMBER_KEY);
  } catch {
    return undefined; // storage disabled: nothing was remembered
  }
  if (text === null) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const field = (name: string): string => {
    const found = record[name];
    return typeof found === 'string' ? found : '';
  };
  return {
    kind: record.kind === 'webdav' ? 'webdav' : 'memory-store',
    storeId: field('storeId'),
    url: field('url'),
    auth: record.auth === 'token' ? 'token' : 'password',
    username: field('username'),
    password: field('password'),
    token: field('token'),
    encrypt: record.encrypt === true,
  };
}

function store(fields: Fields): void {
  try {
    localStorage.setItem(REMEMBER_KEY, JSON.stringify(fields));
  } catch {
    // Storage disabled or full: the fields simply stay in memory only.
  }
}

function forget(): void {
  try {
    localStorage.removeItem(REMEMBER_KEY);
  } catch {
    // Nothing to forget.
  }
}
