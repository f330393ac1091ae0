// A SyncRemote held in memory, for the engine's tests in every engine: Memory Stores' rules (versions, hashes, ids
// kept across a move, preconditions, overlapping paths refused), with a request log and switches to make it act
// like a remote without ids or moves (WebDAV), keep folders of its own (WebDAV), fail, or refuse; and to plant what a
// hostile or careless remote holds: files that are no text, entries a listing refuses, versions that change on each look.

import { sha256All } from '../../src/bundle/sha256.js';
import { SyncRemoteError } from '../../src/sync/remote.js';
import type { RemoteFile, RemoteLimits, SyncRemote } from '../../src/sync/remote.js';

interface Stored {
  id: string;
  text: string;
  version: string;
  sha256: string;
  /** Not text the memory can hold (an image, `.DS_Store`): a read fails with `unreadable`. */
  unreadable?: boolean;
}

export interface MemoryRemoteOptions {
  /** Files keep an id across moves and listings carry hashes (Memory Stores); false: neither (like WebDAV). */
  ids?: boolean;
  /** Offers `move`. Default true. */
  move?: boolean;
  limits?: RemoteLimits;
  concurrency?: number;
  /** Keeps folders of their own, left when emptied, in the way of a file of their name (WebDAV). Default false. */
  folders?: boolean;
  /** Offers `readMany`, which fails as a whole (`unreadable`) when one file of the batch is no text. Default false. */
  readMany?: boolean;
}

export class MemoryRemote {
  readonly files = new Map<string, Stored>();
  readonly log: string[] = [];
  /** Folders made by a write (with `folders`), kept when emptied. */
  readonly folders = new Set<string>();
  /** Entries every listing shows as refused, by path, with the reason. */
  readonly refusedEntries = new Map<string, string>();
  /** Paths whose version changes on every listing and read, the text staying the same (a careless server). */
  readonly fickle = new Set<string>();
  /** Paths whose listing shows this hash instead of the text's (Memory Stores' `content_sha256` gone wrong). */
  readonly listedSha = new Map<string, string>();
  /** Paths whose listing shows this size instead of the text's (a remote that lies small). */
  readonly listedSize = new Map<string, number>();
  #emptySeen: string[] = [];
  /** The next call of this kind fails with this error (once). */
  failNext: { call: string; error: SyncRemoteError } | undefined;
  #counter = 0;
  readonly #options: Required<Omit<MemoryRemoteOptions, 'limits'>> & { limits: RemoteLimits };

  constructor(options: MemoryRemoteOptions = {}) {
    this.#options = { ids: true, move: true, concurrency: 4, limits: {}, folders: false, readMany: false, ...options };
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
        for (const path of this.fickle) this.#touch(path);
        this.#emptySeen = [...this.folders].filter((folder) => !this.#holds(folder));
        const listed = [...this.files.entries()].map(([path, file]) => {
          const shown = this.#shown(path, file);
          const sha256 = this.listedSha.get(path);
          if (sha256 !== undefined && shown.sha256 !== undefined) shown.sha256 = sha256;
          const size = this.listedSize.get(path);
          if (size !== undefined) shown.size = size;
          return shown;
        });
        for (const [path, reason] of this.refusedEntries) listed.push({ path, version: `refused:${path}`, refused: reason });
        return listed;
      },
      read: async (file) => {
        this.#enter('read');
        const stored = this.files.get(file.path);
        if (!stored) throw new SyncRemoteError('not-found', `${file.path} is not there`);
        if (stored.unreadable) throw new SyncRemoteError('unreadable', `${file.path} is not UTF-8 text`);
        if (this.fickle.has(file.path)) this.#touch(file.path);
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
    if (this.#options.readMany) {
      remote.readMany = async (files) => {
        this.#enter('readMany');
        const out = new Map<string, { file: RemoteFile; text: string }>();
        for (const file of files) {
          const stored = this.files.get(file.path);
          if (stored?.unreadable) throw new SyncRemoteError('unreadable', `${file.path} is not UTF-8 text`);
          if (stored) out.set(file.path, { file: this.#shown(file.path, stored), text: stored.text });
        }
        return out;
      };
    }
    if (this.#options.folders) {
      remote.emptyFoldersSeen = () => this.#emptySeen;
      remote.removeEmptyFolder = async (path) => {
        this.#enter('removeEmptyFolder');
        if (this.#holds(path)) throw new SyncRemoteError('path-conflict', `${path} holds something`);
        this.folders.delete(path);
      };
    }
    return remote;
  }

  /** Plants a file that is no text the memory can hold, as another party would. */
  async plantUnreadable(path: string): Promise<RemoteFile> {
    const shown = await this.put(path, '\u0000PNG');
    const stored = this.files.get(path);
    if (stored) stored.unreadable = true;
    return shown;
  }

  /** Writes a file as another party would (a managed agent, another device), outside any handle. */
  async put(path: string, text: string, id?: string): Promise<RemoteFile> {
    const [sha256] = await sha256All([text], () => undefined);
    const stored = { id: id ?? `mem_${++this.#counter}`, text, version: this.#nextVersion(), sha256: sha256 ?? '' };
    if (this.#options.folders) for (const folder of foldersAbove(path)) this.folders.add(folder);
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
    if (this.folders.has(path)) return path;
    for (const other of this.files.keys()) {
      if (other !== path && (other.startsWith(path + '/') || path.startsWith(other + '/'))) return other;
    }
    return undefined;
  }

  /** Whether a file or a kept folder lies below `folder`. */
  #holds(folder: string): boolean {
    return [...this.files.keys(), ...this.folders].some((other) => other.startsWith(folder + '/'));
  }

  #touch(path: string): void {
    const stored = this.files.get(path);
    if (stored) stored.version = this.#nextVersion();
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

function foldersAbove(path: string): string[] {
  const folders: string[] = [];
  for (let at = path.indexOf('/', 1); at !== -1; at = path.indexOf('/', at + 1)) folders.push(path.slice(0, at));
  return folders;
}
