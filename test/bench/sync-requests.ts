// The Sync rows' requests sorted and counted (sync-bench.ts): each request's kind and the file it is about, from the
// Memory Stores server's log or the page's counting fetch (WebDAV), and a pass's counts against what it had to touch.

import type { LoggedRequest } from '../servers/memory-stores-server.js';
import type { FetchSeen, PassResult, SyncPass } from './sync-fixtures.js';

/** A request sorted: its kind, and the file it is about (none for the listing and preflights). */
export interface Sorted {
  kind: string;
  listing?: boolean;
  preflight?: boolean;
  write?: boolean;
  file?: string;
}

/** The files a pass may touch one by one: any, or only these (none for a pass with nothing changed). */
export type Expected = 'any' | ReadonlySet<string>;

/** Memory Stores: `/v1/memory_stores/{store}/memories[/{id}]`. A listing of a folder below the root is a look-up. */
export function sortMemoryStores(request: LoggedRequest, pathOf: (id: string) => string | undefined): Sorted {
  if (request.method === 'OPTIONS') return { kind: 'OPTIONS', preflight: true };
  const one = /\/memories\/([^/]+)$/u.exec(request.path);
  if (one?.[1] !== undefined) {
    const file = pathOf(decodeURIComponent(one[1])) ?? '?';
    if (request.method === 'GET') return { kind: 'GET memory', file };
    return { kind: request.method === 'POST' ? 'POST update' : request.method, write: true, file };
  }
  if (/\/memories$/u.test(request.path)) {
    if (request.method !== 'GET') return { kind: 'POST create', write: true, file: '?' };
    const prefix = request.query['path_prefix'];
    return prefix === undefined || prefix === '/' ? { kind: 'GET list', listing: true } : { kind: 'GET list (look-up)', file: prefix };
  }
  return { kind: `${request.method} ${request.path}`, file: '?' };
}

/** WebDAV, below the root folder's URL path `root` (ending in `/`). */
export function sortWebdav(seen: FetchSeen, root: string): Sorted {
  const file = seen.path.startsWith(root) ? seen.path.slice(root.length - 1) : seen.path;
  if (seen.method === 'PROPFIND') {
    return seen.depth === '1' ? { kind: 'PROPFIND Depth 1', listing: true } : { kind: `PROPFIND Depth ${seen.depth ?? '∞'}`, file };
  }
  return { kind: seen.method, write: ['PUT', 'DELETE', 'MOVE', 'MKCOL'].includes(seen.method), file };
}

/**
 * A pass's requests counted; `before`: the files the passes before wrote, whose reads (not writes) are counted as
 * `rechecked`, not as stray.
 */
export function counted(pass: PassResult, requests: readonly Sorted[], expected: Expected, before: ReadonlySet<string> = new Set()): SyncPass {
  const byKind: Record<string, number> = {};
  for (const request of requests) byKind[request.kind] = (byKind[request.kind] ?? 0) + 1;
  const perFile = requests.filter((request) => !request.listing && !request.preflight);
  const written = new Set(perFile.filter((request) => request.write).map((request) => request.file));
  const recheck = (request: Sorted): boolean => expected !== 'any' && !request.write && !expected.has(request.file ?? '?') && before.has(request.file ?? '?');
  return {
    ms: pass.ms,
    requests: byKind,
    listing: requests.filter((request) => request.listing).length,
    perFile: perFile.length,
    writes: perFile.filter((request) => request.write).length,
    stray: expected === 'any' ? 0 : perFile.filter((request) => !expected.has(request.file ?? '?') && !recheck(request)).length,
    rechecked: perFile.filter(recheck).length,
    unwritten: expected === 'any' ? 0 : [...expected].filter((file) => !written.has(file)).length,
    pulled: pass.pulled,
    pushed: pass.pushed.length,
    deleted: pass.deleted,
    conflicts: pass.conflicts,
    skipped: pass.skipped,
    held: pass.held,
  };
}

