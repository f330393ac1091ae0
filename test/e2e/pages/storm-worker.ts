// A dedicated worker running its own IndexedDBMemoryTool storm (storm-driver.ts), for test/e2e/storm.test.ts:
// `prepare` opens the tool, `go` runs the ops; each answers `settled` (or `failed`), every other message is the storm's.

import { prepareStorm } from './storm-driver.js';
import type { PreparedStorm, StormConfig, StormMessage } from './storm-driver.js';

export type ToWorker = { type: 'prepare'; config: StormConfig } | { type: 'go'; startAt: number };
export type FromWorker = StormMessage | { type: 'settled' } | { type: 'failed'; error: string };

const send = (message: FromWorker): void => self.postMessage(message);
let prepared: PreparedStorm | undefined;

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const data = event.data;
  const step =
    data.type === 'prepare'
      ? prepareStorm(data.config, send).then((storm) => void (prepared = storm))
      : prepared
        ? prepared.go(data.startAt)
        : Promise.reject(new Error('go before prepare'));
  step.then(
    () => send({ type: 'settled' }),
    (error: unknown) => send({ type: 'failed', error: String(error) }),
  );
};
