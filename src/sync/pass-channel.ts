// A pass's result told to the other tabs of the memory, on a BroadcastChannel named as the mount's lock: the tab that
// synced posts it, the ones that did not hear it. Where there is no BroadcastChannel, there is nobody to tell.

import type { SyncReport } from './sync-report.js';

/** What a tab hears of another tab's pass. */
export interface HeardPass {
  /** When it ended, in ms since the epoch. */
  lastSync: number;
  report: SyncReport;
}

export interface PassChannel {
  post(news: HeardPass): void;
  close(): void;
}

/** Opens the channel `name`; `hear` is called with each result another tab posts on it. */
export function openPassChannel(name: string, hear: (news: HeardPass) => void): PassChannel {
  if (typeof BroadcastChannel !== 'function') return { post: () => undefined, close: () => undefined };
  const channel = new BroadcastChannel(name);
  // In Node a channel would otherwise keep the process alive after a script's last syncNow().
  (channel as { unref?: () => void }).unref?.();
  channel.addEventListener('message', (event: MessageEvent<HeardPass>) => hear(event.data));
  return { post: (news) => channel.postMessage(news), close: () => channel.close() };
}
