// The demo's Sync panel driven like a person would drive it: the built demo, real Chromium, accessible locators and
// the keyboard, against a real Apache httpd with mod_dav (Basic auth, CORS, a body limit) and the loopback Memory
// Stores API, reached through the Connection panel's key and URL as the demo reaches Claude.

import { Buffer } from 'node:buffer';
import { readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { startApacheWebdav, type ApacheWebdav } from '../servers/apache-webdav.js';
import { startMemoryStoresServer, type MemoryStoresServer } from '../servers/memory-stores-server.js';
import { builtDemoForFile, diskProfile, openDemo, runCommand, showConnection, showTool } from './harness.js';

/** Apache answers a PUT body over this many bytes with 413: the file is skipped, not retried. */
const BODY_LIMIT = 4096;
const STORE_KEY = 'sk-ant-loopback-store-key';
const REMEMBERED = 'idb-memory-tool-demo:sync';

const site = builtDemoForFile();
let dav: ApacheWebdav;
let stores: MemoryStoresServer;

beforeAll(async () => {
  [dav, stores] = await Promise.all([startApacheWebdav({ limitRequestBody: BODY_LIMIT }), startMemoryStoresServer({ apiKey: STORE_KEY })]);
});
afterAll(async () => {
  await Promise.all([dav?.stop(), stores?.close()]);
});
// Each test starts from an empty WebDAV folder (and a fresh browser profile, so a fresh sync baseline).
beforeEach(async () => {
  for (const name of await readdir(dav.root)) await rm(join(dav.root, name), { recursive: true, force: true });
});

/**
 * A fresh browser profile on disk with the demo open, closed and removed after `body`. Nothing the panel does may
 * reach the console as an uncaught error: failures are shown in the panel.
 */
async function withDemo(body: (page: Page) => Promise<void>): Promise<void> {
  const profile = await diskProfile();
  try {
    const context = await profile.launch();
    const thrown: string[] = [];
    context.on('weberror', (error) => thrown.push(String(error.error())));
    context.on('console', (message) => {
      // The browser's own line for a refused request (the 401s and 413 these tests provoke) is not the page's.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) thrown.push(message.text());
    });
    await body(await openDemo(context, site.url));
    expect(thrown).toEqual([]);
  } finally {
    await profile.close();
  }
}

const panel = (page: Page) => page.getByRole('tabpanel', { name: 'Sync', exact: true });
const statusLine = (page: Page) => panel(page).getByRole('status');
const button = (page: Page, name: string) => panel(page).getByRole('button', { name, exact: true });
const tree = (page: Page) => page.getByLabel('Memory files');
const list = (page: Page, name: string) => panel(page).getByRole('list', { name, exact: true });
const facts = (page: Page) => panel(page).locator('#sync-facts');
const davUrl = () => dav.url;
const upToDate = () => `Up to date with WebDAV ${davUrl()}.`;

async function connectWebdav(page: Page, credentials: { username: string; password: string }): Promise<void> {
  await showTool(page, 'Sync');
  await panel(page).getByLabel('WebDAV', { exact: true }).check();
  await panel(page).getByLabel('WebDAV URL').fill(davUrl());
  await panel(page).getByLabel('Username', { exact: true }).fill(credentials.username);
  await panel(page).getByLabel('Password', { exact: true }).fill(credentials.password);
  await button(page, 'Connect').click();
}

/** The file's text in Apache's folder on disk; undefined while there is none. */
const onDisk = (name: string) => readFile(join(dav.root, name), 'utf8').catch(() => undefined);

/** Another device's write: a PUT to the server from Node. */
async function putOnServer(name: string, text: string): Promise<void> {
  const authorization = `Basic ${Buffer.from(`${dav.username}:${dav.password}`).toString('base64')}`;
  const response = await fetch(new URL(name, dav.url), { method: 'PUT', headers: { authorization }, body: text });
  expect(response.ok).toBe(true);
}

/** Opens `name` in the memory panel and waits until the viewer shows `text`. */
async function expectFile(page: Page, name: string, text: string): Promise<void> {
  await tree(page).getByRole('treeitem', { name, exact: true }).click();
  await expect.poll(() => page.locator('#viewer-path').textContent()).toMatch(new RegExp(`/${name.replace(/\./gu, '\\.')}$`, 'u'));
  await expect.poll(() => page.getByLabel('File content').textContent()).toBe(text);
}

const storedSync = (page: Page) => page.evaluate((key) => localStorage.getItem(key), REMEMBERED);
const everythingStored = (page: Page) => page.evaluate(() => JSON.stringify(Object.entries(localStorage)));

describe('the Sync panel with a WebDAV folder', () => {
  it('sends a file written here to the server, and shows a file put on the server after Sync now', async () => {
    await withDemo(async (page) => {
      await runCommand(page, 'create', { path: '/memories/notes.md', file_text: 'from the demo\n' });
      await showTool(page, 'Sync');
      expect(await button(page, 'Sync now').isHidden()).toBe(true);
      await connectWebdav(page, dav);
      await expect.poll(() => statusLine(page).textContent()).toBe(upToDate());
      expect(await onDisk('notes.md')).toBe('from the demo\n');
      await expect.poll(() => panel(page).locator('#sync-facts').textContent()).toMatch(/^Last sync .+ · 0 received, 1 sent, 0 deleted\.$/u);
      // Connected, the fields are locked: the sync runs with what they said.
      expect(await panel(page).getByLabel('Password', { exact: true }).isDisabled()).toBe(true);

      await putOnServer('from-server.md', 'from the server\n');
      expect(await tree(page).getByRole('treeitem', { name: 'from-server.md' }).count()).toBe(0);
      await button(page, 'Sync now').click();
      await tree(page).getByRole('treeitem', { name: 'from-server.md', exact: true }).waitFor();
      await expectFile(page, 'from-server.md', 'from the server\n');
      await expect.poll(() => statusLine(page).textContent()).toBe(`${upToDate()} Synced just now.`);
      expect(await facts(page).textContent()).toMatch(/ · 1 received, 0 sent, 0 deleted\.$/u);

      // A change made after connecting goes by itself, soon after it is made.
      await runCommand(page, 'create', { path: '/memories/later/todo.md', file_text: 'buy tea\n' });
      await expect.poll(() => onDisk('later/todo.md')).toBe('buy tea\n');

      await button(page, 'Disconnect').click();
      await expect.poll(() => statusLine(page).textContent()).toBe(`Not connected. Disconnected from WebDAV ${davUrl()}; the files stay here.`);
      await showTool(page, 'Sync');
      expect(await button(page, 'Sync now').isHidden()).toBe(true);
      expect(await panel(page).getByLabel('Password', { exact: true }).isEditable()).toBe(true);
      expect(await tree(page).getByRole('treeitem', { name: 'from-server.md', exact: true }).count()).toBe(1);
    });
  });

  it('lists a file changed on both sides as a conflict, and Keep the copy puts this memory’s version back everywhere', async () => {
    await withDemo(async (page) => {
      await runCommand(page, 'create', { path: '/memories/plan.md', file_text: 'plan: tea\n' });
      await connectWebdav(page, dav);
      await expect.poll(() => statusLine(page).textContent()).toBe(upToDate());
      // Stopped, nothing syncs between the two edits.
      await button(page, 'Stop syncing').click();
      await expect.poll(() => statusLine(page).textContent()).toMatch(/^Stopped: no background syncs/u);
      expect(await button(page, 'Start syncing').isVisible()).toBe(true);

      await putOnServer('plan.md', 'plan: coffee (the other device)\n');
      await runCommand(page, 'str_replace', { path: '/memories/plan.md', old_str: 'tea', new_str: 'green tea (here)' });
      await showTool(page, 'Sync');
      await button(page, 'Sync now').click();
      const conflicts = list(page, 'Conflicts').getByRole('listitem');
      await expect.poll(() => conflicts.count()).toBe(1);
      expect(await conflicts.locator('.sync-path').textContent()).toBe('/memories/plan.md');
      expect(await conflicts.textContent()).toMatch(/The other version is in the copy plan\.conflict-\d{8}-\d{6}-[0-9a-z]{4}\.md/u);
      await expect.poll(() => statusLine(page).textContent()).toMatch(/^Stopped: .+ Listed below: 1 conflict to settle\. Synced just now\.$/u);
      // The version that won is at the path; this memory's waits in the copy beside it.
      await expectFile(page, 'plan.md', 'plan: coffee (the other device)\n');
      const copyName = (await tree(page).getByRole('treeitem', { name: /^plan\.conflict-/u }).getAttribute('data-path'))?.split('/').pop() ?? '';
      await expectFile(page, copyName, 'plan: green tea (here)\n');

      // Chosen from the keyboard; the button says which file it is about.
      const keepCopy = conflicts.getByRole('button', { name: 'Keep the copy', exact: true });
      expect(await keepCopy.getAttribute('aria-describedby')).toBe(await conflicts.locator('.sync-path').getAttribute('id'));
      await keepCopy.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => conflicts.count()).toBe(0);
      expect(await panel(page).locator('#sync-conflicts-part').isHidden()).toBe(true);
      await expect.poll(() => statusLine(page).textContent()).toContain("Kept the copy's version of /memories/plan.md.");
      // Focus, on a button that is gone now, lands on the status line rather than the page.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('sync-status');
      await expect.poll(() => tree(page).getByRole('treeitem', { name: copyName, exact: true }).count()).toBe(0);
      await expectFile(page, 'plan.md', 'plan: green tea (here)\n');

      await button(page, 'Sync now').click();
      await expect.poll(() => onDisk('plan.md')).toBe('plan: green tea (here)\n');
      await expect.poll(async () => (await readdir(dav.root)).filter((name) => name.includes('conflict'))).toEqual([]);
      await button(page, 'Start syncing').click();
      await expect.poll(() => statusLine(page).textContent()).toBe(upToDate());
    });
  });

  it('says a listed conflict in the status line, never "up to date" above it, and counts it nowhere else', async () => {
    await withDemo(async (page) => {
      await runCommand(page, 'create', { path: '/memories/plan.md', file_text: 'plan: tea\n' });
      await connectWebdav(page, dav);
      await expect.poll(() => statusLine(page).textContent()).toBe(upToDate());
      await putOnServer('plan.md', 'plan: coffee (the other device)\n');
      // Still syncing in the background: the next pass, this one or the one the edit brings, finds the conflict.
      await runCommand(page, 'str_replace', { path: '/memories/plan.md', old_str: 'tea', new_str: 'green tea (here)' });
      await showTool(page, 'Sync');
      await expect.poll(() => list(page, 'Conflicts').getByRole('listitem').count()).toBe(1);
      await expect.poll(() => statusLine(page).textContent()).toBe(`Synced with WebDAV ${davUrl()}. Listed below: 1 conflict to settle.`);
      expect(await facts(page).textContent()).not.toMatch(/conflict/u);
      expect((await panel(page).textContent())?.match(/up to date/giu) ?? []).toEqual([]);

      await list(page, 'Conflicts').getByRole('button', { name: 'Keep current', exact: true }).click();
      await expect.poll(() => list(page, 'Conflicts').getByRole('listitem').count()).toBe(0);
      await expect.poll(() => statusLine(page).textContent()).not.toMatch(/conflict to settle/u);
    });
  });

  it('shows a refused password as an auth error in the status line, and connects once it is corrected', async () => {
    await withDemo(async (page) => {
      await connectWebdav(page, { username: dav.username, password: 'not-the-password' });
      const line = statusLine(page);
      await expect.poll(() => line.textContent()).toMatch(/^Sync with WebDAV \S+ failed \(auth\): WebDAV PROPFIND \/: 401/u);
      expect(await line.textContent()).toContain('Not tried again by itself: Disconnect, correct the credentials and Connect again.');
      expect(await panel(page).getByRole('alert').count()).toBe(0);

      // Corrected: Disconnect, the right password, Connect.
      await button(page, 'Disconnect').click();
      await panel(page).getByLabel('Password', { exact: true }).fill(dav.password);
      await button(page, 'Connect').click();
      await expect.poll(() => line.textContent()).toBe(upToDate());
    });
  });

  it('lists a file the server refuses as skipped, with the reason', async () => {
    await withDemo(async (page) => {
      await runCommand(page, 'create', { path: '/memories/big.md', file_text: 'x'.repeat(BODY_LIMIT + 1) });
      await runCommand(page, 'create', { path: '/memories/small.md', file_text: 'fits\n' });
      await connectWebdav(page, dav);
      const skipped = list(page, 'Skipped files').getByRole('listitem');
      await expect.poll(() => skipped.count()).toBe(1);
      expect(await skipped.textContent()).toMatch(/^\/memories\/big\.md — .*413.* \(refused by the remote\)$/u);
      expect(await onDisk('small.md')).toBe('fits\n');
      expect(await onDisk('big.md')).toBeUndefined();
    });
  });

  it('holds back a mass delete until Delete them is pressed', async () => {
    await withDemo(async (page) => {
      const names = Array.from({ length: 12 }, (_, i) => `note-${String(i).padStart(2, '0')}.md`);
      for (const name of names) await runCommand(page, 'create', { path: `/memories/${name}`, file_text: `${name}\n` });
      await connectWebdav(page, dav);
      await expect.poll(() => statusLine(page).textContent()).toBe(upToDate());
      expect((await readdir(dav.root)).sort()).toEqual(names);

      // Another device empties the folder: more deletes than a sync makes without asking.
      for (const name of names) await rm(join(dav.root, name));
      await showTool(page, 'Sync');
      await button(page, 'Sync now').click();
      const held = list(page, 'Deletes held back').getByRole('listitem');
      await expect.poll(() => held.count()).toBe(12);
      expect(await held.first().textContent()).toBe('/memories/note-00.md (here)');
      expect(await tree(page).getByRole('treeitem', { name: /^note-/u }).count()).toBe(12);

      await button(page, 'Delete them').click();
      await expect.poll(() => tree(page).getByRole('treeitem', { name: /^note-/u }).count()).toBe(0);
      expect(await panel(page).locator('#sync-held-part').isHidden()).toBe(true);
      await expect.poll(() => statusLine(page).textContent()).toBe(`${upToDate()} Synced just now.`);
      expect(await facts(page).textContent()).toMatch(/ · 0 received, 0 sent, 12 deleted\.$/u);
    });
  });

  it('keeps a mass delete from happening with Keep them: the files go back to the side that lost them', async () => {
    await withDemo(async (page) => {
      const names = Array.from({ length: 11 }, (_, i) => `keep-${String(i).padStart(2, '0')}.md`);
      for (const name of names) await runCommand(page, 'create', { path: `/memories/${name}`, file_text: `${name}\n` });
      await connectWebdav(page, dav);
      await expect.poll(() => statusLine(page).textContent()).toBe(upToDate());
      for (const name of names) await rm(join(dav.root, name));
      await showTool(page, 'Sync');
      await button(page, 'Sync now').click();
      await expect.poll(() => list(page, 'Deletes held back').getByRole('listitem').count()).toBe(11);

      await button(page, 'Keep them').click();
      await expect.poll(async () => (await readdir(dav.root)).sort()).toEqual(names);
      expect(await onDisk('keep-10.md')).toBe('keep-10.md\n');
      await expect.poll(() => panel(page).locator('#sync-held-part').isHidden()).toBe(true);
      await expect.poll(() => statusLine(page).textContent()).toBe(`${upToDate()} Synced just now.`);
      expect(await facts(page).textContent()).toMatch(/ · 0 received, 11 sent, 0 deleted\.$/u);
      expect(await tree(page).getByRole('treeitem', { name: /^keep-/u }).count()).toBe(11);
    });
  });

  it('keeps the credentials out of localStorage unless Remember is ticked, and forgets them when it is unticked', async () => {
    await withDemo(async (page) => {
      await connectWebdav(page, dav);
      await expect.poll(() => statusLine(page).textContent()).toBe(upToDate());
      expect(await storedSync(page)).toBeNull();
      expect(await everythingStored(page)).not.toContain(dav.password);

      const remember = panel(page).getByLabel('Remember the sync settings and credentials on this device');
      await remember.check();
      expect(JSON.parse((await storedSync(page)) ?? 'null')).toMatchObject({ kind: 'webdav', url: davUrl(), username: dav.username, password: dav.password });
      await page.reload();
      await page.waitForSelector('body[data-ready="true"]');
      await showTool(page, 'Sync');
      expect(await panel(page).getByLabel('WebDAV', { exact: true }).isChecked()).toBe(true);
      expect(await panel(page).getByLabel('Password', { exact: true }).inputValue()).toBe(dav.password);
      expect(await remember.isChecked()).toBe(true);

      await remember.uncheck();
      expect(await storedSync(page)).toBeNull();
      expect(await everythingStored(page)).not.toContain(dav.password);
      // The API key's own opt-in is a different box.
      await showConnection(page);
      expect(await page.getByLabel('Remember on this device').isChecked()).toBe(false);
    });
  });
});

