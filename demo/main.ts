// The demo page: opens the memory and wires the panels. The only place that catches start-up failures and
// shows them; the panels own their own sections of index.html. What a conversation or a sync needs (the SDK above
// all) loads later, on first use or when the page is idle (lazy-code.ts), so the first load stays small.

import { IndexedDBMemoryTool } from '../src/index.js';
import type { WriteProposal } from '../src/index.js';
import { setupChat } from './chat/chat.js';
import { setupConnection } from './chat/connection.js';
import type { ConnectionPanel } from './chat/connection.js';
import { byId, messageOf } from './page/dom.js';
import { setupHeartSwitch } from './page/heart-switch.js';
import { loadHistoryDiff, setupHistoryPanel } from './history/history-panel.js';
import { loadAgent, loadFailureWords, loadOfflineDemo, loadWrittenFile, prefetchWhenIdle } from './page/lazy-code.js';
import { setupMemoryPanel } from './memory/memory-panel.js';
import { panelOnDemand } from './page/panel-on-demand.js';
import { setupStoragePanel } from './tools/storage-panel.js';
import { setupToolTabs } from './page/tool-tabs.js';
import { setupTreeSplitter } from './page/tree-splitter.js';

/** One database for the demo, apart from any app on the same origin. */
const DB_NAME = 'idb-memory-tool-demo';
/** Where the Sync panel keeps its fields when the person asks it to (sync-remote-form.ts). */
const SYNC_REMEMBERED = 'idb-memory-tool-demo:sync';
/** Present when the person reviews Claude's writes (demo/review/memory-options.ts keeps it). */
const REVIEW_REMEMBERED = 'idb-memory-tool-demo:review';
/** The review cards and their policy: loaded at the first write Claude asks for, or when idle. */
const reviewCards = () => import('./review/review-card.js');

async function start(): Promise<void> {
  // Before the memory opens: the file list has its remembered width from the first paint.
  setupTreeSplitter(byId('memory-columns', HTMLElement), byId('tree-splitter', HTMLElement));
  // Review is wired into the tool as it opens, and only when it is on then: the library loads its approval part
  // with a tool that has the hook, which the first load of a page that does not review should not carry.
  const reviewing = remembered(REVIEW_REMEMBERED);
  byId('review-writes', HTMLInputElement).checked = reviewing;
  const tool = await IndexedDBMemoryTool.init({
    dbName: DB_NAME,
    ...(reviewing ? { approve: async (proposal: WriteProposal) => (await reviewCards()).reviewApprove(proposal) } : {}),
  });
  const connection = setupConnection();
  const heart = setupHeartSwitch();
  const tools = setupToolTabs();
  // A link to a tool (…/#sync, …/#console) opens its tab; …/#use-it unfolds "Use it in your app".
  const useIt = byId('use-it', HTMLDetailsElement);
  const toHash = () => {
    const target = location.hash.slice(1);
    if (target === useIt.id) useIt.open = true;
    else tools.show(target);
  };
  addEventListener('hashchange', toHash);
  toHash();
  // The Forget field follows the file opened in the Memory panel (plain HTML: no code needs to load for that).
  const forgetPath = byId('forget-path', HTMLInputElement);
  const memory = setupMemoryPanel(tool, (path) => {
    forgetPath.value = path;
  });
  // The search box's code (and the library's search under it) loads when the box is first reached.
  const search = panelOnDemand(byId('memory-search', HTMLElement), async () => {
    const { setupMemorySearch } = await import('./memory/memory-search.js');
    setupMemorySearch(tool, memory);
  });
  // Its options (review, the blame gutter) load when first reached.
  const options = panelOnDemand(byId('memory-options', HTMLElement), async () => {
    const { setupMemoryOptions } = await import('./review/memory-options.js');
    setupMemoryOptions(tool, reviewing, REVIEW_REMEMBERED);
  });
  const storage = setupStoragePanel();
  const history = setupHistoryPanel(tool);
  setupChat(tool, connection, memory, storage.reportFailure);
  // The Console and Bundles tabs load their code when first reached (a press meanwhile is replayed), or when idle.
  const consolePanel = panelOnDemand(byId('console', HTMLElement), async () => {
    const { setupCommandConsole } = await import('./tools/command-console.js');
    setupCommandConsole(tool, storage.reportFailure);
  });
  const bundles = panelOnDemand(byId('bundles', HTMLElement), async () => {
    const { setupBundlePanel } = await import('./tools/bundle-panel.js');
    setupBundlePanel(tool, async () => {
      await Promise.all([memory.refresh(), storage.refresh(), history.refresh()]);
    });
  });
  // An expiry that deleted nothing sends no change event; the panels are redrawn either way. Its code loads when
  // the form is first reached (a press of Expire meanwhile is replayed), keeping the first load within its budget.
  const expiry = panelOnDemand(byId('expire-form', HTMLFormElement), async () => {
    const { setupExpiryControl } = await import('./history/expiry-control.js');
    setupExpiryControl(tool, async () => {
      await Promise.all([memory.refresh(), history.refresh()]);
    });
  });
  // Forget for good: its code loads when the form is first reached. Forgetting and clearing are announced as
  // changes, from which the panels redraw.
  const forget = panelOnDemand(byId('forget-form', HTMLFormElement), async () => {
    const { setupForgetControl } = await import('./history/forget-control.js');
    setupForgetControl(tool);
  });
  // Pulled files reach the tree and the history as change events, like any other write.
  const sync = syncPanel(tool, connection);
  // Choosing a tab (or a link to it) is reaching for it: its code loads then, if idle time has not brought it already.
  const onDemand = new Map([['sync', sync], ['console', consolePanel], ['bundles', bundles]]);
  const reach = (tab: string) => void onDemand.get(tab)?.load().catch(() => undefined);
  for (const tab of onDemand.keys()) byId(`tab-${tab}`, HTMLButtonElement).addEventListener('click', () => reach(tab));
  reach(location.hash.slice(1));
  addEventListener('hashchange', () => reach(location.hash.slice(1)));
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
  const cards = reviewing ? [reviewCards] : [];
  const panels = [sync.load, search.load, options.load, expiry.load, forget.load, consolePanel.load, bundles.load];
  // Last, the service worker of the built demo (demo/pwa/): it caches the whole build, so a reload offline works too.
  const offlineApp = async () => (await import('./pwa/offline-app.js')).installOfflineApp();
  prefetchWhenIdle([
    () => IndexedDBMemoryTool.preload(),
    loadAgent,
    loadFailureWords,
    loadWrittenFile,
    loadOfflineDemo,
    loadHistoryDiff,
    ...panels,
    ...cards,
    offlineApp,
  ]);
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
