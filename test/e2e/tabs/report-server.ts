// How the pages report to the test as they go (an import's progress, a storm's every outcome and event), the same
// in every engine: HTTP posts to a small server on 127.0.0.1 port 0. A page binding cannot serve: WebKit's WebDriver
// has none, and puppeteer's exposeFunction over BiDi lags about a second and drops the calls of a closing page.

import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import type { Tab } from './driver.js';

/** Where one page global's calls arrive, each call's arguments in the order the page made the calls. */
export interface ReportChannel {
  /**
   * Defines `window[name]` in `tab`: each call posts its arguments here and answers a promise that settles once this
   * server has them. Calls made while a post is under way go together in the next one.
   */
  install(tab: Tab, name: string): Promise<void>;
  /** Later posts to it are dropped (a page of a finished test may still send). */
  close(): void;
}

export interface ReportServer {
  channel<Args extends unknown[]>(listener: (...args: Args) => void): ReportChannel;
  close(): Promise<void>;
}

/** Runs in the page: the sender behind `window[name]`, one post at a time so that they arrive in order. */
function installSender({ name, url }: { name: string; url: string }): void {
  const queued: unknown[][] = [];
  let waiting: { done: () => void; fail: (error: unknown) => void }[] = [];
  let busy = false;
  const post = async (body: string): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      try {
        // keepalive: a post under way when the tab closes still arrives (its budget is 64 KiB a page).
        const response = await fetch(url, { method: 'POST', body, keepalive: attempt === 1 && body.length < 60_000 });
        if (response.ok) return;
        throw new Error(`report ${url}: HTTP ${response.status}`);
      } catch (error) {
        if (attempt >= 5) throw error;
        await new Promise((done) => setTimeout(done, 100 * attempt));
      }
    }
  };
  const pump = async (): Promise<void> => {
    busy = true;
    while (queued.length > 0) {
      const batch = queued.splice(0);
      const settle = waiting;
      waiting = [];
      try {
        await post(JSON.stringify(batch));
        settle.forEach((w) => w.done());
      } catch (error) {
        settle.forEach((w) => w.fail(error));
      }
    }
    busy = false;
  };
  (window as unknown as Record<string, unknown>)[name] = (...args: unknown[]): Promise<void> => {
    queued.push(args);
    const delivered = new Promise<void>((done, fail) => waiting.push({ done, fail }));
    if (!busy) void pump();
    return delivered;
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startReportServer(): Promise<ReportServer> {
  const listeners = new Map<string, (...args: unknown[]) => void>();
  let channels = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    // The pages are on the dev server's origin: a plain-text POST with this header is all CORS asks for.
    response.setHeader('access-control-allow-origin', '*');
    void readBody(request).then(
      (text) => {
        const listener = listeners.get(request.url ?? '');
        if (request.method !== 'POST' || !listener) {
          response.writeHead(request.method === 'OPTIONS' ? 204 : 404).end();
          return;
        }
        for (const args of JSON.parse(text) as unknown[][]) listener(...args);
        response.writeHead(204).end();
      },
      () => response.writeHead(400).end(),
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    channel<Args extends unknown[]>(listener: (...args: Args) => void): ReportChannel {
      const path = `/report/${++channels}`;
      listeners.set(path, listener as (...args: unknown[]) => void);
      const url = `http://127.0.0.1:${port}${path}`;
      return {
        install: (tab, name) => tab.evaluate(installSender, { name, url }),
        close: () => void listeners.delete(path),
      };
    },
    close: () =>
      new Promise<void>((done) => {
        listeners.clear();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** A report server for the tests of the file it is called in: started before them, closed after them. */
export function reportServerForFile(): ReportServer {
  let server: ReportServer | undefined;
  beforeAll(async () => {
    server = await startReportServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  const running = (): ReportServer => {
    if (!server) throw new Error('reportServerForFile: the server starts before the tests, not while the file loads');
    return server;
  };
  return {
    channel: (listener) => running().channel(listener),
    close: async () => undefined,
  };
}
