// The moments a page offers for a pass: shown again (visibilitychange to visible, not to hidden) and back online.
// Browsers only: Node has neither event. The page's visibility is stubbed, as a test page cannot be hidden for real.

import { afterEach, describe, expect, it } from 'vitest';
import { createMemorySync } from '../../src/sync/memory-sync.js';
import type { MemorySync } from '../../src/sync/memory-sync.js';
import { engine } from '../helpers/engine.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { MemoryRemote } from '../helpers/memory-remote.js';
import { statusWhere } from '../helpers/sync-status.js';

const open = toolsClosedAfterEach('page-events');
const HOUR = 3_600_000;

/** The page as shown (`visible`) or not (`hidden`), announced as a browser does. */
function showPage(state: 'visible' | 'hidden'): void {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
}

/** Time enough for a pass planned at once to have begun: a few tasks. */
const aFewTasks = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 10));
};

afterEach(() => {
  // Back to the document's own getter.
  if (typeof document !== 'undefined') Reflect.deleteProperty(document, 'visibilityState');
});

/** A mount that has made its first pass and plans the next an hour away: any pass sooner came from the page. */
async function settled(): Promise<{ remote: MemoryRemote; sync: MemorySync }> {
  const remote = new MemoryRemote();
  const sync = createMemorySync(await open(), { remote: remote.handle(), interval: HOUR });
  await statusWhere(sync, (s) => s.lastSync !== null && s.state === 'idle');
  return { remote, sync };
}

describe.skipIf(engine === 'node')('passes the page starts (skipped in Node: no page events)', () => {
  it('runs a pass when the page becomes visible, and none when it is hidden', async () => {
    const { remote, sync } = await settled();
    const lists = remote.count('list');
    showPage('hidden');
    await aFewTasks();
    expect(remote.count('list')).toBe(lists);
    expect(sync.status().state).toBe('idle');
    await remote.put('/while-away.md', 'away');
    showPage('visible');
    const after = await statusWhere(sync, (s) => s.lastReport?.pulled.includes('/memories/while-away.md') === true);
    expect(after.state).toBe('idle');
    expect(remote.count('list')).toBe(lists + 1);
    sync.close();
  });

  it('runs a pass when the browser comes back online', async () => {
    const { remote, sync } = await settled();
    const lists = remote.count('list');
    await remote.put('/offline.md', 'written elsewhere');
    globalThis.dispatchEvent(new Event('online'));
    await statusWhere(sync, (s) => s.lastReport?.pulled.includes('/memories/offline.md') === true);
    expect(remote.count('list')).toBe(lists + 1);
    sync.close();
  });

  it('runs none while stopped, nor after close(), which start() does not undo', async () => {
    const { remote, sync } = await settled();
    const lists = remote.count('list');
    sync.stop();
    showPage('visible');
    globalThis.dispatchEvent(new Event('online'));
    await aFewTasks();
    expect(remote.count('list')).toBe(lists);
    sync.close();
    sync.start();
    showPage('visible');
    globalThis.dispatchEvent(new Event('online'));
    await aFewTasks();
    expect(remote.count('list')).toBe(lists);
    expect(sync.status().state).toBe('stopped');
  });
});
