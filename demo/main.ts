// The demo page: opens the memory and wires the panels. The only place that catches start-up failures and
// shows them; the panels own their own sections of index.html.

import { IndexedDBMemoryTool } from '../src/index.js';
import { setupBundlePanel } from './bundle-panel.js';
import { setupChat } from './chat.js';
import { setupCommandConsole } from './command-console.js';
import { setupConnection } from './connection.js';
import { messageOf } from './dom.js';
import { setupExpiryControl } from './expiry-control.js';
import { setupForgetControl } from './forget-control.js';
import { setupHistoryPanel } from './history-panel.js';
import { setupMemoryPanel } from './memory-panel.js';
import { setupStoragePanel } from './storage-panel.js';
import { setupSyncPanel } from './sync-panel.js';

/** One database for the demo, apart from any app on the same origin. */
const DB_NAME = 'idb-memory-tool-demo';

async function start(): Promise<void> {
  const tool = await IndexedDBMemoryTool.init({ dbName: DB_NAME });
  const connection = setupConnection();
  // Forgetting and clearing are announced as changes: the panels redraw from those.
  const forget = setupForgetControl(tool);
  const memory = setupMemoryPanel(tool, (path) => forget.choose(path));
  const storage = setupStoragePanel();
  const history = setupHistoryPanel(tool);
  setupChat(tool, connection, storage.reportFailure);
  setupCommandConsole(tool, storage.reportFailure);
  setupBundlePanel(tool, async () => {
    await Promise.all([memory.refresh(), storage.refresh(), history.refresh()]);
  });
  // An expiry that deleted nothing sends no change event; the panels are redrawn either way.
  setupExpiryControl(tool, async () => {
    await Promise.all([memory.refresh(), history.refresh()]);
  });
  // Pulled files reach the tree and the history as change events, like any other write.
  setupSyncPanel(tool, connection);
  tool.subscribe(() => {
    storage.clearFailure();
    void storage.refresh();
  });
  // The demo must keep working offline once loaded: its export, import, undo and expiry included.
  await Promise.all([memory.refresh(), storage.refresh(), history.refresh(), IndexedDBMemoryTool.preload()]);
  document.body.dataset.ready = 'true';
}

start().catch((error: unknown) => {
  const banner = document.createElement('p');
  banner.className = 'fatal';
  banner.setAttribute('role', 'alert');
  banner.textContent = `The demo could not start: ${messageOf(error)}`;
  document.body.prepend(banner);
});
