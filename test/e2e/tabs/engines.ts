// The engines the multi-tab tests run in, each test once per engine, and a test an engine's driver cannot run
// skipped with the reason in its name, so the run's list of skips says why (never a silent gap).

import { it } from 'vitest';
import { chromiumEngine } from './chromium.js';
import type { Capability, Engine } from './driver.js';
import { firefoxEngine } from './firefox.js';
import { webkitEngine } from './webkit.js';

export const ENGINES: readonly Engine[] = [chromiumEngine, firefoxEngine, webkitEngine];

/** `it(title, body, timeout)`, or `it.skip` named `title (skipped in <engine>: <why>)` if the engine lacks a `needs`. */
export function itIn(engine: Engine, needs: Capability[], title: string, body: () => Promise<void>, timeout?: number): void {
  const reason = needs.map((need) => engine.cannot[need]).find((why) => why !== undefined);
  if (reason === undefined) it(title, body, timeout);
  else it.skip(`${title} (skipped in ${engine.label}: ${reason})`, body, timeout);
}
