// The test page of test/e2e/search-page-closed.test.ts: one IndexedDBMemoryTool, a seeded run of writes and searches
// started without waiting (so the page may close anywhere in it), and the files and search answers read back.

import { BUNDLE_FORMAT, BUNDLE_VERSION, IndexedDBMemoryTool, isMemoryToolError } from '../../../src/index.js';
import type { BundleFile, MemoryBundle, SearchOptions, SearchResult } from '../../../src/index.js';
import { seededRandom } from '../../helpers/seeded-random.js';
import { stormText } from '../../helpers/search-storm.js';

export interface SearchClosedApi {
  open(dbName: string): Promise<void>;
  /** Starts `steps` seeded writes (a big import among them) and searches; never waits, the page may close mid-way. */
  start(seed: number, steps: number): void;
  /** How many steps the started run finished. */
  finished(): number;
  /** Every file list() shows (hidden ones too) with its text, and every path. */
  files(): Promise<{ files: Array<[string, string]>; paths: string[] }>;
  /** The answer, or the error's code (`not_found`) or text. */
  search(query: string, options: SearchOptions): Promise<SearchResult | { error: string }>;
}

let tool: IndexedDBMemoryTool | undefined;
let done = 0;

function current(): IndexedDBMemoryTool {
  if (!tool) throw new Error('searchClosed.open() first');
  return tool;
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A bundle of `count` files of storm text under `folder` (big enough that closing the page may cut it). */
async function bundle(random: () => number, folder: string, count: number): Promise<string> {
  const at = new Date('2025-01-01T00:00:00.000Z').toISOString();
  const files: BundleFile[] = [];
  for (let i = 0; i < count; i++) {
    const content = stormText(random, 20);
    files.push({ path: `${folder}/f${String(i).padStart(4, '0')}.md`, content, createdAt: at, updatedAt: at, sha256: await sha256(content) });
  }
  const memory: MemoryBundle = { format: BUNDLE_FORMAT, version: BUNDLE_VERSION, exportedAt: at, files, folders: [] };
  return JSON.stringify(memory);
}

async function step(random: () => number, i: number): Promise<void> {
  const t = current();
  const path = `/memories/${['a', 'b', 'c', 'notes/d', '.hidden/e'][Math.floor(random() * 5)]}.md`;
  const roll = random();
  const user = { actor: 'user' as const };
  const ignore = () => undefined;
  if (roll < 0.15) await t.importBundle(await bundle(random, `/memories/bulk${i % 3}`, 300), { mode: 'merge' }).catch(ignore);
  else if (roll < 0.4) await t.execute({ command: 'create', path, file_text: stormText(random) }, user).catch(ignore);
  else if (roll < 0.5) await t.execute({ command: 'insert', path, insert_line: 0, insert_text: stormText(random, 1) }, user).catch(ignore);
  else if (roll < 0.55) await t.execute({ command: 'delete', path: `/memories/bulk${i % 3}` }, user).catch(ignore);
  else if (roll < 0.6) await t.undo().catch(ignore);
  else if (roll < 0.65) await t.forget(path).catch(ignore);
  else await t.search(stormText(random, 1) || 'tea').catch(ignore);
}

window.searchClosed = {
  async open(dbName) {
    tool = await IndexedDBMemoryTool.init({ dbName });
  },
  start(seed, steps) {
    done = 0;
    const random = seededRandom(seed);
    void (async () => {
      for (let i = 0; i < steps; i++) {
        await step(random, i);
        done++;
      }
    })();
  },
  finished: () => done,
  async files() {
    const entries = await current().list();
    const files = entries.filter((entry) => entry.kind === 'file');
    const texts = await Promise.all(files.map(async (entry) => [entry.path, await current().read(entry.path)] as [string, string]));
    return { files: texts, paths: entries.map((entry) => entry.path) };
  },
  search: (query, options) => current()
      .search(query, options)
      .catch((error: unknown) => ({ error: isMemoryToolError(error) ? error.code : String(error) })),
};

declare global {
  interface Window {
    searchClosed: SearchClosedApi;
  }
}

document.body.dataset.ready = 'true';
