// The demo's service worker (built to `sw.js` by ../vite/offline-app.ts, which puts PRECACHE before it): keeps
// the page and every chunk of this build in a cache on install and answers them from it, so a reload offline works.
// It caches nothing else, ever: no API call, no proxy route, no request that carries a key passes through its cache.

/** This build's files, relative to this script, and a hash of them: a new build is a new worker. */
declare const PRECACHE: { readonly version: string; readonly files: readonly string[] };

/** The parts of a service worker's global scope used here (the page's DOM types have no worker scope). */
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request;
  respondWith(response: Promise<Response>): void;
}
interface WorkerScope {
  readonly location: Location;
  readonly registration: { readonly scope: string };
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
}

const worker = self as unknown as WorkerScope;
const scope = worker.registration.scope;
/** Per scope, so two copies of the demo on one origin keep their own; per version, so an update never mixes builds. */
const CACHE_PREFIX = `idb-memory-tool-demo ${scope} `;
const CACHE = `${CACHE_PREFIX}${PRECACHE.version}`;
const PRECACHED = new Set(PRECACHE.files.map((file) => new URL(file, worker.location.href).href));
/** The page itself, whatever its address's query (`?prefetch=off`) says. */
const PAGE = new Set([scope, new URL('index.html', scope).href]);

worker.addEventListener('install', (event) => {
  // Fresh from the server (not the HTTP cache), so the files are this build's. No skipWaiting: an update waits until
  // the person chooses Reload (demo/pwa/offline-app.ts), never mid-conversation.
  const requests = [...PRECACHED].map((url) => new Request(url, { cache: 'reload', credentials: 'same-origin' }));
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(requests)));
});

worker.addEventListener('activate', (event) => {
  // The old builds' caches go; on the first visit the page that registered is taken over at once, so the chunks it
  // has yet to load (the Offline demo's, on first use) come from the cache if the network goes.
  const cleaned = caches
    .keys()
    .then((names) => Promise.all(names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE).map((name) => caches.delete(name))));
  event.waitUntil(cleaned.then(() => worker.clients.claim()));
});

worker.addEventListener('message', (event) => {
  if (isSkipWaiting(event.data)) void worker.skipWaiting();
});

worker.addEventListener('fetch', (event) => {
  const key = cacheKey(event.request);
  if (key !== undefined) event.respondWith(fromCache(key, event.request));
});

/**
 * The cached URL that answers `request`, or undefined to leave it to the network untouched: only GETs without a
 * key, for this build's own files (the page by any query, the rest exactly). The API and its proxy are never here.
 */
function cacheKey(request: Request): string | undefined {
  if (request.method !== 'GET') return undefined;
  if (request.headers.has('x-api-key') || request.headers.has('authorization')) return undefined;
  const url = new URL(request.url);
  if (request.mode === 'navigate') {
    const page = `${url.origin}${url.pathname}`;
    return PAGE.has(page) ? scope : undefined;
  }
  return PRECACHED.has(url.href) ? url.href : undefined;
}

/** From this build's cache; from the network if it is missing there (a cache the browser cleared). */
async function fromCache(key: string, request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  return (await cache.match(key)) ?? fetch(request);
}

function isSkipWaiting(data: unknown): boolean {
  return typeof data === 'object' && data !== null && Reflect.get(data, 'type') === 'skip-waiting';
}

export {};
