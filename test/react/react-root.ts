// Real React for the hook tests: a root in a fresh element of the page, rendered and unmounted inside `act`, and
// otherwise left to run as in an app, so the stores' answers render on their own (tests wait for them with
// expect.poll). The act environment flag is on only during `act`, which keeps React from warning either way.

import { act } from 'react';
import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { it, onTestFinished } from 'vitest';
import { engine } from '../helpers/engine.js';

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}

/** `it` for a test that needs a DOM, skipped in Node with the reason in its name. */
export function domIt(name: string, body: () => Promise<void>): void {
  if (engine === 'node') it.skip(`${name} (skipped in Node: no DOM)`, body);
  else it(name, body);
}

async function inAct(work: () => void): Promise<void> {
  globalThis.IS_REACT_ACT_ENVIRONMENT = true;
  try {
    await act(async () => work());
  } finally {
    globalThis.IS_REACT_ACT_ENVIRONMENT = false;
  }
}

export interface Mounted {
  readonly container: HTMLElement;
  /** Renders `node` in place of what is there (new props, say), effects run. */
  render(node: ReactNode): Promise<void>;
  unmount(): Promise<void>;
}

/** Renders `node` into a new element, effects run; unmounted and removed after the test if it has not been. */
export async function mount(node: ReactNode): Promise<Mounted> {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  let mounted = true;
  const unmount = async () => {
    if (!mounted) return;
    mounted = false;
    await inAct(() => root.unmount());
    container.remove();
  };
  onTestFinished(unmount);
  await inAct(() => root.render(node));
  return { container, render: (next) => inAct(() => root.render(next)), unmount };
}
