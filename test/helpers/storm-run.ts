// One seeded storm over a real remote: devices (each a tool on its own database with its own sync) take random
// commands — writes of every size up to and past the remote's limit, edits, deletes, renames (two devices renaming one
// file at once, an edit against a delete), file/folder clashes — between sync passes, some of them concurrent; the
// server's side plants a binary file or writes as another agent. Then passes until nothing changes, and the oracle's
// checks. The random draws never depend on the outcome of a step, so a seed and a step count replay a storm's prefix.

import { Buffer } from 'node:buffer';
import type { IndexedDBMemoryTool } from '../../src/index.js';
import { isMemoryToolError } from '../../src/index.js';
import { createMemorySync } from '../../src/sync/memory-sync.js';
import type { MemorySync } from '../../src/sync/memory-sync.js';
import { isSyncRemoteError } from '../../src/sync/remote.js';
import type { SyncReport } from '../../src/sync/sync-report.js';
import { mulberry32 } from '../e2e/pages/storm-driver.js';
import { StormOracle, tagOf, viewOf } from './storm-oracle.js';
import type { DeviceView, StormFailure } from './storm-oracle.js';
import type { ServerFiles, StormRemote } from './storm-remotes.js';

const MOUNT = '/memories';
/** A name of 231 bytes: its conflict copy's name (30 bytes more) is past the 255 a file system or the memory takes. */
const LONG = `/${'l'.repeat(228)}.md`;
/** Few names, so devices meet: `/notes` and `/p/q` are files and folders by turns. */
const FILES = ['/notes', '/notes/a.md', '/notes/b.md', '/a.md', '/b.md', '/p/q', '/p/q/r.md', '/p/s.md', '/agent/log.md'];
const FOLDERS = ['/notes', '/p', '/p/q'];
const TARGETS = [...FILES, '/moved.md', '/notes/c.md', '/n2', '/p2', '/p/q2'];
/** What a Finder leaves on a share: a `.DS_Store`'s header and an AppleDouble file, neither UTF-8. */
const BINARIES: [string, Buffer][] = [
  ['/.DS_Store', Buffer.from([0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31, 0, 0, 0x10, 0, 0xff, 0xfe, 0x80, 0x81])],
  ['/notes/._a.md', Buffer.from([0, 5, 0x16, 7, 0, 2, 0, 0, 0x4d, 0x61, 0x63, 0x20, 0x4f, 0x53, 0x20, 0x58, 0xc3, 0x28])],
];

/** What the storm leaves out or does besides, while an issue it would only find again is open. */
export interface StormPlan {
  /** Plant binary files on the server (WebDAV). */
  binaries: boolean;
  /** Write texts past the remote's limit (at the limit always). */
  pastLimit: boolean;
  /** Use a name so long that its conflict copy's name cannot be written. */
  longNames: boolean;
  /** Remove folders left empty, on the devices and the server, after every step. */
  tidyEmptyFolders: boolean;
  /** Sync passes on several devices at once. */
  concurrentPasses: boolean;
  /** Two devices rename one file to the same new name at once (else each to a name of its own). */
  sameRenames: boolean;
  /**
   * A new conflict copy with nothing at its path once the pass is done is taken as explained (a file met a folder
   * that the same pass emptied).
   */
  tolerateCopyBesideNothing: boolean;
  /** A WebDAV pass rejected with `server` or `auth` (Apache's 500 or 403 on a path another device is changing) is logged, not failed. */
  tolerateDavRaces: boolean;
}

/** The whole storm: every hostile part on, nothing tolerated. */
export const FULL_STORM: Readonly<StormPlan> = {
  binaries: true,
  pastLimit: true,
  longNames: true,
  tidyEmptyFolders: false,
  concurrentPasses: true,
  sameRenames: true,
  tolerateCopyBesideNothing: false,
  tolerateDavRaces: false,
};

export interface StormOptions {
  seed: number;
  /** Commands to run (sync passes and the server's acts aside). */
  commands: number;
  devices: number;
  remote: StormRemote;
  open: () => Promise<IndexedDBMemoryTool>;
  plan: StormPlan;
}

export interface StormResult {
  failures: StormFailure[];
  steps: number;
  commands: number;
  passes: number;
  /** Time spent in passes (ms; concurrent ones add up). */
  passMs: number;
  /** One line per step, for the report of a failure. */
  trace: string[];
}

