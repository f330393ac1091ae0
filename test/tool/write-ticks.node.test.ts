// How many promise ticks a write spends outside IndexedDB (src/tool/README.md, "Writes"): from the call to its
// transaction, and from the transaction's `complete` to the reply. Each tick is work a write's floor does not do, which
// a slow engine (Firefox) pays for. Node only: fake-indexeddb calls a `complete` event's listeners one after another
// before any tick runs, so a count started in the first one sees every tick; a browser runs them after each listener.

import { describe, expect, it, vi } from 'vitest';
import { freshToolEach } from '../helpers/fresh-tool.js';

const fresh = freshToolEach('write-ticks');

interface Ticks {
  /** Ticks from the call to the creation of its (first) transaction. */
  toTransaction: number;
  /** Ticks from the transaction's `complete` to the reply. */
  fromComplete: number;
}

/** Counts the ticks of `write`, a tick being one microtask turn; bounded, so a wait for a task cannot loop forever. */
async function ticksOf(write: () => Promise<unknown>): Promise<Ticks> {
  const original = IDBDatabase.prototype.transaction;
  let ticks = 0;
  let counting = false;
  const count = (): void => {
    if (!counting || ticks > 1000) return;
    ticks++;
    queueMicrotask(count);
  };
  const start = (): void => {
    ticks = 0;
    counting = true;
    queueMicrotask(count);
  };
  let toTransaction = -1;
  let fromComplete = -1;
  const spy = vi.spyOn(IDBDatabase.prototype, 'transaction').mockImplementation(function (this: IDBDatabase, ...args) {
    const tx = original.apply(this, args);
    if (toTransaction === -1) {
      toTransaction = ticks;
      counting = false;
      // Listening before idb does: this listener runs first, so the count starts before idb's own step.
      tx.addEventListener('complete', start);
    }
    return tx;
  });
  try {
    start();
    await write();
    fromComplete = ticks;
    counting = false;
  } finally {
    spy.mockRestore();
  }
  return { toTransaction, fromComplete };
}

describe('the promise ticks of a write of one file', () => {
  it('are few from the call to its transaction and from its commit to the reply', async () => {
    const { create, str_replace: strReplace } = fresh.tool;
    // The first write reads the totals; the ones after it trust what it left, as Claude's writes mostly do.
    await fresh.ok({ command: 'create', path: '/memories/a.md', file_text: 'one\ntwo\n' });
    const made = await ticksOf(() => create.call(fresh.tool, { command: 'create', path: '/memories/b.md', file_text: 'x\n' }));
    const edited = await ticksOf(() =>
      strReplace.call(fresh.tool, { command: 'str_replace', path: '/memories/a.md', old_str: 'two', new_str: '2' }),
    );
    // Before the store handed its open connection over in one tick and the runner and store ran as fewer nested
    // async functions: 2 ticks to the transaction and 9 from `complete` to the reply.
    for (const ticks of [made, edited]) {
      expect(ticks.toTransaction).toBeLessThanOrEqual(1);
      expect(ticks.fromComplete).toBeLessThanOrEqual(7);
    }
    expect(await fresh.read('/memories/a.md')).toBe('one\n2\n');
    expect(await fresh.read('/memories/b.md')).toBe('x\n');
  });
});
