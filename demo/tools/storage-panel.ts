// The storage panel: how much this origin uses of its quota, and whether the browser keeps it persistently
// (navigator.storage.estimate / persisted / persist). Browsers without the API are told so. A write the browser
// refused (quota full) is shown here as an alert until a later change commits.

import { byId, el, messageOf } from '../page/dom.js';
import type { StorageFailure } from '../page/storage-failure.js';

export interface StoragePanel {
  refresh(): Promise<void>;
  /** Shows why a write failed, where the quota is. */
  reportFailure(failure: StorageFailure): void;
  /** A change committed: storage works again, the alert goes. */
  clearFailure(): void;
}

export function setupStoragePanel(): StoragePanel {
  const usage = byId('storage-usage', HTMLElement);
  const persisted = byId('storage-persisted', HTMLElement);
  const persist = byId('storage-persist', HTMLButtonElement);
  const refreshButton = byId('storage-refresh', HTMLButtonElement);
  const status = byId('storage-status', HTMLElement);
  const alert = byId('storage-alert', HTMLElement);
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

  const reportFailure = (failure: StorageFailure) => {
    alert.replaceChildren(
      el('span', { className: 'who', text: `${failure.title}: the last write was refused` }),
      el('p', { text: failure.message }),
      el('p', { text: failure.advice }),
    );
    alert.hidden = false;
    void refresh();
  };
  const clearFailure = () => {
    alert.hidden = true;
    alert.replaceChildren();
  };
  return { refresh, reportFailure, clearFailure };
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
