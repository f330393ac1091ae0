// The page of test/e2e/storm.test.ts: runs a storm (storm-driver.ts) here or in a dedicated worker, streaming
// every message to the test through the `stormReport` binding; and looks at the stores afterwards.

import { freshToolCheck, inspect, runStorm, seedBig } from './storm-driver.js';
import type { Inspection, StormConfig, StormMessage } from './storm-driver.js';

export interface StormApi {
  storm(config: StormConfig): Promise<void>;
  stormInWorker(config: StormConfig): Promise<void>;
  inspect(dbName: string): Promise<Inspection>;
  freshToolCheck(dbName: string): Promise<string[]>;
  seedBig(dbName: string): Promise<number>;
}

declare global {
  interface Window {
    storm: StormApi;
    stormReport?: (messages: StormMessage[]) => Promise<void>;
  }
}

// The messages posted in one task reach the test in one call: a call per message costs the test's process a round
// trip each, and on a busy machine it then falls seconds behind the pages (which also holds up `ackStarts`).
let batch: StormMessage[] | undefined;
let sending: Promise<void> | undefined;

/** Settles once the test has the message (the driver's `ackStarts` waits for that). */
const post = (message: StormMessage): Promise<void> | undefined => {
  if (!batch) {
    const messages: StormMessage[] = (batch = []);
    sending = new Promise<void>((done) => setTimeout(done, 0)).then(() => {
      batch = undefined;
      return window.stormReport?.(messages);
    });
  }
  batch.push(message);
  return sending;
};

const workers: Worker[] = [];

window.storm = {
  storm: (config) => runStorm(config, post),
  stormInWorker(config) {
    const worker = new Worker(new URL('./storm-worker.ts', import.meta.url), { type: 'module' });
    workers.push(worker);
    return new Promise((done, fail) => {
      worker.onmessage = (event: MessageEvent<StormMessage | { type: 'finished' } | { type: 'failed'; error: string }>) => {
        const data = event.data;
        if (data.type === 'finished') done();
        else if (data.type === 'failed') fail(new Error(data.error));
        else post(data);
      };
      worker.onerror = (event) => fail(new Error(`worker error: ${event.message}`));
      worker.postMessage(config);
    });
  },
  inspect,
  freshToolCheck,
  seedBig,
};
document.body.dataset.ready = 'true';
