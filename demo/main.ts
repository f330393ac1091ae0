// The demo page: opens the memory and wires the panels. The only place that catches start-up failures and
// shows them; the panels own their own sections of index.html. What a conversation or a sync needs (the SDK above
// all) loads later, on first use or when the page is idle (lazy-code.ts), so the first load stays small.

import { IndexedDBMemoryTool } from '../src/index.js';
import { setupBundlePanel } from './tools/bundle-panel.js';
import { setupChat } from './chat/chat.js';
import { setupCommandConsole } from './tools/command-console.js';
import { setupConnection } from './chat/connection.js';
import type { ConnectionPanel } from './chat/connection.js';
import { byId, messageOf } from './page/dom.js';
import { setupExpiryControl } from './history/expiry-control.js';
import { setupForgetControl } from './history/forget-control.js';
import { setupHeartSwitch } from './page/heart-switch.js';
import { setupHistoryPanel } from './history/history-panel.js';
import { loadAgent, loadFailureWords, loadOfflineDemo, prefetchWhenIdle } from './page/lazy-code.js';
import { setupMemoryPanel } from './memory/memory-panel.js';
import { panelOnDemand } from './page/panel-on-demand.js';
import { setupStoragePanel } from './tools/storage-panel.js';
import { setupToolTabs } from './page/tool-tabs.js';
import { loadReviewCards, reviewHook, setupReviewSetting } from './review/review-setting.js';

/** One database for the demo, apart from any app on the same origin. */
const DB_NAME = 'idb-memory-tool-demo';
/** Where the Sync panel keeps its fields when the person asks it to (sync-remote-form.ts). */
const SYNC_REMEMBERED = 'idb-memory-tool-demo:sync';

async function start(): Promise<void> {
  // Review is wired into the tool as it opens, when it is on then (review-setting.ts says why).
  let review: { isOn(): boolean } | undefined;
  const approve = reviewHook(() => review?.isOn() ?? true);
  const tool = await IndexedDBMemoryTool.init({ dbName: DB_NAME, ...(approve ? { approve } : {}) });
  review = setupReviewSetting(approve !== undefined);
  const connection = setupConnection();
  const heart = setupHeartSwitch();
  const tools = setupToolTabs();
  // A link to a tool (…/#sync, …/#console) opens its tab.
  const toHash = () => tools.show(location.hash.slice(1));
  addEventListener('hashchange', toHash);
  toHash();
  // Forgetting and clearing are announced as changes: the panels redraw from those.
  const forget = setupForgetControl(tool);
  const memory = setupMemoryPanel(tool, (path) => forget.choose(path));
  // The search box's code (and the library's search under it) loads when the box is first reached.
  const search = panelOnDemand(byId('memory-search', HTMLElement), async () => {
    const { setupMemorySearch } = await import('./memory/memory-search.js');
    setupMemorySearch(tool, memory);
  });
  blameToggle(tool);
  const storage = setupStoragePanel();
  const history = setupHistoryPanel(tool);
  setupChat(tool, connection, memory, storage.reportFailure);
  setupCommandConsole(tool, storage.reportFailure);
  setupBundlePanel(tool, async () => {
    await Promise.all([memory.refresh(), storage.refresh(), history.refresh()]);
  });
  // An expiry that deleted nothing sends no change event; the panels are redrawn either way.
  setupExpiryControl(tool, async () => {
    await Promise.all([memory.refresh(), history.refresh()]);
  });
  // Pulled files reach the tree and the history as change events, like any other write.
  const sync = syncPanel(tool, connection);
  // Choosing the Sync tab is reaching for it: its code loads then, if idle time has not brought it already.
  byId('tab-sync', HTMLButtonElement).addEventListener('click', () => void sync.load().catch(() => undefined));
  tool.subscribe(() => {
    storage.clearFailure();
    void storage.refresh();
    heart.changed();
  });
  // Someone who keeps sync settings here gets them back at once; anyone else loads the panel on first use.
  const syncFirst = remembered(SYNC_REMEMBERED) ? sync.load() : undefined;
  await Promise.all([memory.refresh(), storage.refresh(), history.refresh(), syncFirst]);
  document.body.dataset.ready = 'true';
  // Then, when idle: export, import, undo and expiry (the library loads them on first use), the conversation's code
  // and the Sync panel, so that the demo keeps working offline once they are here.
  const cards = approve ? [loadReviewCards] : [];
  prefetchWhenIdle([() => IndexedDBMemoryTool.preload(), loadAgent, loadFailureWords, loadOfflineDemo, sync.load, search.load, ...cards]);
}

/** "Show who wrote each line": the gutter's code (blame-gutter.ts) loads when the box is first ticked. */
function blameToggle(tool: IndexedDBMemoryTool): void {
  const box = byId('blame-toggle', HTMLInputElement);
  let gutter: Promise<{ show(on: boolean): Promise<void> }> | undefined;
  box.addEventListener('change', () => {
    gutter ??= import('./memory/blame-gutter.js').then(({ setupBlameGutter }) => setupBlameGutter(tool));
    void gutter.then((loaded) => loaded.show(box.checked)).catch(() => {
      gutter = undefined;
      box.checked = false;
    });
  });
}

/** The Sync panel (its remotes, and the SDK for Memory Stores), loaded when the person reaches for it. */
function syncPanel(tool: IndexedDBMemoryTool, connection: ConnectionPanel) {
  return panelOnDemand(byId('sync', HTMLElement), async () => {
    const { setupSyncPanel } = await import('./sync/sync-panel.js');
    setupSyncPanel(tool, connection);
    // Ticked before the panel listened: what the fields hold now is remembered, as a tick does once it listens.
    const remember = document.getElementById('sync-remember');
    if (remember instanceof HTMLInputElement && remember.checked) remember.dispatchEvent(new Event('change'));
  });
}

function remembered(key: string): boolean {
  try {
    return localStorage.getItem(key) !== null;
  } catch {
    return false; // storage disabled: nothing was remembered
  }
}

start().catch((error: unknown) => {
  const banner = document.createElement('p');
  banner.className = 'fatal';
  banner.setAttribute('role', 'alert');
  banner.textContent = `The demo could not start: ${messageOf(error)}`;
  document.body.prepend(banner);
});
