// CallOrder (src/tool/call-order.ts) on its own: calls take effect in the order they were made, a held turn keeps
// later calls waiting until its task settles, and letting a turn go never lets a newer call slip ahead.
// The same order through the tool: parallel-calls.test.ts.

import { describe, expect, it } from 'vitest';
import { CallOrder } from '../../src/tool/call-order.js';

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Lets every queued microtask and a few more run. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('CallOrder.enter', () => {
  it('starts calls that hold no turn at once, in the order they were made', async () => {
    const order = new CallOrder();
    const started: string[] = [];
    const calls = ['a', 'b', 'c'].map((name) =>
      order.enter(async (held) => {
        started.push(`${name} ${held}`);
        await settle();
        return name;
      }),
    );
    // Before any of them awaited: none waits for another.
    expect(started).toEqual(['a false', 'b false', 'c false']);
    expect(await Promise.all(calls)).toEqual(['a', 'b', 'c']);
  });

  it('keeps later calls waiting while a held turn\'s task awaits, and starts them in call order once it settles', async () => {
    const order = new CallOrder();
    const events: string[] = [];
    const slow = gate();
    const first = order.enter(
      async (held) => {
        events.push(`first starts, held ${held}`);
        await slow.opened;
        events.push('first ends');
        return 'first';
      },
      () => true,
    );
    const later = ['b', 'c', 'd'].map((name) =>
      order.enter(async (held) => {
        events.push(`${name} starts, held ${held}`);
        return name;
      }),
    );
    await settle();
    expect(events).toEqual(['first starts, held true']);
    slow.open();
    expect(await Promise.all([first, ...later])).toEqual(['first', 'b', 'c', 'd']);
    expect(events).toEqual(['first starts, held true', 'first ends', 'b starts, held false', 'c starts, held false', 'd starts, held false']);
  });

  it('asks whether to hold when the wait ends, not when the call is made', async () => {
    const order = new CallOrder();
    const slow = gate();
    let holdNext = false;
    const first = order.enter(() => slow.opened, () => true);
    let seen: boolean | undefined;
    const second = order.enter(
      async (held) => {
        seen = held;
      },
      () => holdNext,
    );
    holdNext = true;
    slow.open();
    await Promise.all([first, second]);
    expect(seen).toBe(true);
  });

  it('makes a call that waited and then holds a turn of its own keep the calls behind it waiting', async () => {
    const order = new CallOrder();
    const one = gate();
    const two = gate();
    const events: string[] = [];
    const first = order.enter(() => one.opened, () => true);
    const second = order.enter(
      async () => {
        events.push('second starts');
        await two.opened;
        events.push('second ends');
      },
      () => true,
    );
    const third = order.enter(async () => void events.push('third starts'));
    one.open();
    await settle();
    expect(events).toEqual(['second starts']);
    two.open();
    await Promise.all([first, second, third]);
    expect(events).toEqual(['second starts', 'second ends', 'third starts']);
  });

  // A call made a few microtasks after a held task ends (as a change listener's is) meets the turn being let go: the
  // calls already waiting have been woken but not yet gone on. It must line up behind them, whatever the delay.
  it.each([0, 1, 2, 3, 4, 5, 6, 8])('lines a call made %i microtasks after a held task ends up behind the calls already waiting', async (hops) => {
    const order = new CallOrder();
    const started: string[] = [];
    const slow = gate();
    let late: Promise<unknown> | undefined;
    const first = order.enter(
      async () => {
        await slow.opened;
        started.push('first');
        // Scheduled as the task ends, so it runs while its turn is let go.
        void (async () => {
          for (let i = 0; i < hops; i++) await null;
          late = order.enter(async () => void started.push('late'));
        })();
      },
      () => true,
    );
    const waiting = ['b', 'c'].map((name) => order.enter(async () => void started.push(name)));
    slow.open();
    await Promise.all([first, ...waiting]);
    await settle();
    await late;
    expect(started).toEqual(['first', 'b', 'c', 'late']);
  });

  it('releases the turn of a task that throws: the call rejects and the calls after it run', async () => {
    const order = new CallOrder();
    const slow = gate();
    const failing = order.enter(
      async () => {
        await slow.opened;
        throw new Error('refused');
      },
      () => true,
    );
    const after = order.enter(async () => 'after');
    slow.open();
    await expect(failing).rejects.toThrow('refused');
    expect(await after).toBe('after');
  });

  it('releases the turn of a task that throws before it awaits anything', async () => {
    const order = new CallOrder();
    const failing = order.enter(() => {
      throw new Error('at once');
    }, () => true);
    await expect(failing).rejects.toThrow('at once');
    const started: string[] = [];
    await order.enter(async () => void started.push('next'));
    expect(started).toEqual(['next']);
  });
});
