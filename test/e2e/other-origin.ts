// A page of another origin on this machine: a second tiny server on 127.0.0.1 (a port of its own), for what another
// local page, or a site, can do to the demo's servers. Its page is blank; tests add what they need.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Served } from './harness.js';

/** Serves a blank HTML page at every path; `url` is `http://127.0.0.1:<port>/`. */
export async function startOtherOrigin(): Promise<Served & { port: number }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>another site</title><p>elsewhere</p>');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
