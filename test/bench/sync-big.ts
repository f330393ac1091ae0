// The big first pull's tools in Node (issue 39): the page's live heap sampled over CDP through a pass (Chromium), a
// proxy that delays every answer of a server (Apache has no delay of its own), and a WebDAV folder of many files
// written straight to Apache's disk (10,000 PUTs would take longer than the pull).

import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { BenchBrowser } from './engines.js';
import { bulkFolders } from './fixtures.js';
import { syncPath, syncText } from './sync-fixtures.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** How often the live heap is sampled during a pass: each sample forces a full GC first. */
const HEAP_EVERY_MS = 250;

export interface HeapSampler {
  /** Stops sampling: the highest live heap seen above the one before the pass, in bytes, and how many samples. */
  stop(): Promise<{ growth: number; samples: number }>;
}

/**
 * Samples the page's live heap (V8's used heap and the embedder's, after `HeapProfiler.collectGarbage`) from now until
 * `stop()`. Undefined where the engine offers no such thing (Firefox over BiDi, WebKit over WebDriver).
 */
export async function sampleHeap(browser: BenchBrowser): Promise<HeapSampler | undefined> {
  const page = browser.chromiumPage;
  if (!page) return undefined;
  const cdp = await page.context().newCDPSession(page);
  const live = async (): Promise<number> => {
    await cdp.send('HeapProfiler.collectGarbage');
    const usage = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number; embedderHeapUsedSize?: number };
    return usage.usedSize + (usage.embedderHeapUsedSize ?? 0);
  };
  const before = await live();
  let peak = before;
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      await sleep(HEAP_EVERY_MS);
      peak = Math.max(peak, await live());
      samples++;
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await cdp.detach();
      return { growth: peak - before, samples };
    },
  };
}

export interface DelayProxy {
  url: string;
  latencyMs: number;
  close(): Promise<void>;
}

/** A loopback proxy to `target`'s origin that waits `latencyMs` before passing each request on (preflights too). */
export async function delayProxy(target: string): Promise<DelayProxy> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => body.push(chunk));
    req.on('end', () => {
      setTimeout(() => {
        const headers = { ...req.headers, host: upstream.host };
        const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        out.on('error', () => res.writeHead(502).end());
        out.end(Buffer.concat(body));
      }, proxy.latencyMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const proxy: DelayProxy = {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    latencyMs: 0,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}

/** Writes `files` bench files into `folder` on disk (in folders of 100), then waits out Apache's one-second weak ETags. */
export async function seedOnDisk(folder: string, files: number): Promise<void> {
  for (const made of bulkFolders('', files)) await mkdir(join(folder, made), { recursive: true });
  for (let i = 0; i < files; i += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, files - i) }, (_, k) => writeFile(join(folder, syncPath(i + k)), syncText(i + k))),
    );
  }
  await sleep(1100);
}
