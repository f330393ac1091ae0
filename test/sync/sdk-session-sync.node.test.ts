// The managed agent's side of a store, as the SDK itself syncs it: `SessionMemoryStores` (a folder on disk, pulled at
// the session's start and reconciled on the worker's cadence) against the loopback Memory Stores API, beside this
// library's sync on the same store. A memory written in the page must be the one the agent reads, and the agent's
// edits must come back to the page. Its syncs never throw (a failed request is only a warning in the client's log),
// so every test also holds the log to the warnings the step expects: a call the loopback answers differently from the
// service shows up there first.

import Anthropic from '@anthropic-ai/sdk';
import type { ClientOptions } from '@anthropic-ai/sdk';
import {
  MARKER_PATH,
  MIN_MEMORY_SYNC_INTERVAL_MS,
  SessionMemoryStores,
} from '@anthropic-ai/sdk/tools/agent-toolset/node';
import { DELETE_CORROBORATION_MS } from '@anthropic-ai/sdk/tools/agent-toolset/memories';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import { createMemorySync } from '../../src/sync/memory-sync.js';
import type { MemorySync } from '../../src/sync/memory-sync.js';
import { memoryStoreRemote } from '../../src/sync/remotes/memory-store.js';
import { toolsClosedAfterEach } from '../helpers/fresh-tool.js';
import { memoryFiles, storeFiles } from '../helpers/sync-storm.js';
import { startMemoryStoresServer } from '../servers/memory-stores-server.js';
import type { MemoryStoresServer } from '../servers/memory-stores-server.js';

type Session = Anthropic.Beta.Sessions.BetaManagedAgentsSession;
type Logger = NonNullable<ClientOptions['logger']>;

const open = toolsClosedAfterEach('sdk-session-sync');
let server: MemoryStoresServer;

beforeAll(async () => {
  server = await startMemoryStoresServer();
});
afterAll(() => server?.close());

// The SDK times its sync cadence and its delete wait with performance.now(); moving that clock forward lets a test
// run them without waiting 5 or 30 seconds, and without depending on how fast the machine is.
let skew = 0;
const realNow = performance.now.bind(performance);
beforeEach(() => {
  skew = 0;
  vi.spyOn(performance, 'now').mockImplementation(() => realNow() + skew);
});
afterEach(() => {
  vi.restoreAllMocks();
});

interface Logged {
  level: keyof Logger;
  message: string;
}

/** What the test sets up: the page's tool and sync, the agent's folder and sync, one store, one log. */
interface Rig {
  storeId: string;
  tool: IndexedDBMemoryTool;
  sync: MemorySync;
  agent: SessionMemoryStores;
  session: Session;
  /** The store's folder on disk (the resource's mount_path). */
  root: string;
  log: Logged[];
}

let rig: Rig | undefined;
let temp: string | undefined;

afterEach(async () => {
  rig?.sync.close();
  await rig?.agent.dispose();
  if (temp !== undefined) await rm(temp, { recursive: true, force: true });
  rig = undefined;
  temp = undefined;
});

/** A session as `sessions.retrieve` returns it, with one memory store attached read-write at `mountPath`. */
function sessionWith(storeId: string, mountPath: string): Session {
  const now = new Date().toISOString();
  return {
    id: 'sesn_loopback',
    type: 'session',
    status: 'running',
    title: null,
    agent: {
      id: 'agent_loopback',
      type: 'agent',
      version: 1,
      name: 'memory reader',
      description: null,
      execution_identity: { type: 'service_account' },
      mcp_servers: [],
      model: { id: 'claude-opus-4-5' },
      multiagent: null,
      skills: [],
      system: null,
      tools: [],
    },
    archived_at: null,
    budget: null,
    created_at: now,
    updated_at: now,
    environment_id: 'env_loopback',
    metadata: {},
    outcome_evaluations: [],
    resources: [
      { type: 'memory_store', memory_store_id: storeId, mount_path: mountPath, access: 'read_write', name: 'team' },
    ],
    stats: {},
    usage: {},
    vault_ids: [],
  };
}

async function setUp(): Promise<Rig> {
  temp = await mkdtemp(join(tmpdir(), 'sdk-session-sync-'));
  const storeId = server.createStore().id;
  const tool = await open();
  // The engine retries by itself, by kind; the SDK's retries would turn one stale precondition into three requests.
  const pageClient = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
  const sync = createMemorySync(tool, { remote: memoryStoreRemote({ client: pageClient, storeId }), interval: null });
  const log: Logged[] = [];
  const record =
    (level: keyof Logger) =>
    (message: string): void => {
      log.push({ level, message });
    };
  const logger: Logger = { error: record('error'), warn: record('warn'), info: record('info'), debug: record('debug') };
  // The agent's client keeps the SDK's default retries, as the worker's does.
  const agentClient = new Anthropic({ apiKey: 'test', baseURL: server.url, logger, logLevel: 'info' });
  const agent = new SessionMemoryStores(agentClient, { workdir: temp, syncIntervalMs: MIN_MEMORY_SYNC_INTERVAL_MS });
  // download() refuses a folder that already exists: a session starts on a path nothing holds yet.
  const root = join(temp, 'mnt', 'memory', 'team');
  rig = { storeId, tool, sync, agent, session: sessionWith(storeId, root), root, log };
  return rig;
}

