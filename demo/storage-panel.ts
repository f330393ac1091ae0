// The storage panel: how much this origin uses of its quota, and whether the browser keeps it persistently
// (navigator.storage.estimate / persisted / persist). Browsers without the API are told so.

import { byId, messageOf } from './dom.js';

export function setupStoragePanel(): { refresh(): Promise<void> } {
  const usage = byId('storage-usage', HTMLElement);
  const persisted = byId('storage-persisted', HTMLElement);
  const persist = byId('storage-persist', HTMLButtonElement);
  const refreshButton = byId('storage-refresh', HTMLButtonElement);
  const status = byId('storage-status', HTMLElement);
  const storage = 'storage' in navigator ? navigator.storage : undefined;

  const refresh = async () => {
    if (!storage) {
      usage.textContent = 'not reported by this browser';
      persisted.textContent = 'unknown';
      persist.disabled = true;
      return;
    }
    try {
      const estimate = await storage.estimate();
      usage.textContent = `${bytes(estimate.usage ?? 0)} of ${bytes(estimate.quota ?? 0)}`;
      const kept = await storage.persisted();
      persisted.textContent = kept ? 'yes — kept until you clear it' : 'no — the browser may evict it';
      persist.disabled = kept;
    } catch (error) {
      status.textContent = messageOf(error);
    }
  };

  persist.addEventListener('click', () => {
    if (!storage) return;
    void storage.persist().then(
      async (granted) => {
        status.textContent = granted
          ? 'The browser will keep this storage.'
          : 'The browser said no (it often grants this only to sites you use a lot, or bookmark or install).';
        await refresh();
      },
      (error: unknown) => {
        status.textContent = messageOf(error);
      },
    );
  });
  refreshButton.addEventListener('click', () => void refresh());
  return { refresh };
}

function bytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