describe('the Sync panel with a Memory Store', () => {
  /** The Connection panel pointed at the loopback API with `key`, then the store chosen and connected. */
  async function connectStore(page: Page, storeId: string, key: string): Promise<void> {
    await showConnection(page);
    await page.getByLabel('API key').fill(key);
    await page.getByLabel('Proxy URL').fill(stores.url);
    await showTool(page, 'Sync');
    await panel(page).getByLabel('Memory Store', { exact: true }).check();
    await panel(page).getByLabel('Store id').fill(storeId);
    await button(page, 'Connect').click();
  }

  const memoriesOf = (storeId: string) =>
    stores.api.listMemories(storeId, { view: 'full' }).data.map((item) => ('content' in item ? [item.path, item.content] : [item.path]));

  it('syncs through the Connection panel’s key and URL both ways, and shows a refused key as an auth error', async () => {
    await withDemo(async (page) => {
      const store = stores.createStore('sync panel');
      await runCommand(page, 'create', { path: '/memories/a.md', file_text: 'from the demo\n' });
      await connectStore(page, store.id, STORE_KEY);
      const line = statusLine(page);
      await expect.poll(() => line.textContent()).toBe(`Up to date with Memory Store ${store.id}.`);
      expect(memoriesOf(store.id)).toEqual([['/a.md', 'from the demo\n']]);
      // The one client the sync made carries the Connection panel's key.
      const calls = stores.requests.filter((request) => request.method !== 'OPTIONS' && request.path.includes(store.id));
      expect(calls.length).toBeGreaterThan(0);
      const keyOf = (headers: Record<string, string>) => headers['x-api-key'] ?? headers.authorization?.replace(/^Bearer /u, '');
      expect(calls.map((request) => keyOf(request.headers)).filter((key) => key !== STORE_KEY)).toEqual([]);

      stores.api.createMemory(store.id, { path: '/from-store.md', content: 'from the store\n' });
      await showTool(page, 'Sync');
      await button(page, 'Sync now').click();
      await tree(page).getByRole('treeitem', { name: 'from-store.md', exact: true }).waitFor();
      await expectFile(page, 'from-store.md', 'from the store\n');

      await button(page, 'Disconnect').click();
      await connectStore(page, store.id, 'sk-ant-wrong-key');
      await expect.poll(() => line.textContent()).toMatch(/^Sync with Memory Store \S+ failed \(auth\): Memory Stores, \/: the key was refused/u);
    });
  });

  it('says what is missing instead of connecting: no store id, or no connection', async () => {
    await withDemo(async (page) => {
      const alert: Locator = panel(page).getByRole('alert');
      await showTool(page, 'Sync');
      await button(page, 'Connect').click();
      await expect.poll(() => alert.textContent()).toBe('Could not connect: Enter the id of the Memory Store (memstore_…).');
      await panel(page).getByLabel('Store id').fill('memstore_x');
      await button(page, 'Connect').click();
      await expect.poll(() => alert.textContent()).toMatch(/^Could not connect: A Memory Store is reached through the Connection panel\. Enter an API key or a proxy URL/u);
      expect(await statusLine(page).textContent()).toBe('Not connected.');
      // Said once: the status line says it, the alert says why.
      expect((await panel(page).textContent())?.match(/not connected/giu)).toHaveLength(1);
      expect(await button(page, 'Sync now').isHidden()).toBe(true);
    });
  });
});