/** One sync of the agent's on its own cadence: the interval has passed, so syncIfDue() runs. */
async function agentSync(agent: SessionMemoryStores): Promise<void> {
  skew += MIN_MEMORY_SYNC_INTERVAL_MS;
  await agent.syncIfDue();
}

/** The store's folder as `/path` → text (the SDK's marker file aside). */
async function diskFiles(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    const rel = full.slice(root.length);
    if (rel === `/${MARKER_PATH}`) continue;
    out[rel] = await readFile(full, 'utf8');
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Writes as the agent's file tools do: straight to the folder. */
async function agentWrites(root: string, path: string, text: string): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), text, 'utf8');
}

const write = (tool: IndexedDBMemoryTool, path: string, text: string) =>
  tool.create({ command: 'create', path, file_text: text });

/** The log's warnings and errors, as messages. */
const complaints = (log: readonly Logged[]): string[] =>
  log.filter((entry) => entry.level === 'warn' || entry.level === 'error').map((entry) => entry.message);

/** Disk, tool and server hold the same files, and those are `files`. */
async function allHold(r: Rig, files: Record<string, string>): Promise<void> {
  expect(storeFiles(server.api, r.storeId)).toEqual(files);
  expect(await memoryFiles(r.tool)).toEqual(files);
  expect(await diskFiles(r.root)).toEqual(files);
}

const SEEDED: Record<string, string> = {
  '/notes.md': 'The user prefers short answers.\n',
  '/people/ana.md': '# Ana\nReviews the sync code; zoned in Lisbon (UTC+0/1).\n',
  '/projects/alpha/plan.md': '1. Ship the panel\n2. Then the worker\n',
  '/projects/alpha/deep/er/still/notes.md': 'Five folders down: ünïcödé, 日本語, emoji 🧠.\n',
  // The SDK writes `content ?? ''`: an empty memory must come through as an empty file, not be taken for none.
  '/todo/empty.md': '',
};

/** The page writes `files` under /memories and pushes them; then the agent's session starts on the store. */
async function seeded(files: Record<string, string> = SEEDED): Promise<Rig> {
  const r = await setUp();
  for (const [path, text] of Object.entries(files)) await write(r.tool, `/memories${path}`, text);
  const report = await r.sync.syncNow();
  expect(report.pushed.sort()).toEqual(Object.keys(files).map((path) => `/memories${path}`).sort());
  await r.agent.download(r.session);
  return r;
}

