// The code the demo loads after its first paint: the SDK with the agent, the Offline demo's scripts, and whatever
// else main.ts hands to prefetchWhenIdle(). Each loads on first use, or before it when the page is idle, so that a
// page that went offline after that still plays the Offline demo. `?prefetch=off` leaves the idle part out.

import { loadTranscriptEvents } from '../chat/transcript.js';
import { once } from './load-once.js';

type AgentModule = typeof import('../../src/entries/agent.js');
type ScriptsModule = typeof import('../offline-scripts/index.js');
type PlayModule = typeof import('../offline-scripts/play.js');
type FailureModule = typeof import('../chat/send-failure.js');
type WrittenModule = typeof import('../chat/written-file.js');

/** `idb-memory-tool/agent` and the SDK under it, and how the transcript draws their events: what a conversation needs. */
export const loadAgent: () => Promise<AgentModule> = once(async () => {
  const [agent] = await Promise.all([import('../../src/entries/agent.js'), loadTranscriptEvents()]);
  return agent;
});

/** How a failed message is told (send-failure.ts): needed only once a conversation has started. */
export const loadFailureWords: () => Promise<FailureModule> = once(() => import('../chat/send-failure.js'));

/** What a turn wrote, to open it marked (written-file.ts, with its line diff): needed only as a turn starts. */
export const loadWrittenFile: () => Promise<WrittenModule> = once(() => import('../chat/written-file.js'));

/** The Offline demo: its scripts and their player (the scripted Claude, the agent, the SDK). */
export const loadOfflineDemo: () => Promise<ScriptsModule & PlayModule> = once(async () => {
  const [scripts, play] = await Promise.all([
    import('../offline-scripts/index.js'),
    import('../offline-scripts/play.js'),
    loadTranscriptEvents(),
  ]);
  return { ...scripts, ...play };
});

/** False with `?prefetch=off` in the page's address: nothing loads until it is used (the first load alone). */
export function prefetchAllowed(): boolean {
  return new URLSearchParams(location.search).get('prefetch') !== 'off';
}

/**
 * Runs `loads` one after the other once the browser is idle (at the latest after `timeout` ms), then marks
 * `<body data-prefetched="true">`. A load that fails is left to its first use, which tries it again.
 */
export function prefetchWhenIdle(loads: ReadonlyArray<() => Promise<unknown>>, timeout = 2_000): void {
  if (!prefetchAllowed()) return;
  const run = async () => {
    let all = true;
    for (const load of loads) {
      try {
        await load();
      } catch {
        all = false;
      }
    }
    if (all) document.body.dataset.prefetched = 'true';
  };
  // Safari has no requestIdleCallback: a timer after the first paint stands in.
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => void run(), { timeout });
  else setTimeout(() => void run(), 200);
}
