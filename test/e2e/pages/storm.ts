// The page of test/e2e/storm.test.ts: runs a storm (storm-driver.ts) here or in a dedicated worker, streaming
// every message to the test through the `stormReport` binding; and looks at the stores afterwards.

import { freshToolCheck, inspect, prepareStorm, seedBig } from './storm-driver.js';
import type { Inspection, PreparedStorm, StormConfig, StormMessage } from './storm-driver.js';
import type { ToWorker, FromWorker } from './storm-worker.js';

export interface StormApi {
  /** Opens participant `config.name`'s tool, here or in a new worker; resolves once it hears the others. */
  prepare(config: StormConfig, inWorker: boolean): Promise<void>;
  /** Runs that participant's ops from wall-clock `startAt`; resolves when they have all ended. */
  go(name: string, startAt: number): Promise<void>;
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

const prepared = new Map<string, PreparedStorm>();

/** A participant in a dedicated worker, driven by messages (storm-worker.ts). */
function inWorker(config: StormConfig): Promise<PreparedStorm> {
  const worker = new Worker(new URL('./storm-worker.ts', import.meta.url), { type: 'module' });
  let waiting: { done: () => void; fail: (error: Error) => void } | undefined;
  const ask = (message: ToWorker): Promise<void> =>
    new Promise((done, fail) => {
      waiting = { done, fail };
      worker.postMessage(message);
    });
  worker.onmessage = (event: MessageEvent<FromWorker>) => {
    const data = event.data;
    if (data.type === 'settled') waiting?.done();
    else if (data.type === 'failed') waiting?.fail(new Error(data.error));
    else post(data);
  };
  worker.onerror = (event) => waiting?.fail(new Error(`worker error: ${event.message}`));
  return ask({ type: 'prepare', config }).then(() => ({ go: (startAt) => ask({ type: 'go', startAt }) }));
}

window.storm = {
  async prepare(config, worker) {
    prepared.set(config.name, worker ? await inWorker(config) : await prepareStorm(config, post));
  },
  go(name, startAt) {
    const participant = prepared.get(name);
    if (!participant) return Promise.reject(new Error(`storm ${name} was not prepared`));
    return participant.go(startAt);
  },
  inspect,
  freshToolCheck,
  seedBig,
};
document.body.dataset.ready = 'true';
