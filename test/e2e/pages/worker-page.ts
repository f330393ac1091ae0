// The page of test/e2e/workers.test.ts, on the main entry: runs the scenario itself (the reference), starts a
// dedicated and a shared worker (built by Vite with the page) and registers service workers (built apart), asks
// each to run the scenario, and listens on the same database meanwhile, so the test sees the changes reach the page.

import * as lib from '../../../src/index.js';
import type { MemoryChange, MemoryChangeEvent } from '../../../src/index.js';
import { runScenario } from './worker-api.js';
import type { ScenarioResult, WorkerAnswer, WorkerRequest } from './worker-api.js';

/** `page`: here; `dedicated`, `shared`: the page's workers; any other text: the URL of a registered service worker. */
export type Target = string;

export interface ScenarioRun {
  result: ScenarioResult;
  /** The changes this page heard from the run, as `remote` events, flattened in order. */
  heard: MemoryChange[];
  heardSources: string[];
}

export interface WorkersApi {
  /** Registers `url` as a module service worker (its folder its scope) and waits until it is active. */
  register(url: string): Promise<{ state: string; scope: string }>;
  /** The service worker that controls this page (an extension's background worker, for its pages), once active: its URL. */
  attach(): Promise<string>;
  scenario(target: Target, dbName: string, importDbName: string): Promise<ScenarioRun>;
  /** The worker subscribes to `dbName`, this page writes to it, and the worker answers what it heard. */
  hearPage(target: Target, dbName: string): Promise<MemoryChangeEvent>;
}

declare global {
  interface Window {
    workers: WorkersApi;
  }
}

let dedicated: Worker | undefined;
let shared: SharedWorker | undefined;
const registrations = new Map<string, ServiceWorkerRegistration>();

async function whenActive(registration: ServiceWorkerRegistration): Promise<ServiceWorker> {
  const worker = registration.active ?? registration.waiting ?? registration.installing;
  if (!worker) throw new Error(`no worker in ${registration.scope}`);
  if (worker.state !== 'activated') {
    await new Promise<void>((done, fail) => {
      worker.addEventListener('statechange', () => {
        if (worker.state === 'activated') done();
        if (worker.state === 'redundant') fail(new Error(`${worker.scriptURL} became redundant before it was active`));
      });
    });
  }
  return worker;
}

async function register(url: string): Promise<{ state: string; scope: string }> {
  const registration = await navigator.serviceWorker.register(url, { type: 'module' });
  const worker = await whenActive(registration);
  registrations.set(url, registration);
  return { state: worker.state, scope: registration.scope };
}

async function attach(): Promise<string> {
  const registration = await navigator.serviceWorker.ready;
  const worker = await whenActive(registration);
  registrations.set(worker.scriptURL, registration);
  return worker.scriptURL;
}

/** Sends `request` with a fresh port; the answers come back on it, in order. */
function send(target: Target, request: WorkerRequest): AsyncIterator<WorkerAnswer> {
  const channel = new MessageChannel();
  const queued: WorkerAnswer[] = [];
  const waiting: Array<(answer: WorkerAnswer) => void> = [];
  const put = (answer: WorkerAnswer): void => {
    const next = waiting.shift();
    if (next) next(answer);
    else queued.push(answer);
  };
  channel.port1.onmessage = (event: MessageEvent<WorkerAnswer>) => put(event.data);
  const fail = (what: string) => (event: Event) =>
    put({ type: 'failed', error: `${what}: ${event instanceof ErrorEvent ? event.message : event.type}` });
  if (target === 'dedicated') {
    dedicated ??= new Worker(new URL('./worker-dedicated.ts', import.meta.url), { type: 'module' });
    dedicated.addEventListener('error', fail('the dedicated worker failed'));
    dedicated.postMessage(request, [channel.port2]);
  } else if (target === 'shared') {
    shared ??= new SharedWorker(new URL('./worker-shared.ts', import.meta.url), { type: 'module' });
    shared.addEventListener('error', fail('the shared worker failed'));
    shared.port.postMessage(request, [channel.port2]);
  } else {
    const active = registrations.get(target)?.active;
    if (!active) throw new Error(`${target} is not an active service worker`);
    active.postMessage(request, [channel.port2]);
  }
  return {
    next: () =>
      new Promise((done) => {
        const answer = queued.shift();
        if (answer) done({ value: answer, done: false });
        else waiting.push((value) => done({ value, done: false }));
      }),
  };
}

async function answerOf<T extends WorkerAnswer['type']>(answers: AsyncIterator<WorkerAnswer>, type: T): Promise<Extract<WorkerAnswer, { type: T }>> {
  const { value } = await answers.next();
  if (value.type === 'failed') throw new Error(value.error);
  if (value.type !== type) throw new Error(`expected ${type}, got ${value.type}`);
  return value as Extract<WorkerAnswer, { type: T }>;
}

async function scenario(target: Target, dbName: string, importDbName: string): Promise<ScenarioRun> {
  // This page listens on the same database throughout, as an app's page would while its worker works.
  const listener = await lib.IndexedDBMemoryTool.init({ dbName });
  const events: MemoryChangeEvent[] = [];
  let changed: () => void = () => undefined;
  listener.subscribe((event) => {
    events.push(event);
    changed();
  });
  try {
    const result =
      target === 'page'
        ? await runScenario(lib, dbName, importDbName)
        : (await answerOf(send(target, { type: 'scenario', dbName, importDbName }), 'scenario')).result;
    // Other contexts' changes come a task or more later: wait until as many have come as the run made.
    const made = result.events.flatMap((event) => event.changes).length;
    const count = (): number => events.flatMap((event) => event.changes).length;
    if (count() < made) await new Promise<void>((done) => (changed = () => count() >= made && done()));
    return { result, heard: events.flatMap((event) => event.changes), heardSources: [...new Set(events.map((event) => event.source))] };
  } finally {
    listener.close();
  }
}

async function hearPage(target: Target, dbName: string): Promise<MemoryChangeEvent> {
  const answers = send(target, { type: 'listen', dbName });
  await answerOf(answers, 'listening');
  const writer = await lib.IndexedDBMemoryTool.init({ dbName });
  try {
    await writer.create({ command: 'create', path: '/memories/from-page.md', file_text: 'hello, worker\n' });
    return (await answerOf(answers, 'heard')).event;
  } finally {
    writer.close();
  }
}

window.workers = { register, attach, scenario, hearPage };
document.body.dataset.ready = 'true';
