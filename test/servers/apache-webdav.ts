// A real Apache httpd with mod_dav on a loopback port, for the WebDAV adapter's tests: a throw-away config and folder
// under the system temp folder, Basic auth at /dav/ (and a bearer token at /dav-token/), CORS for pages on other
// origins. Node-only; needs Debian's apache2 (APACHE_BIN and APACHE_MODULES override its paths).

import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const APACHE_BIN = process.env.APACHE_BIN ?? '/usr/sbin/apache2';
const MODULES = process.env.APACHE_MODULES ?? '/usr/lib/apache2/modules';

/**
 * A request deadline for this loopback server where a test needs locks to lapse soon: far beyond its answers, and a
 * lock left behind (the adapter asks for four deadlines) is gone within a minute.
 */
export const LOOPBACK_TIMEOUT_MS = 15_000;

export interface ApacheWebdavOptions {
  /** Basic auth user at /dav/ (default `alice`). */
  username?: string;
  /** Its password (default: random). */
  password?: string;
  /** PUT bodies over this many bytes get 413 (`LimitRequestBody`; PROPFIND bodies are not limited). */
  limitRequestBody?: number;
  /** Serves /dav-token/, whose every request but a preflight needs `Authorization: Bearer <token>` (else 401). */
  token?: string;
  /**
   * Worker threads in each of its two processes (default 16). With 24 requests at once under load, Node was seen
   * sending a PUT on a kept-alive connection Apache had just closed (no answer, and a PUT is not sent again), likely
   * the event MPM closing idle connections while short of workers: a test that sends many at once gives it room.
   */
  threads?: number;
}

export interface ApacheWebdav {
  /** `http://127.0.0.1:<port>/dav/`, Basic auth. */
  url: string;
  /** The folder on disk behind `url`. */
  root: string;
  username: string;
  password: string;
  /** `http://127.0.0.1:<port>/dav-token/` when `token` was given. */
  tokenUrl: string | undefined;
  /** The folder on disk behind `tokenUrl`. */
  tokenRoot: string;
  /** Apache's error log so far (why a request failed). */
  errorLog(): Promise<string>;
  /** Stops Apache and removes every file it had. */
  stop(): Promise<void>;
}

/** Apache serves as www-data when started by root; it must be able to write the DAV folders and the lock DB. */
async function wwwData(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const passwd = await readFile('/etc/passwd', 'utf8');
  const fields = passwd
    .split('\n')
    .find((line) => line.startsWith('www-data:'))
    ?.split(':');
  if (fields === undefined) throw new Error('no www-data user to run Apache as');
  return { uid: Number(fields[2]), gid: Number(fields[3]) };
}

/** A port that was free a moment ago; Apache may still lose it to another process (the caller retries). */
function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolvePort(port));
    });
  });
}

/** Apache's `{SHA}` password entry: base64 of the SHA-1 digest (weak, and enough for a loopback test server). */
const shaEntry = (user: string, password: string) =>
  `${user}:{SHA}${createHash('sha1').update(password, 'utf8').digest('base64')}\n`;

/** Quoted for Apache's config and expressions: the test's own values, so only quotes and backslashes need escaping. */
const quoted = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;

function config(dir: string, port: number, user: boolean, options: ApacheWebdavOptions): string {
  const modules = [
    'mpm_event',
    'authn_core',
    'authn_file',
    'authz_core',
    'authz_user',
    'auth_basic',
    'dav',
    'dav_fs',
    'headers',
    'rewrite',
  ].map((name) => `LoadModule ${name}_module ${MODULES}/mod_${name}.so`);
  const limit =
    options.limitRequestBody === undefined
      ? []
      : [`  <If "%{REQUEST_METHOD} == 'PUT'">`, `    LimitRequestBody ${options.limitRequestBody}`, '  </If>'];
  const token =
    options.token === undefined
      ? []
      : [
          // A rewrite answers 401 before mod_dav runs; mod_auth_* have no bearer scheme.
          `RewriteCond %{HTTP:Authorization} ${quoted(`!=Bearer ${options.token}`)}`,
          'RewriteRule ^/dav-token/ - [R=401,L]',
          '<Location /dav-token/>',
          '  Dav On',
          '  Require all granted',
          '</Location>',
        ];
  return [
    `ServerRoot ${quoted(dir)}`,
    'ServerName 127.0.0.1',
    `Listen 127.0.0.1:${port}`,
    `PidFile ${quoted(join(dir, 'run/httpd.pid'))}`,
    `DefaultRuntimeDir ${quoted(join(dir, 'run'))}`,
    `ErrorLog ${quoted(join(dir, 'logs/error.log'))}`,
    'LogLevel warn',
    ...(user ? ['User www-data', 'Group www-data'] : []),
    // Few workers: a test server, many of them side by side on a small machine.
    'StartServers 1',
    'ServerLimit 2',
    `ThreadsPerChild ${options.threads ?? 16}`,
    `MaxRequestWorkers ${2 * (options.threads ?? 16)}`,
    ...modules,
    `DocumentRoot ${quoted(join(dir, 'htdocs'))}`,
    `DavLockDB ${quoted(join(dir, 'lock/DavLock'))}`,
    // CORS for a page on another origin: every answer (401s too, so the page sees them) names the page's origin.
    'Header always set Access-Control-Allow-Origin "expr=%{req:Origin}" "expr=-n %{req:Origin}"',
    'Header always set Access-Control-Allow-Methods "GET, PUT, DELETE, MOVE, MKCOL, PROPFIND, LOCK, UNLOCK, OPTIONS"',
    'Header always set Access-Control-Allow-Headers "Authorization, Depth, Destination, Overwrite, If, If-Match, If-None-Match, If-Unmodified-Since, Lock-Token, Timeout, Content-Type"',
    'Header always set Access-Control-Expose-Headers "ETag, Lock-Token, Retry-After"',
    'Header always set Access-Control-Max-Age "600"',
    // A preflight carries no credentials: it is answered here, before authentication and mod_dav's own OPTIONS.
    'RewriteEngine On',
    'RewriteCond %{REQUEST_METHOD} =OPTIONS',
    'RewriteCond %{HTTP:Access-Control-Request-Method} !=""',
    'RewriteRule ^/dav(-token)?/ - [R=204,L]',
    ...token,
    '<Location /dav/>',
    '  Dav On',
    '  AuthType Basic',
    '  AuthName "dav"',
    '  AuthBasicProvider file',
    `  AuthUserFile ${quoted(join(dir, 'users'))}`,
    '  Require valid-user',
    ...limit,
    '</Location>',
    '',
  ].join('\n');
}

