// A SyncRemote held in memory, for the engine's tests in every engine: Memory Stores' rules (versions, hashes, ids
// kept across a move, preconditions, overlapping paths refused), with a request log and switches to make it act
// like a remote without ids or moves (WebDAV), fail, or refuse.

import { sha256All } from '../../src/bundle/sha256.js';
import { SyncRemoteError } from '../../src/sync/remote.js';
import type { RemoteFile, RemoteLimits, SyncRemote } from '../../src/sync/remote.js';

interface Stored {
  id: string;
  text: string;
  version: string;
  sha256: string;
}

export interface MemoryRemoteOptions {
  /** Files keep an id across moves and listings carry hashes (Memory Stores); false: neither (like WebDAV). */
  ids?: boolean;
  /** Offers `move`. Default true. */
  move?: boolean;
  limits?: RemoteLimits;
  concurrency?: number;
}

export class MemoryRemote {
  readonly files = new Map<string, Stored>();
  readonly log: string[] = [];
  /** The next call of this kind fails with this error (once). */
  failNext: { call: string; error: SyncRemoteError } | undefined;
  #counter = 0;
  readonly #options: Required<Omit<MemoryRemoteOptions, 'limits'>> & { limits: RemoteLimits };

  constructor(options: MemoryRemoteOptions = {}) {
    this.#options = { ids: true, move: true, concurrency: 4, limits: {}, ...options };
  }

  /** A SyncRemote on this store (several devices share one store through their own handles). */
  handle(id = 'memory-remote:test'): SyncRemote {
    const remote: SyncRemote = {
      id,
      kind: 'memory',
      limits: this.#options.limits,
      concurrency: this.#options.concurrency,
      list: async () => {
        this.#enter('list');
        return [...this.files.entries()].map(([path, file]) => this.#shown(path, file));
      },
      read: async (file) => {
        this.#enter('read');
        const stored = this.files.get(file.path);
        if (!stored) throw new SyncRemoteError('not-found', `${file.path} is not there`);
        return { file: this.#shown(file.path, stored), text: stored.text };
      },
      write: async (path, text, expected) => {
        this.#enter('write');
        const there = this.files.get(path);
        if (expected === null && there) throw new SyncRemoteError('precondition', `${path} is taken`);
        if (expected && (!there || there.version !== expected.version)) {
          throw new SyncRemoteError('precondition', `${path} changed`);
        }
        const overlap = this.#overlap(path);
        if (overlap) throw new SyncRemoteError('path-conflict', `${path} overlaps ${overlap}`, { conflictingPath: overlap });
        return this.put(path, text, there?.id);
      },
      delete: async (expected) => {
        this.#enter('delete');
        const there = this.files.get(expected.path);
        if (!there) return;
        if (there.version !== expected.version) throw new SyncRemoteError('precondition', `${expected.path} changed`);
        this.files.delete(expected.path);
      },
    };
    if (this.#options.move) {
      remote.move = async (expected, to) => {
        this.#enter('move');
        const there = this.files.get(expected.path);
        if (!there || there.version !== expected.version) throw new SyncRemoteError('precondition', `${expected.path} changed`);
        if (this.files.has(to)) throw new SyncRemoteError('precondition', `${to} is taken`);
        this.files.delete(expected.path);
        const overlap = this.#overlap(to);
        if (overlap) {
          this.files.set(expected.path, there);
          throw new SyncRemoteError('path-conflict', `${to} overlaps ${overlap}`, { conflictingPath: overlap });
        }
        this.files.set(to, { ...there, version: this.#nextVersion() });
        return this.#shown(to, this.files.get(to) as Stored);
      };
    }
    return remote;
  }

  /** Writes a file as another party would (a managed agent, another device), outside any handle. */
  async put(path: string, text: string, id?: string): Promise<RemoteFile> {
    const [sha256] = await sha256All([text], () => undefined);
    const stored = { id: id ?? `mem_${++this.#counter}`, text, version: this.#nextVersion(), sha256: sha256 ?? '' };
    this.files.set(path, stored);
    return this.#shown(path, stored);
  }

  text(path: string): string | undefined {
    return this.files.get(path)?.text;
  }

  /** Every path and text, sorted, to compare with a memory. */
  snapshot(): Record<string, string> {
    return Object.fromEntries([...this.files.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([p, f]) => [p, f.text]));
  }

  count(call: string): number {
    return this.log.filter((entry) => entry === call).length;
  }

  #enter(call: string): void {
    this.log.push(call);
    if (this.failNext?.call === call) {
      const { error } = this.failNext;
      this.failNext = undefined;
      throw error;
    }
  }

  #overlap(path: string): string | undefined {
    for (const other of this.files.keys()) {
      if (other !== path && (other.startsWith(path + '/') || path.startsWith(other + '/'))) return other;
    }
    return undefined;
  }

  #nextVersion(): string {
    return `v${++this.#counter}`;
  }

  #shown(path: string, file: Stored): RemoteFile {
    const shown: RemoteFile = { path, version: file.version, size: new TextEncoder().encode(file.text).length };
    if (this.#options.ids) {
      shown.id = file.id;
      shown.sha256 = file.sha256;
    }
    return shown;
  }
}
