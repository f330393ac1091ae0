// Change events: listeners here hear a committed change at once, other tabs a task later (./README.md).

import { callEach } from './listeners.js';

/**
 * What a write command changed; paths are keys. `write` is a file written (or, by an import, a folder made).
 * `forget`: `path` and its history erased for good (a `delete` of it comes first when it was there).
 * `history-cleared`: the whole history emptied, no file changed; its `path` is `/memories`.
 * Every kind has a `path`, so a listener that only reads `path` keeps working as kinds are added.
 */
export type MemoryChange =
  | {
      /** A file written (or, by an import, a folder made). */
      type: 'write';
      /** The normalized path written. */
      path: string;
    }
  | {
      /** A file or folder deleted; a folder's is one change, not one per file. */
      type: 'delete';
      /** The normalized path deleted. */
      path: string;
    }
  | {
      /** A file or folder moved. */
      type: 'rename';
      /** Where it is now. */
      path: string;
      /** Where it was. */
      from: string;
    }
  | {
      /** A path and its history erased for good. */
      type: 'forget';
      /** The normalized path forgotten. */
      path: string;
    }
  | {
      /** The whole history emptied; no file changed. */
      type: 'history-cleared';
      /** Always `/memories`. */
      path: string;
    };

/** One committed command (or import): what changed, and whether it happened in this tool or elsewhere. */
export interface MemoryChangeEvent {
  /** The database the change was committed to. */
  dbName: string;
  /** What the command changed, in order; an expiry, an undo or an import may change several paths. */
  changes: MemoryChange[];
  /** `local`: this tool instance; `remote`: another tab, worker or tool instance on the same database. */
  source: 'local' | 'remote';
}

/** Called after each committed command, here or in another tab; it must not throw (an error is not reported). */
export type MemoryChangeListener = (event: MemoryChangeEvent) => void;

interface WireMessage {
  dbName: string;
  changes: MemoryChange[];
}

export class ChangeHub {
  readonly #dbName: string;
  readonly #listeners = new Set<MemoryChangeListener>();
  #channel: BroadcastChannel | undefined;
  #sender: BroadcastChannel | undefined;
  #closed = false;
  #outbox: WireMessage[] = [];
  /** A message to its `port2` starts `#send` in a task of its own: Firefox queues one 0.07 ms faster than a timer. */
  readonly #later = new MessageChannel();

  constructor(dbName: string) {
    this.#dbName = dbName;
    this.#later.port1.onmessage = () => this.#send();
    unref(this.#later.port1);
  }

  /** Calls `listener` on every change; returns the function that stops it. */
  subscribe(listener: MemoryChangeListener): () => void {
    if (this.#closed) return () => undefined;
    this.#listeners.add(listener);
    this.#open();
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) this.#shut();
    };
  }

  /** Announces committed changes here and to the other tabs. */
  publish(changes: MemoryChange[]): void {
    if (changes.length === 0) return;
    this.#deliver({ dbName: this.#dbName, changes, source: 'local' });
    // The other tabs hear it a task later, with this task's other changes, so no reply waits for the post.
    if (this.#outbox.push({ dbName: this.#dbName, changes }) === 1) this.#later.port2.postMessage(0);
  }

  close(): void {
    this.#closed = true;
    this.#listeners.clear();
    this.#shut();
    this.#sender?.close();
    this.#sender = undefined;
  }

  #send(): void {
    const messages = this.#outbox;
    this.#outbox = [];
    if (this.#closed) {
      // A write under way at close() still committed: the other tabs hear of it all the same.
      const once = openChannel(this.#dbName);
      for (const message of messages) once?.postMessage(message);
      once?.close();
      return;
    }
    // A channel never hears itself, so the sender is the listening channel when there is one (./README.md).
    const channel = this.#channel ?? (this.#sender ??= openChannel(this.#dbName));
    for (const message of messages) channel?.postMessage(message);
  }

  #deliver(event: MemoryChangeEvent): void {
    callEach(this.#listeners, event);
  }

  #open(): void {
    if (this.#channel) return;
    const channel = this.#sender ?? openChannel(this.#dbName);
    this.#sender = undefined;
    if (!channel) return;
    channel.onmessage = (message: MessageEvent<unknown>) => {
      const data = message.data as Partial<WireMessage> | null;
      if (!data || data.dbName !== this.#dbName || !Array.isArray(data.changes)) return;
      this.#deliver({ dbName: this.#dbName, changes: data.changes, source: 'remote' });
    };
    this.#channel = channel;
  }

  #shut(): void {
    this.#channel?.close();
    this.#channel = undefined;
  }
}

/** Node would otherwise stay alive for an open tool's channel or port (tests, SSR with an IndexedDB shim). */
const unref = (handle: object): void => (handle as { unref?: () => void }).unref?.();

function openChannel(dbName: string): BroadcastChannel | undefined {
  if (typeof BroadcastChannel !== 'function') return undefined;
  const channel = new BroadcastChannel(`idb-memory-tool:${dbName}`);
  unref(channel);
  return channel;
}
