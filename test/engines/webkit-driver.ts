// WebKitGTK for the `webkit` project: Xvfb on a display it picks itself (-displayfd) and WebKitWebDriver on a free
// port, in process groups of their own so that stopping them also ends the MiniBrowser (and its web and network
// processes) the driver started. MiniBrowser is started by the driver for each session, on that display.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** Debian's MiniBrowser (package libwebkit2gtk-4.1-0) lives under the architecture's lib folder. */
function findMiniBrowser(): string {
  const lib = '/usr/lib';
  const found = existsSync(lib)
    ? readdirSync(lib)
        .map((dir) => `${lib}/${dir}/webkit2gtk-4.1/MiniBrowser`)
        .find((path) => existsSync(path))
    : undefined;
  return found ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
}

export const webkitMiniBrowser = process.env.WEBKIT_MINIBROWSER ?? findMiniBrowser();
export const webkitDriverPath = process.env.WEBKIT_DRIVER ?? '/usr/bin/WebKitWebDriver';
export const xvfbPath = process.env.XVFB_PATH ?? '/usr/bin/Xvfb';

/**
 * What WebKitWebDriver accepts: no `browserName` (it refuses `safari`), and MiniBrowser in automation mode, which
 * keeps the session's website data (IndexedDB included) in memory.
 */
export const webkitCapabilities = {
  'webkitgtk:browserOptions': { binary: webkitMiniBrowser, args: ['--automation'] },
};

export interface WebKitDriver {
  /** The driver's URL, without a trailing slash. */
  url: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Signals the child's whole process group; it is gone already if that fails. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    // The group has no process left.
  }
}

/** SIGTERM to the child's group, SIGKILL after 3 s if the child has not exited by then. */
function stopGroup(child: ChildProcess): Promise<void> {
  const running = child.exitCode === null && child.signalCode === null;
  const exited = running ? new Promise<void>((resolve) => child.once('exit', () => resolve())) : Promise.resolve();
  signalGroup(child, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), 3_000);
  return exited.then(() => {
    clearTimeout(timer);
    // Whatever of the group outlived its leader (a MiniBrowser the driver left behind).
    signalGroup(child, 'SIGKILL');
  });
}

async function waitForStatus(url: string, driver: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (driver.exitCode !== null) throw new Error(`WebKitWebDriver exited with code ${driver.exitCode}`);
    try {
      if ((await fetch(`${url}/status`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`WebKitWebDriver did not answer ${url}/status within 60 s`);
}

export async function startWebKitDriver(): Promise<WebKitDriver> {
  // Xvfb writes the display number it chose to fd 3 once it accepts clients.
  const xvfb = spawn(xvfbPath, ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    detached: true,
  });
  const children: ChildProcess[] = [xvfb];
  // A Vitest that exits without closing its providers (an uncaught error) leaves nothing running either.
  const killAll = () => children.forEach((child) => signalGroup(child, 'SIGKILL'));
  process.once('exit', killAll);
  const stop = async () => {
    process.off('exit', killAll);
    for (const child of children.slice().reverse()) await stopGroup(child);
  };
  try {
    const display = await new Promise<string>((resolve, reject) => {
      let text = '';
      xvfb.stdio[3]!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('\n')) resolve(`:${text.trim()}`);
      });
      xvfb.once('error', reject);
      xvfb.once('exit', (code) => reject(new Error(`Xvfb (${xvfbPath}) exited with code ${code}`)));
    });
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const driver = spawn(webkitDriverPath, [`--port=${port}`], {
      env: { ...process.env, DISPLAY: display },
      stdio: 'ignore',
      detached: true,
    });
    children.push(driver);
    await Promise.race([
      waitForStatus(url, driver),
      new Promise<never>((_, reject) => driver.once('error', reject)),
    ]);
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
