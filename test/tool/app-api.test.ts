// The app's side of the tool: `list` with a depth and a limit (and word of a cut), a cursor on `history`, the actor
// and source of the app's writes (undo, expiry, import), AbortSignals on export, import and expiry (aborted: nothing
// changed), and an import from bytes.

import { describe, expect, it } from 'vitest';
import { bundleOf } from '../helpers/bundles.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { dumpStores } from '../helpers/store-dump.js';

const open = toolsClosedAfterEach('app-api');

async function tree() {
  const tool = await open();
  for (const path of ['/memories/a.md', '/memories/b/c.md', '/memories/b/d/e.md', '/memories/f.md']) {
    await tool.write(path, path);
  }
  return tool;
}

const paths = (entries: ReadonlyArray<{ path: string }>): string[] => entries.map((entry) => entry.path);
const aborted = (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error as Error).name,
  );

describe('list with a depth and a limit', () => {
  it('depth 1 lists the folder own children only; depth 2 one level more', async () => {
    const tool = await tree();
    expect(paths(await tool.list('/memories', { depth: 1 }))).toEqual(['/memories/a.md', '/memories/b', '/memories/f.md']);
    expect(paths(await tool.list('/memories/b', { depth: 1 }))).toEqual(['/memories/b/c.md', '/memories/b/d']);
    expect(paths(await tool.list('/memories', { depth: 2 }))).toEqual([
      '/memories/a.md',
      '/memories/b',
      '/memories/b/c.md',
      '/memories/b/d',
      '/memories/f.md',
    ]);
    expect(await tool.list()).toHaveLength(6);
  });

  it('limit caps the entries in path order, and truncated says whether it cut', async () => {
    const tool = await tree();
    const cut = await tool.list('/memories', { limit: 2 });
    expect(paths(cut)).toEqual(['/memories/a.md', '/memories/b']);
    expect(cut.truncated).toBe(true);
    const whole = await tool.list('/memories', { limit: 6 });
    expect(whole).toHaveLength(6);
    expect(whole.truncated).toBe(false);
    const children = await tool.list('/memories', { depth: 1, limit: 3 });
    expect(children.truncated).toBe(false);
    expect((await tool.list('/memories', { depth: 1, limit: 2 })).truncated).toBe(true);
  });

  it('refuses a depth or limit that is not a positive integer', async () => {
    const tool = await tree();
    await expect(tool.list('/memories', { depth: 0 })).rejects.toThrow(TypeError);
    await expect(tool.list('/memories', { limit: 1.5 })).rejects.toThrow(TypeError);
  });
});

describe('history pages', () => {
  it('before: the id of the last entry of a page gives the next page, until a short one', async () => {
    const tool = await open();
    for (let i = 0; i < 5; i++) await tool.write(`/memories/${i}.md`, String(i));
    const all = await tool.history();
    const first = await tool.history({ limit: 2 });
    const second = await tool.history({ limit: 2, before: first.at(-1)?.id });
    const third = await tool.history({ limit: 2, before: second.at(-1)?.id });
    expect([...first, ...second, ...third]).toEqual(all);
    expect(third).toHaveLength(1);
  });
});

// `olderThan: 0` expires what was written before now: wait for the clock to pass the last write's millisecond, or a
// fast machine writes and expires within one and nothing is old enough.
async function clockMoves(): Promise<void> {
  const start = Date.now();
  while (Date.now() <= start) await new Promise((done) => setTimeout(done, 1));
}

describe('who the app writes as', () => {
  it('undo, expire and import record the actor and source they are given, and their defaults otherwise', async () => {
    const tool = await open();
    await tool.write('/memories/a.md', 'a');
    await tool.undo(undefined, { actor: 'review-panel', source: 'tab-2' });
    await tool.write('/memories/b.md', 'b');
    await tool.undo();
    await tool.importBundle(await bundleOf({ '/memories/c.md': 'c' }), { actor: 'restore', source: 'backup.json' });
    await clockMoves();
    await tool.expire({ olderThan: 0, actor: 'cleanup', source: 'nightly' });
    const [expired, imported, undone, , undoneBy] = await tool.history();
    expect(expired).toMatchObject({ command: 'expire', actor: 'cleanup', source: 'nightly' });
    expect(imported).toMatchObject({ command: 'import', actor: 'restore', source: 'backup.json' });
    expect(undone).toMatchObject({ command: 'undo', actor: 'user' });
    expect(undoneBy).toMatchObject({ command: 'undo', actor: 'review-panel', source: 'tab-2' });
    await tool.write('/memories/d.md', 'd');
    await clockMoves();
    await tool.expire({ olderThan: 0 });
    expect((await tool.history({ limit: 1 }))[0]?.actor).toBe('expire');
  });
});

describe('abort signals', () => {
  it('an aborted import, export or expiry rejects with an AbortError and changes nothing', async () => {
    const tool = await tree();
    const before = await dumpStores(tool.dbName);
    const signal = AbortSignal.abort();
    const bundle = await bundleOf({ '/memories/new.md': 'new' });
    expect(await aborted(tool.importBundle(bundle, { signal }))).toBe('AbortError');
    expect(await aborted(tool.exportBundle({ signal }))).toBe('AbortError');
    expect(await aborted(tool.expire({ olderThan: 0, signal }))).toBe('AbortError');
    expect(await dumpStores(tool.dbName)).toBe(before);
  });

  it('an import or export aborted from its progress (after 1,000 files hashed) stops, the import writing nothing', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 1200; i++) files[`/memories/many/${i}.md`] = `file ${i}`;
    const bundle = await bundleOf(files);
    const tool = await tree();
    const before = await dumpStores(tool.dbName);
    const stopping = new AbortController();
    const importing = tool.importBundle(bundle, { signal: stopping.signal, onProgress: () => stopping.abort() });
    expect(await aborted(importing)).toBe('AbortError');
    expect(await dumpStores(tool.dbName)).toBe(before);

    await tool.importBundle(bundle);
    const exportStop = new AbortController();
    const exporting = tool.exportBundle({ signal: exportStop.signal, onProgress: () => exportStop.abort() });
    expect(await aborted(exporting)).toBe('AbortError');
  });
});

describe('import from bytes', () => {
  it('takes a bundle as an ArrayBuffer or a Uint8Array, JSON or zip', async () => {
    const source = await tree();
    const json = await (await source.exportBundle()).arrayBuffer();
    const zip = new Uint8Array(await (await source.exportBundle({ format: 'zip' })).arrayBuffer());
    const fromJson = await open();
    const fromZip = await open();
    await fromJson.importBundle(json);
    // A view into a larger buffer: only its own bytes are read.
    const padded = new Uint8Array(zip.length + 8);
    padded.set(zip, 4);
    await fromZip.importBundle(padded.subarray(4, 4 + zip.length));
    for (const tool of [fromJson, fromZip]) {
      expect(paths(await tool.list())).toEqual(paths(await source.list()));
      expect(await tool.read('/memories/b/d/e.md')).toBe('/memories/b/d/e.md');
    }
  });
});
