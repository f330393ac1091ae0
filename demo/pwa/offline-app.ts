// The page's side of the offline app: registers the built demo's service worker (never on the dev server), waits
// until it holds this build, and offers a newer build when one is waiting, for the person to take when they choose.

import { showUpdateNotice } from './update-notice.js';

/** Next to index.html in the build (../vite/offline-app.ts), so its scope is the demo's folder. */
const WORKER_URL = './sw.js';

/**
 * Registers the service worker and resolves once it is active (every file of this build is then in its cache, so a
 * reload with the network gone opens the page and plays the Offline demo). Never rejects: without a service worker
 * (the dev server, a browser without one, a refused registration) the page works as before, online.
 */
export async function installOfflineApp(): Promise<void> {
  if (!__OFFLINE_APP__ || !('serviceWorker' in navigator)) return;
  let registration: ServiceWorkerRegistration;
  try {
    registration = await navigator.serviceWorker.register(WORKER_URL);
  } catch {
    return;
  }
  offerUpdates(registration);
  await settled(registration.installing ?? registration.waiting ?? registration.active);
}

/** Resolves when `worker` is active, or has failed (redundant), or is installed behind an active one. */
function settled(worker: ServiceWorker | null): Promise<void> {
  return new Promise((done) => {
    if (worker === null) return done();
    const check = () => {
      const { state } = worker;
      if (state === 'activated' || state === 'redundant' || (state === 'installed' && navigator.serviceWorker.controller)) {
        worker.removeEventListener('statechange', check);
        done();
      }
    };
    worker.addEventListener('statechange', check);
    check();
  });
}

/**
 * A worker of a newer build that is installed while an older one controls the page is offered (never forced: a
 * conversation may be under way); Reload lets it take over, and the page reloads once it has.
 */
function offerUpdates(registration: ServiceWorkerRegistration): void {
  const offer = (worker: ServiceWorker) => {
    if (!navigator.serviceWorker.controller) return; // the first install: nothing older to replace
    showUpdateNotice(() => {
      navigator.serviceWorker.addEventListener('controllerchange', () => location.reload(), { once: true });
      worker.postMessage({ type: 'skip-waiting' });
    });
  };
  if (registration.waiting) offer(registration.waiting);
  registration.addEventListener('updatefound', () => {
    const worker = registration.installing;
    if (worker === null) return;
    worker.addEventListener('statechange', () => {
      if (worker.state === 'installed') offer(worker);
    });
  });
  // A page kept open for days asks again when it is looked at; the browser also asks on every load.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void registration.update().catch(() => undefined);
  });
}