describe("the SDK's SessionMemoryStores (the managed agent's side) and this sync on one store", () => {
  it('downloads exactly the texts the page wrote and pushed, nested folders too, across pages of the full listing', async () => {
    // 25 more files than the 20 a page of the full view holds, so the download walks a second page.
    const many = Object.fromEntries(
      Array.from({ length: 25 }, (_, i) => [`/log/day-${String(i).padStart(2, '0')}.md`, `entry ${i}\n`]),
    );
    const r = await seeded({ ...SEEDED, ...many });
    await allHold(r, { ...SEEDED, ...many });
    expect(await readFile(join(r.root, MARKER_PATH), 'utf8')).toBe(`version 1\n${r.storeId}`);
    expect(complaints(r.log)).toEqual([]);

    // Nothing changed anywhere: the agent's next sync lists and writes nothing, and this one has nothing to carry.
    const from = server.requests.length;
    await agentSync(r.agent);
    expect(server.requests.slice(from).map((request) => request.method)).toEqual(['GET']);
    expect(await r.sync.syncNow()).toMatchObject({ pulled: [], pushed: [], deleted: [], conflicts: [] });
    expect(complaints(r.log)).toEqual([]);
  });

  it("carries the agent's edit, new files and a delete (after the SDK's corroboration wait) back to the page, journaled by sync", async () => {
    const r = await seeded();
    await agentWrites(r.root, '/notes.md', 'The user prefers short answers, with sources.\n');
    await agentWrites(r.root, '/projects/alpha/risks.md', 'Rate limits on the proxy.\n');
    await agentWrites(r.root, '/inbox/2026/07/today.md', 'Call Ana about the review.\n');
    await rm(join(r.root, 'people', 'ana.md'));
    const expected = { ...SEEDED };
    expected['/notes.md'] = 'The user prefers short answers, with sources.\n';
    expected['/projects/alpha/risks.md'] = 'Rate limits on the proxy.\n';
    expected['/inbox/2026/07/today.md'] = 'Call Ana about the review.\n';
    delete expected['/people/ana.md'];

    // The first sync that sees the file gone only notes it: a delete goes out once it stays gone for the wait.
    await agentSync(r.agent);
    expect(storeFiles(server.api, r.storeId)).toEqual({ ...expected, '/people/ana.md': SEEDED['/people/ana.md'] });
    skew += DELETE_CORROBORATION_MS;
    await agentSync(r.agent);
    expect(storeFiles(server.api, r.storeId)).toEqual(expected);
    expect(r.log.map((entry) => entry.message)).toContain('propagated local deletion');

    const report = await r.sync.syncNow();
    const changed = ['/memories/inbox/2026/07/today.md', '/memories/notes.md', '/memories/projects/alpha/risks.md'];
    expect(report.pulled.sort()).toEqual(changed);
    expect(report.deleted).toEqual(['/memories/people/ana.md']);
    expect(report.conflicts).toEqual([]);
    await allHold(r, expected);

    // One change by the actor sync brought all four (and the folders the new file needed), and undo can take it back.
    const [last] = await r.tool.history({ limit: 1 });
    expect(last).toMatchObject({ actor: 'sync', command: 'sync', undoable: true });
    const folders = ['/memories/inbox', '/memories/inbox/2026', '/memories/inbox/2026/07'];
    expect([...(last?.paths ?? [])].sort()).toEqual([...folders, ...changed, '/memories/people/ana.md'].sort());
    const detail = await r.tool.change(last?.id ?? 0);
    expect(detail?.files.find((file) => file.path === '/memories/people/ana.md')).toMatchObject({
      before: SEEDED['/people/ana.md'],
      after: null,
    });
    expect(complaints(r.log)).toEqual([]);
  });

  it("brings the page's edit, rename and delete to the agent's disk on its next sync", async () => {
    const r = await seeded();
    await write(r.tool, '/memories/notes.md', 'The user prefers short answers; no tables.\n');
    await r.tool.rename({
      command: 'rename',
      old_path: '/memories/projects/alpha',
      new_path: '/memories/projects/beta',
    });
    await r.tool.delete({ command: 'delete', path: '/memories/people/ana.md' });
    const report = await r.sync.syncNow();
    expect(report.deleted).toEqual(['/memories/people/ana.md']);

    // A move keeps the memory's id; the agent, which syncs by path, sees the old path gone and the new one appear.
    await agentSync(r.agent);
    await allHold(r, {
      '/notes.md': 'The user prefers short answers; no tables.\n',
      '/projects/beta/deep/er/still/notes.md': SEEDED['/projects/alpha/deep/er/still/notes.md'] ?? '',
      '/projects/beta/plan.md': SEEDED['/projects/alpha/plan.md'] ?? '',
      '/todo/empty.md': '',
    });
    expect(complaints(r.log)).toEqual([]);
  });

  it('keeps both versions when the agent and the page change one file, the agent syncing first: everyone converges on the server', async () => {
    const r = await seeded();
    await agentWrites(r.root, '/notes.md', 'Agent: the user wants sources.\n');
    await write(r.tool, '/memories/notes.md', 'Page: the user wants bullet points.\n');

    await agentSync(r.agent);
    const report = await r.sync.syncNow();
    expect(report.conflicts).toEqual(['/memories/notes.md']);
    const copy = r.sync.status().conflicts[0]?.copy ?? '';
    expect(copy).toMatch(/^\/memories\/notes\.conflict-\d{8}-\d{6}-[0-9a-z]+\.md$/);
    // The copy went to the server as a new file; the agent's next sync brings it to disk.
    await agentSync(r.agent);

    const expected = {
      ...SEEDED,
      '/notes.md': 'Agent: the user wants sources.\n',
      [copy.slice('/memories'.length)]: 'Page: the user wants bullet points.\n',
    };
    await allHold(r, expected);
    expect(await r.sync.syncNow()).toMatchObject({ pulled: [], pushed: [], deleted: [], conflicts: [] });
    expect(complaints(r.log)).toEqual([]);
  });

  it("converges on the server's text when the page syncs first: the agent's own edit is lost on its side (the SDK's rule), never the page's", async () => {
    const r = await seeded();
    await write(r.tool, '/memories/notes.md', 'Page: the user wants bullet points.\n');
    await agentWrites(r.root, '/notes.md', 'Agent: the user wants sources.\n');

    expect((await r.sync.syncNow()).pushed).toEqual(['/memories/notes.md']);
    await agentSync(r.agent);

    await allHold(r, { ...SEEDED, '/notes.md': 'Page: the user wants bullet points.\n' });
    expect(complaints(r.log)).toEqual(['memory changed both locally and remotely; keeping the remote version']);
    expect(await r.sync.syncNow()).toMatchObject({ pulled: [], pushed: [], deleted: [], conflicts: [] });
  });
});
