// One spy on the IndexedDB requests the code under test makes, for the tests of what it reads and writes: every
// request of an object store or an index (when it is asked, and when it is answered) and every transaction aborted.
// It patches the prototypes, so it sees the plain requests and idb's alike, on fake-indexeddb and in the browser.

const READS = ['get', 'getKey', 'getAll', 'getAllKeys', 'count', 'openCursor', 'openKeyCursor'] as const;
const WRITES = ['add', 'put', 'delete', 'clear'] as const;
export type RequestMethod = (typeof READS)[number] | (typeof WRITES)[number];

export interface SpiedRequest {
  method: RequestMethod;
  /** The object store asked, or the store of the index asked. */
  store: string;
  /** The index asked, if the request went to one. */
  index?: string;
  /** The key or query it was asked with (a write's key, if given). */
  query: unknown;
  /** What an `add` or `put` wrote. */
  value?: unknown;
  request: IDBRequest;
}

export interface RequestSpy {
  /** Every request, in the order asked. */
  readonly asked: readonly SpiedRequest[];
  /** The requests answered successfully, in the order the answers came. */
  readonly answered: readonly SpiedRequest[];
  /** How many times a transaction was aborted through `abort()`. */
  readonly aborts: number;
  /** The `get`s of a store (by key) answered, in order, as `got <key>`, a body's as `got a body`. */
  gets(): string[];
  /** What a view reads, in order: the gets as {@link gets} words them, and each index's `getAll <query>` as it is asked. */
  reads(): string[];
  /**
   * The journal's cursors opened (each a read of the totals from its end), its key lookups (each a check of remembered
   * totals), and the transactions aborted.
   */
  journal(): JournalReads;
  /** Forgets everything seen so far. */
  clear(): void;
  /** Puts the prototypes back; the spy sees nothing after this. */
  restore(): void;
}

export interface JournalReads {
  cursors: number;
  lookups: number;
  aborts: number;
}

export interface RequestSpyOptions {
  /** Called as each request is asked, after it is made: to look at what else is under way at that moment. */
  onAsk?: (asked: SpiedRequest, spy: RequestSpy) => void;
}

type Patched = { target: object; name: string; original: unknown };
let active: RequestSpy | undefined;

/** Starts spying on every IndexedDB request; `restore()` ends it (see {@link spyDuring} for the usual case). */
export function spyOnRequests(options: RequestSpyOptions = {}): RequestSpy {
  if (active) throw new Error('spyOnRequests: a spy is already on; restore it first');
  const asked: SpiedRequest[] = [];
  const answered: SpiedRequest[] = [];
  /** Asked index getAlls and answered gets, in the order they happened. */
  const timeline: Array<{ phase: 'asked' | 'answered'; spied: SpiedRequest }> = [];
  let aborts = 0;
  const patched: Patched[] = [];
  const patch = (target: object, name: string, replacement: (original: (...args: unknown[]) => unknown) => unknown): void => {
    const original = (target as Record<string, unknown>)[name];
    if (typeof original !== 'function') return;
    patched.push({ target, name, original });
    (target as Record<string, unknown>)[name] = replacement(original as (...args: unknown[]) => unknown);
  };

  const spy: RequestSpy = {
    asked,
    answered,
    get aborts() {
      return aborts;
    },
    gets: () => answered.filter(isStoreGet).map(gotLine),
    reads: () =>
      timeline
        .filter(({ phase, spied }) => (phase === 'asked' ? spied.method === 'getAll' && spied.index !== undefined : isStoreGet(spied)))
        .map(({ phase, spied }) => (phase === 'asked' ? `getAll ${String(spied.query)}` : gotLine(spied))),
    journal: () => ({
      cursors: asked.filter((one) => one.store === 'journal' && one.index === undefined && one.method === 'openCursor').length,
      lookups: asked.filter((one) => one.store === 'journal' && one.index === undefined && (one.method === 'getKey' || one.method === 'get')).length,
      aborts,
    }),
    clear: () => {
      asked.length = 0;
      answered.length = 0;
      timeline.length = 0;
      aborts = 0;
    },
    restore: () => {
      for (const { target, name, original } of patched.splice(0).reverse()) (target as Record<string, unknown>)[name] = original;
      if (active === spy) active = undefined;
    },
  };

  const record = (spied: SpiedRequest): void => {
    asked.push(spied);
    timeline.push({ phase: 'asked', spied });
    spied.request.addEventListener('success', () => {
      answered.push(spied);
      timeline.push({ phase: 'answered', spied });
    });
    options.onAsk?.(spied, spy);
  };
  for (const [prototype, isIndex] of [
    [IDBObjectStore.prototype, false],
    [IDBIndex.prototype, true],
  ] as const) {
    for (const method of [...READS, ...WRITES]) {
      patch(prototype, method, (original) =>
        function (this: IDBObjectStore | IDBIndex, ...args: unknown[]) {
          const request = original.apply(this, args) as IDBRequest;
          const writes = method === 'add' || method === 'put';
          const spied: SpiedRequest = {
            method,
            store: isIndex ? (this as IDBIndex).objectStore.name : this.name,
            query: writes ? args[1] : args[0],
            request,
          };
          if (isIndex) spied.index = this.name;
          if (writes) spied.value = args[0];
          record(spied);
          return request;
        },
      );
    }
  }
  patch(IDBTransaction.prototype, 'abort', (original) =>
    function (this: IDBTransaction) {
      aborts++;
      return original.call(this);
    },
  );
  active = spy;
  return spy;
}

/** Runs `action` with a spy on, and returns the spy (restored, whatever `action` did). */
export async function spyDuring(action: () => Promise<unknown>, options: RequestSpyOptions = {}): Promise<RequestSpy> {
  const spy = spyOnRequests(options);
  try {
    await action();
  } finally {
    spy.restore();
  }
  return spy;
}

/** {@link RequestSpy.journal} of what `action` asked. */
export const journalReadsDuring = async (action: () => Promise<unknown>): Promise<JournalReads> => (await spyDuring(action)).journal();

const isStoreGet = (spied: SpiedRequest): boolean => spied.method === 'get' && spied.index === undefined;
const gotLine = (spied: SpiedRequest): string => (spied.store === 'bodies' ? 'got a body' : `got ${String(spied.query)}`);

/**
 * What `action` wrote to `stores` before it sent its journal record, and how many of those writes had been answered
 * by then, for each record it sent. A command that awaits no answer between its first write and its record answers
 * `0` (storage/README.md, "Transactions").
 */
export async function writesAnsweredAtRecord(
  action: () => Promise<unknown>,
  stores: readonly string[],
): Promise<{ writes: number; answeredAtRecord: number[] }> {
  const isWrite = (spied: SpiedRequest): boolean =>
    stores.includes(spied.store) && spied.index === undefined && (WRITES as readonly string[]).includes(spied.method);
  const answeredAtRecord: number[] = [];
  const spy = await spyDuring(action, {
    onAsk: (asked, current) => {
      if (asked.store === 'journal' && asked.method === 'add') {
        answeredAtRecord.push(current.asked.filter((spied) => isWrite(spied) && spied.request.readyState === 'done').length);
      }
    },
  });
  return { writes: spy.asked.filter(isWrite).length, answeredAtRecord };
}