interface Running {
  child: ChildProcess;
  exited: Promise<void>;
}

/** Runs Apache in the foreground; resolves once it answers, rejects (with its log) when it exits first. */
async function run(dir: string, port: number): Promise<Running> {
  const child = spawn(APACHE_BIN, ['-f', join(dir, 'httpd.conf'), '-DFOREGROUND'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let gone = false;
  // A test process that ends without stop() (a crash, a timeout) must not leave Apache serving.
  const orphaned = () => child.kill('SIGTERM');
  process.once('exit', orphaned);
  const exited = new Promise<void>((resolveExit) => {
    child.once('exit', () => {
      gone = true;
      process.off('exit', orphaned);
      resolveExit();
    });
    child.once('error', (error) => {
      stderr += String(error);
      gone = true;
      resolveExit();
    });
  });
  // Polled, not timed: a busy machine only makes this take longer. An answer of any status means it is serving.
  for (;;) {
    if (gone) {
      const log = await readFile(join(dir, 'logs/error.log'), 'utf8').catch(() => '');
      throw new Error(`apache2 exited before serving: ${stderr}${log}`);
    }
    const answered = await fetch(`http://127.0.0.1:${port}/`, { method: 'HEAD' }).then(
      () => true,
      () => false,
    );
    if (answered && !gone) return { child, exited };
    await new Promise((wake) => setTimeout(wake, 50));
  }
}

/** Starts Apache with mod_dav on a free loopback port. */
export async function startApacheWebdav(options: ApacheWebdavOptions = {}): Promise<ApacheWebdav> {
  const username = options.username ?? 'alice';
  const password = options.password ?? randomBytes(12).toString('base64url');
  const dir = await mkdtemp(join(tmpdir(), 'idb-memory-apache-'));
  const owner = await wwwData();
  const root = join(dir, 'htdocs/dav');
  const tokenRoot = join(dir, 'htdocs/dav-token');
  // www-data must pass through the folder mkdtemp made for root alone.
  await chmod(dir, 0o755);
  for (const sub of ['htdocs', 'run', 'logs']) await mkdir(join(dir, sub));
  for (const writable of [root, tokenRoot, join(dir, 'lock')]) {
    await mkdir(writable);
    if (owner !== undefined) await chown(writable, owner.uid, owner.gid);
  }
  await writeFile(join(dir, 'users'), shaEntry(username, password), { mode: 0o644 });
  try {
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      await writeFile(join(dir, 'httpd.conf'), config(dir, port, owner !== undefined, options));
      let running: Running;
      try {
        running = await run(dir, port);
      } catch (error) {
        // Another process took the port between our probe and Apache's bind: try another.
        if (attempt < 5 && /could not bind|Address already in use/.test(String(error))) continue;
        throw error;
      }
      const origin = `http://127.0.0.1:${port}`;
      return {
        url: `${origin}/dav/`,
        root,
        username,
        password,
        tokenUrl: options.token === undefined ? undefined : `${origin}/dav-token/`,
        tokenRoot,
        errorLog: () => readFile(join(dir, 'logs/error.log'), 'utf8').catch(() => ''),
        async stop() {
          // SIGTERM to the foreground parent stops its workers too.
          running.child.kill('SIGTERM');
          await running.exited;
          await rm(dir, { recursive: true, force: true });
        },
      };
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
