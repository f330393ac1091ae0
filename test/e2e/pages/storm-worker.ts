// A dedicated worker running its own IndexedDBMemoryTool storm (storm-driver.ts), for test/e2e/storm.test.ts.

import { runStorm } from './storm-driver.js';
import type { StormConfig } from './storm-driver.js';

self.onmessage = (event: MessageEvent<StormConfig>) => {
  runStorm(event.data, (message) => self.postMessage(message)).then(
    () => self.postMessage({ type: 'finished' }),
    (error: unknown) => self.postMessage({ type: 'failed', error: String(error) }),
  );
};
