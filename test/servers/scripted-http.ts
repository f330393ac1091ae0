// A loopback HTTP server whose every answer a test scripts: a hostile or broken remote (endless bodies, answers that
// never come, redirects to another origin, huge hrefs). Node only; each server is its own origin (its own port).

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as it arrived, its body read. */
export interface ScriptedRequest {
  method: string;
  /** The URL's path and query, as sent. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** Answers one request through `res`; what it returns is ignored (a promise is awaited for its failure). */
export type Script = (request: ScriptedRequest, res: ServerResponse) => unknown;

export interface ScriptedServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly origin: string;
  /** Every request received, in order. */
  readonly requests: ScriptedRequest[];
  /** Answers each request from now on. */
  script: Script;
  /** Stops listening and cuts every open connection (an answer still being written, too). */
  close(): Promise<void>;
}

/** Writes `chunk` again and again until `limit` bytes went out or the client let go. */
export async function writeEndlessly(res: ServerResponse, chunk: string, limit: number): Promise<void> {
  let sent = 0;
  while (sent < limit && !res.destroyed) {
    sent += chunk.length;
    if (!res.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done).off('close', done);
          resolve();
        };
        res.on('drain', done).on('close', done);
      });
    }
  }
  res.end();
}

export async function startScriptedServer(script: Script = (_, res) => res.writeHead(404).end()): Promise<ScriptedServer> {
  const requests: ScriptedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ScriptedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      Promise.resolve(handle.script(request, res)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const { port } = server.address() as AddressInfo;
  const handle: ScriptedServer = {
    origin: `http://127.0.0.1:${port}`,
    requests,
    script,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return handle;
}