interface Device {
  tool: IndexedDBMemoryTool;
  sync: MemorySync;
}

/** `size` UTF-8 bytes (at least the header's), beginning with the header line. */
function textOf(header: string, size: number): string {
  const body = Math.max(0, size - header.length);
  const line = `${'x'.repeat(79)}\n`;
  return header + line.repeat(Math.floor(body / 80)) + 'y'.repeat(body % 80);
}

const emptyReport = (report: SyncReport): boolean =>
  report.pulled.length + report.pushed.length + report.deleted.length + report.conflicts.length === 0;

export async function runStorm(options: StormOptions): Promise<StormResult> {
  const { seed, remote, plan } = options;
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const files = plan.longNames ? [...FILES, LONG] : FILES;
  const devices: Device[] = [];
  for (let index = 0; index < options.devices; index++) {
    const tool = await options.open();
    devices.push({ tool, sync: createMemorySync(tool, { remote: remote.handle(index), interval: null }) });
  }
  const oracle = new StormOracle(
    devices.map((): DeviceView => ({ files: new Map(), sizes: new Map(), folders: new Set() })),
    plan.tolerateCopyBesideNothing,
  );
  const trace: string[] = [];
  const planted = new Map<string, Uint8Array>();
  let step = 0;
  let commands = 0;
  let passes = 0;
  let passMs = 0;
  let server = await remote.files();

  const remoteTag = (path: string): string | undefined => {
    const text = server.texts.get(path);
    return text === undefined ? undefined : tagOf(text);
  };
  const header = (tag: string, writer: string): string => `${tag} ${writer} s${String(step).padStart(6, '0')}\n`;
  const sizeOf = (): number => {
    const roll = random();
    const past = random() < 0.5 ? remote.limit + 1 : Math.floor(remote.limit * 1.5);
    if (roll < 0.05) return remote.limit;
    if (roll < 0.1 && plan.pastLimit) return past;
    return 30 + Math.floor(random() * 300);
  };
  /** A file the device has (from its last view), chosen by a draw made whatever the device holds. */
  const fileOf = (device: number): string | undefined => {
    const draw = random();
    const list = [...(oracle.views[device] as DeviceView).files.keys()].sort();
    return list.length === 0 ? undefined : list[Math.floor(draw * list.length)];
  };

  /** Runs a command; a refusal by the memory is part of the storm, any other error a failure. */
  const attempt = async (device: number, what: string, command: () => Promise<unknown>): Promise<boolean> => {
    commands += 1;
    try {
      await command();
      trace.push(`${step} d${device}: ${what}`);
      return true;
    } catch (error) {
      trace.push(`${step} d${device}: ${what} → refused${isMemoryToolError(error) ? ` (${error.code})` : ''}`);
      if (!isMemoryToolError(error)) oracle.fail('command', step, `d${device}: ${what}: ${String(error)}`);
      return false;
    }
  };
  const observe = async (device: number, deleting: boolean): Promise<void> => {
    const { tool } = devices[device] as Device;
    if (plan.tidyEmptyFolders) await tidy(tool);
    oracle.afterCommand(device, await viewOf(tool), step, deleting, remoteTag);
  };

  const write = async (device: number, path: string, size: number): Promise<void> => {
    const tag = oracle.newTag();
    const text = textOf(header(tag, `d${device}`), size);
    const parent = (oracle.views[device] as DeviceView).files.get(path);
    const { tool } = devices[device] as Device;
    const done = await attempt(device, `create ${path} ${tag} (${text.length} B)`, () =>
      tool.create({ command: 'create', path: MOUNT + path, file_text: text }),
    );
    if (done) oracle.register({ tag, writer: `d${device}`, parent, step, path, bytes: Buffer.byteLength(text) });
  };
  const edit = async (device: number, path: string | undefined): Promise<void> => {
    if (path === undefined) return;
    const { tool } = devices[device] as Device;
    const tag = oracle.newTag();
    const parent = (oracle.views[device] as DeviceView).files.get(path);
    const old = (await tool.read(MOUNT + path).catch(() => undefined))?.split('\n', 1)[0];
    if (old === undefined) return;
    const next = header(tag, `d${device}`).slice(0, -1);
    const done = await attempt(device, `edit ${path} ${parent} → ${tag}`, () =>
      tool.str_replace({ command: 'str_replace', path: MOUNT + path, old_str: old, new_str: next }),
    );
    const bytes = (oracle.views[device] as DeviceView).sizes.get(path) ?? 0;
    if (done) oracle.register({ tag, writer: `d${device}`, parent, step, path, bytes });
  };
  const remove = async (device: number, path: string | undefined): Promise<void> => {
    if (path === undefined) return;
    const { tool } = devices[device] as Device;
    await attempt(device, `delete ${path}`, () => tool.delete({ command: 'delete', path: MOUNT + path }));
  };
  const rename = async (device: number, from: string | undefined, to: string): Promise<void> => {
    if (from === undefined) return;
    const { tool } = devices[device] as Device;
    await attempt(device, `rename ${from} → ${to}`, () => tool.rename({ command: 'rename', old_path: MOUNT + from, new_path: MOUNT + to }));
  };
  const pass = async (device: number): Promise<SyncReport | undefined> => {
    passes += 1;
    const { sync } = devices[device] as Device;
    const started = performance.now();
    try {
      const report = await sync.syncNow({ confirmDeletes: true });
      passMs += performance.now() - started;
      const did = (['pulled', 'pushed', 'deleted', 'conflicts'] as const)
        .filter((key) => report[key].length > 0)
        .map((key) => `${key} ${report[key].map((path) => path.slice(MOUNT.length)).join(' ')}`);
      const skipped = report.skipped.map((file) => `${file.path.slice(MOUNT.length)} (${file.refusedBy}${file.kind === undefined ? '' : `, ${file.kind}`})`);
      trace.push(`${step} d${device}: sync${did.length ? `: ${did.join('; ')}` : ''}${skipped.length ? `; skipped ${skipped.join(' ')}` : ''}`);
      return report;
    } catch (error) {
      const kind = isSyncRemoteError(error) ? error.kind : 'not a SyncRemoteError';
      trace.push(`${step} d${device}: sync rejected (${kind}): ${String(error).slice(0, 200)}`);
      if (plan.tolerateDavRaces && remote.name === 'WebDAV' && (kind === 'server' || kind === 'auth')) return undefined;
      oracle.fail('no rejection', step, `d${device}: syncNow() rejected (${kind}): ${String(error).slice(0, 300)}`);
      return undefined;
    }
  };
  // What each side holds after a pass, for the trace: a lost version is followed from one side to the next.
  const holds = (who: string, files: Iterable<[string, string]>) =>
    `${step} ${who} holds ${[...files].map(([path, tag]) => `${path}=${tag}`).sort().join(' ')}`;
  const afterPasses = async (list: number[], before: ServerFiles): Promise<void> => {
    server = await remote.files();
    trace.push(holds('server', [...server.texts].map(([path, text]) => [path, tagOf(text) ?? '?'])));
    for (const device of list) {
      const { tool } = devices[device] as Device;
      if (plan.tidyEmptyFolders) await tidy(tool);
      const view = await viewOf(tool);
      trace.push(holds(`d${device}`, view.files));
      oracle.afterPass(device, view, step, before);
    }
    if (plan.tidyEmptyFolders) await remote.removeEmptyFolders();
  };

  while (commands < options.commands) {
    step += 1;
    const roll = random();
    const a = Math.floor(random() * devices.length);
    const b = (a + 1 + Math.floor(random() * (devices.length - 1))) % devices.length;
    if (roll < 0.33) {
      await write(a, pick(files), sizeOf());
      await observe(a, false);
    } else if (roll < 0.52) {
      await edit(a, fileOf(a));
      await observe(a, false);
    } else if (roll < 0.66) {
      await remove(a, random() < 0.75 ? fileOf(a) : pick(FOLDERS));
      await observe(a, true);
    } else if (roll < 0.79) {
      await rename(a, random() < 0.75 ? fileOf(a) : pick(FOLDERS), pick(random() < 0.1 && plan.longNames ? [...TARGETS, LONG] : TARGETS));
      await observe(a, false);
    } else if (roll < 0.85) {
      // Two devices rename one file at once, to the same name or to two.
      const from = fileOf(a);
      const [to, other] = [pick(TARGETS), random() < 0.3 ? undefined : pick(TARGETS)];
      const second = other ?? (plan.sameRenames ? to : (TARGETS[(TARGETS.indexOf(to) + 1) % TARGETS.length] as string));
      await rename(a, from, to);
      await observe(a, false);
      await rename(b, from, second);
      await observe(b, false);
    } else if (roll < 0.91) {
      // An edit against a delete: one device edits a file the other deletes.
      const path = fileOf(a);
      await edit(a, path);
      await observe(a, false);
      await remove(b, path);
      await observe(b, true);
    } else if (roll < 0.93) {
      await serverAct();
    } else {
      // About fifteen commands between passes: enough for most passes to meet a concurrent change, few enough passes
      // that thousands of commands take a minute or so over Apache.
      const together = plan.concurrentPasses && random() < 0.4;
      const list = together ? (random() < 0.5 ? [a, b] : devices.map((_, index) => index)) : [a];
      const before = server;
      await Promise.all(list.map((device) => pass(device)));
      await afterPasses(list, before);
    }
  }

  async function serverAct(): Promise<void> {
    const draw = random();
    const [path, bytes] = pick(BINARIES);
    if (plan.binaries && draw < 0.5 && !planted.has(path)) {
      if (await remote.plantBinary(path, bytes)) {
        planted.set(path, bytes);
        trace.push(`${step} server: planted binary ${path}`);
      }
      return;
    }
    const target = draw < 0.75 ? '/agent/log.md' : pick(files);
    const replaced = remoteTag(target);
    const tag = oracle.newTag();
    const text = textOf(header(tag, 'server'), 40 + Math.floor(random() * 200));
    if (!(await remote.writeAsServer(target, text))) return;
    oracle.register({ tag, writer: 'server', parent: replaced, step, path: target, bytes: Buffer.byteLength(text) });
    oracle.afterServerWrite(target, replaced);
    server = await remote.files();
    trace.push(`${step} server: wrote ${target} ${replaced ?? 'new'} → ${tag}`);
  }

  // Quiesce: every device in turn until a whole round changes nothing and meets no lock. A lock Apache 2.4 kept after
  // its holder let go (another client's lock request met the UNLOCK) lapses by itself: rounds that meet only locks
  // wait for it, and are not counted.
  const lapsed = Date.now() + remote.lockLapseMs + 10_000;
  let quiet = false;
  for (let round = 0; round < 8 && !quiet; ) {
    step += 1;
    quiet = true;
    let locked = false;
    for (let device = 0; device < devices.length; device++) {
      const before = server;
      const report = await pass(device);
      if (report === undefined || !emptyReport(report)) quiet = false;
      else if (report.skipped.some((file) => file.kind === 'locked')) locked = true;
      await afterPasses([device], before);
    }
    if (quiet && locked) {
      quiet = false;
      if (Date.now() > lapsed) break;
      await new Promise((wake) => setTimeout(wake, 1000));
    } else round += 1;
  }
  if (!quiet) oracle.fail('quiesced', step, 'passes still changed something after 8 rounds, or a lock outlived its lapse');
  const texts: Map<string, string>[] = [];
  for (const { tool } of devices) {
    const mine = new Map<string, string>();
    for (const entry of await tool.list(MOUNT)) if (entry.kind === 'file') mine.set(entry.path.slice(MOUNT.length), await tool.read(entry.path));
    texts.push(mine);
  }
  oracle.finalChecks(step, texts, await remote.files(), remote.limit, planted);
  for (const { sync } of devices) sync.close();
  return { failures: oracle.failures, steps: step, commands, passes, passMs, trace };
}

/** Deletes the folders with no file below them (a person tidying up), topmost first. */
async function tidy(tool: IndexedDBMemoryTool): Promise<void> {
  const entries = await tool.list(MOUNT);
  const files = entries.filter((entry) => entry.kind === 'file').map((entry) => entry.path);
  const empty = entries
    .filter((entry) => entry.kind === 'folder' && entry.path !== MOUNT && !files.some((file) => file.startsWith(`${entry.path}/`)))
    .map((entry) => entry.path);
  for (const folder of empty) {
    if (empty.some((other) => folder.startsWith(`${other}/`))) continue;
    await tool.delete({ command: 'delete', path: folder });
  }
}
