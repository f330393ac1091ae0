// How each worker script of test/e2e/workers.test.ts takes the page's requests: a message carrying a port, answered
// on that port by worker-api.ts. Only the global scope differs, so each script names its entry and calls one of these.

import { answer } from './worker-api.js';
import type { Lib, WorkerRequest } from './worker-api.js';

interface RequestEvent {
  data: WorkerRequest;
  ports: readonly MessagePort[];
}

/** The scope this runs in, as far as these scripts use it (the project's types are the DOM's, not a worker's). */
const scope = globalThis as unknown as {
  addEventListener(type: 'message', listener: (event: RequestEvent & { waitUntil?(promise: Promise<unknown>): void }) => void): void;
  addEventListener(type: 'connect', listener: (event: { ports: readonly MessagePort[] }) => void): void;
};

function take(lib: Lib, event: RequestEvent): Promise<void> {
  const port = event.ports[0];
  if (!port) return Promise.resolve();
  return answer(lib, event.data, port);
}

/** A dedicated worker: requests come to the worker itself. */
export function serveDedicated(lib: Lib): void {
  scope.addEventListener('message', (event) => void take(lib, event));
}

/** A shared worker: requests come to each connecting page's port. */
export function serveShared(lib: Lib): void {
  scope.addEventListener('connect', (event) => {
    const page = event.ports[0];
    if (!page) return;
    page.onmessage = (message: MessageEvent<WorkerRequest>) => void take(lib, { data: message.data, ports: message.ports });
  });
}

/**
 * A service worker (also an extension's background worker): requests come as `message` events, each kept alive by
 * `waitUntil` until answered, or the browser may stop an idle worker mid-request.
 */
export function serveService(lib: Lib): void {
  scope.addEventListener('message', (event) => event.waitUntil?.(take(lib, event)));
}
