// The storm's oracle: every text it writes carries a version tag on its first line, and each version records who wrote
// it over which one (its parent). From the devices' states before and after each step it knows which versions were
// superseded or deleted knowingly, which paths were deleted once everyone had them, and whether a new conflict copy has
// a concurrent change to explain it; at the end it holds the devices and the remote's own content to the promises.

import type { IndexedDBMemoryTool } from '../../src/index.js';
import { originalOf } from '../../src/sync/conflict-names.js';
import type { ServerFiles } from './storm-remotes.js';

const MOUNT = '/memories';
const TAG = /^(v\d{6}) /u;
/** Whether two paths cannot both be files: the same path, or one a folder of the other. */
const clash = (a: string, b: string) => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);

/** The version tag of a storm text (`v000042`), or undefined for a text the storm did not write. */
export const tagOf = (text: string): string | undefined => TAG.exec(text)?.[1];

/** One device's files as remote paths (`/notes/a.md`): each file's tag and size, and its folders. */
export interface DeviceView {
  files: Map<string, string>;
  sizes: Map<string, number>;
  folders: Set<string>;
}

/** Reads a device's memory below the mount; a file without a tag is kept as `?`. */
export async function viewOf(tool: IndexedDBMemoryTool): Promise<DeviceView> {
  const view: DeviceView = { files: new Map(), sizes: new Map(), folders: new Set() };
  for (const entry of await tool.list(MOUNT)) {
    const path = entry.path.slice(MOUNT.length);
    if (path === '') continue;
    if (entry.kind === 'folder') view.folders.add(path);
    else {
      view.files.set(path, tagOf(await tool.read(entry.path)) ?? '?');
      view.sizes.set(path, entry.size);
    }
  }
  return view;
}

export type Invariant =
  | 'converged'
  | 'nothing lost'
  | 'no delete undone'
  | 'no unexplained conflict copy'
  | 'no rejection'
  | 'quiesced'
  | 'binary kept'
  | 'only storm texts'
  | 'command';

export interface StormFailure {
  invariant: Invariant;
  /** The step it was seen at (the final checks: the number of steps). */
  step: number;
  detail: string;
}

export interface Version {
  tag: string;
  /** `d0`, `d1`, … or `server`. */
  writer: string;
  parent: string | undefined;
  step: number;
  path: string;
  bytes: number;
}

/** A path deleted while every device and the remote held the same version there. */
interface DeletedForAll {
  tag: string;
  step: number;
  device: number;
  /** The devices that have been without it since. */
  gone: Set<number>;
}

export class StormOracle {
  readonly versions = new Map<string, Version>();
  /** Versions superseded or deleted knowingly: by a command on a device that held them, or by the server's writer. */
  readonly dead = new Set<string>();
  /** Which device's command superseded or deleted each dead version (absent: the server's writer). */
  readonly #killedBy = new Map<string, number>();
  readonly failures: StormFailure[] = [];
  readonly #deleted = new Map<string, DeletedForAll>();
  readonly #copiesSeen = new Set<string>();
  /** Every path each version was held at on a device, and the paths a command (or a pass's move) took it from. */
  readonly #heldAt = new Map<string, Set<string>>();
  readonly #leftAt = new Map<string, Set<string>>();
  readonly #lastPass: (DeviceView | undefined)[] = [];
  /** Each device's view at the pass before its last: the last may have run beside another's and not seen its push. */
  readonly #passBefore: (DeviceView | undefined)[] = [];
  #next = 0;

  /** `tolerateCopyBesideNothing`: a new conflict copy with nothing at its path after the pass is not a failure. */
  constructor(
    readonly views: DeviceView[],
    readonly tolerateCopyBesideNothing = false,
  ) {}

  newTag(): string {
    return `v${String(++this.#next).padStart(6, '0')}`;
  }

  fail(invariant: Invariant, step: number, detail: string): void {
    this.failures.push({ invariant, step, detail });
  }

  /**
   * Notes where `after` holds each version, and where it no longer holds one that `before` did: a command took it from
   * there knowingly; a pass only when the device still holds it elsewhere (moved).
   */
  #notePaths(before: DeviceView, after: DeviceView, command: boolean): void {
    const still = new Set(after.files.values());
    for (const [path, tag] of after.files) this.#heldAt.set(tag, (this.#heldAt.get(tag) ?? new Set()).add(path));
    for (const [path, tag] of before.files) {
      if (after.files.get(path) === tag || !(command || still.has(tag))) continue;
      this.#leftAt.set(tag, (this.#leftAt.get(tag) ?? new Set()).add(path));
    }
  }

  register(version: Version): void {
    this.versions.set(version.tag, version);
  }

  /** The device whose command superseded or deleted `tag`, if one did. */
  killedBy(tag: string): number | undefined {
    return this.#killedBy.get(tag);
  }

  /** True when `older` is `newer` or one of its parents. */
  isAncestor(older: string, newer: string): boolean {
    for (let at: string | undefined = newer; at !== undefined; at = this.versions.get(at)?.parent) {
      if (at === older) return true;
    }
    return false;
  }

  lineage(tag: string): string {
    const chain: string[] = [];
    for (let at: string | undefined = tag; at !== undefined && chain.length < 6; at = this.versions.get(at)?.parent) {
      const version = this.versions.get(at);
      chain.push(version === undefined ? at : `${at} (${version.writer} s${version.step} ${version.path} ${version.bytes} B)`);
    }
    return chain.join(' ← ');
  }

  /**
   * After a command on `device`: what it removed it removed knowingly; a path it deleted while everyone (and the
   * remote, `remoteTag`) held the same version is remembered; a path it wrote is no longer a deleted one.
   */
  afterCommand(device: number, after: DeviceView, step: number, deleting: boolean, remoteTag: (path: string) => string | undefined): void {
    const before = this.views[device] as DeviceView;
    // A command that removes a version from a path removes it knowingly, even where the device still holds it at
    // another path (a rename and a concurrent move-aside can leave one version at two paths, each then deleted on
    // another device). A version only a sync pass ever removed must still be somewhere.
    const still = new Set(after.files.values());
    for (const [path, tag] of before.files) {
      if (after.files.get(path) === tag || this.dead.has(tag)) continue;
      // Held elsewhere after anything but a delete: a rename moved it, or an edit left its other instance.
      if (still.has(tag) && !deleting) continue;
      this.dead.add(tag);
      this.#killedBy.set(tag, device);
    }
    for (const [path, tag] of before.files) {
      if (!deleting || after.files.has(path)) continue;
      const everywhere = this.views.every((view, index) => index === device || view.files.get(path) === tag) && remoteTag(path) === tag;
      // Only a path this device's last pass saw it hold: one its own rename or write made since has no baseline, and
      // a memory without a baseline never deletes (src/sync/README.md).
      const synced = this.#lastPass[device]?.files.get(path) === tag;
      if (everywhere && synced) this.#deleted.set(path, { tag, step, device, gone: new Set([device]) });
    }
    for (const [path, tag] of after.files) if (before.files.get(path) !== tag) this.#deleted.delete(path);
    for (const [path, deleted] of this.#deleted) if (!after.files.has(path)) deleted.gone.add(device);
    this.#notePaths(before, after, true);
    this.#checkTags(device, after, step);
    this.views[device] = after;
  }

  /** After the server's own writer set `path` to `tag` over `replaced`. */
  afterServerWrite(path: string, replaced: string | undefined): void {
    if (replaced !== undefined) this.dead.add(replaced);
    this.#deleted.delete(path);
  }

  /**
   * After a sync pass on `device`: no deleted path back, and every conflict copy it made explained: by another
   * version at its path that is neither its ancestor nor its descendant, by an older one another device renamed into
   * the path as this one renamed its own there, or by a folder of that name — here, or on the remote before the pass
   * (`server`) holding a binary or a version that no command of this device had deleted.
   */
  afterPass(device: number, after: DeviceView, step: number, server: ServerFiles): void {
    const before = this.views[device] as DeviceView;
    for (const [path, deleted] of this.#deleted) {
      if (!after.files.has(path)) deleted.gone.add(device);
      if (!after.files.has(path) || !deleted.gone.has(device)) continue;
      this.fail(
        'no delete undone',
        step,
        `d${device}: ${path} is back with ${this.lineage(after.files.get(path) ?? '?')}; d${deleted.device} deleted ${deleted.tag} there at step ${deleted.step} when every device and the remote held it`,
      );
      this.#deleted.delete(path);
    }
    for (const [copy, tag] of after.files) {
      const original = originalOf(copy);
      // A copy's name is unique (a time and a random tag): one seen before under another folder was renamed.
      const name = copy.slice(copy.lastIndexOf('/'));
      if (original === undefined || before.files.has(copy) || this.#copiesSeen.has(name)) continue;
      this.#copiesSeen.add(name);
      const below = (path: string) => path.startsWith(`${original}/`);
      // A binary planted there counts too: no device can take, move or delete it, so its folder keeps the name.
      const folder =
        [...after.files.keys()].some(below) ||
        [...server.binaries.keys()].some(below) ||
        [...server.texts].some(([path, text]) => below(path) && this.#killedBy.get(tagOf(text) ?? '?') !== device);
      const there = after.files.get(original);
      // A copy of a version older than the one at its path is explained by a rename into the path since one of this
      // device's last two passes (another device changed the file the rename brought). Two: the last may have run
      // beside another device's, whose push it did not see.
      const movedFrom = [this.#lastPass[device], this.#passBefore[device]].find((view) =>
        [...(view?.files ?? [])].some(([path, old]) => path !== original && this.isAncestor(old, tag)),
      );
      const movedIn = movedFrom !== undefined;
      const concurrent =
        there !== undefined &&
        there !== tag &&
        !this.isAncestor(there, tag) &&
        (!this.isAncestor(tag, there) || movedIn);
      // A copy of a version newer than the one at its path: this device renamed its version into the path while another
      // device, still holding an older one this device had since superseded, renamed that into the same path and pushed
      // it (since the pass that saw this device's version elsewhere, which did not see it there). That rename is the
      // concurrent change: with no baseline at the path, the pass cannot tell an ancestor from any other text, so the
      // remote's keeps the path.
      const staleRenamedIn =
        there !== undefined &&
        there !== tag &&
        this.isAncestor(there, tag) &&
        this.dead.has(there) &&
        movedFrom !== undefined &&
        !this.isAncestor(movedFrom.files.get(original) ?? '', tag);
      if (folder || concurrent || staleRenamedIn) continue;
      if (there === undefined && !after.folders.has(original) && this.tolerateCopyBesideNothing) continue;
      const what =
        there === undefined
          ? after.folders.has(original)
            ? `an empty folder ${original}`
            : `nothing at ${original}`
          : `${this.lineage(there)} at ${original}`;
      this.fail('no unexplained conflict copy', step, `d${device}: copy ${copy} holds ${this.lineage(tag)}, beside ${what}: no concurrent change`);
    }
    this.#notePaths(before, after, false);
    this.#checkTags(device, after, step);
    this.views[device] = after;
    this.#passBefore[device] = this.#lastPass[device];
    this.#lastPass[device] = after;
  }

  #checkTags(device: number, view: DeviceView, step: number): void {
    for (const [path, tag] of view.files) {
      if (!this.versions.has(tag)) this.fail('only storm texts', step, `d${device}: ${path} holds a text the storm never wrote (${tag})`);
    }
  }

  /**
   * The end: every device equals the remote (leaving out texts over the remote's limit, which it cannot hold), every
   * live version is somewhere, no deleted path is back, and the planted binaries are as planted.
   */
  finalChecks(step: number, texts: Map<string, string>[], server: ServerFiles, limit: number, planted: Map<string, Uint8Array>): void {
    const fits = (map: Map<string, string>) =>
      new Map([...map].filter(([, text]) => new TextEncoder().encode(text).length <= limit).sort(([a], [b]) => (a < b ? -1 : 1)));
    texts.forEach((mine, device) => {
      // A path where this device keeps a version the remote refused is this device's own until that version changes,
      // and so is the tree around it: a remote file at that path, below it or where one of its folders is cannot come
      // here, nor can what stands here in that file's way go there.
      const refused = [...mine.keys()].filter((path) => !fits(mine).has(path));
      const kept = [...fits(server.texts).keys()].filter((path) => refused.some((own) => clash(path, own)));
      const there = new Map([...fits(server.texts)].filter(([path]) => !kept.includes(path)));
      const here = new Map([...fits(mine)].filter(([path]) => !kept.some((theirs) => clash(path, theirs))));
      const differ = [...new Set([...here.keys(), ...there.keys()])].filter((path) => here.get(path) !== there.get(path));
      if (differ.length === 0) return;
      const shown = differ.slice(0, 6).map((path) => {
        const local = here.get(path);
        const remote = there.get(path);
        return `${path}: here ${local === undefined ? 'none' : tagOf(local)}, remote ${remote === undefined ? 'none' : tagOf(remote)}`;
      });
      this.fail('converged', step, `d${device} differs from the remote at ${differ.length} paths: ${shown.join('; ')}`);
    });
    const present = new Set<string>();
    for (const map of [...texts, server.texts]) for (const text of map.values()) present.add(tagOf(text) ?? '?');
    for (const version of this.versions.values()) {
      if (this.dead.has(version.tag) || present.has(version.tag)) continue;
      // Held at two paths (a rename and a move-aside at once), each instance ended by a command on its own: an edit
      // of one is not a death while the other lives, but once every path it was held at was left knowingly, it was.
      const [held, left] = [this.#heldAt.get(version.tag), this.#leftAt.get(version.tag)];
      if (held !== undefined && [...held].every((path) => left?.has(path))) continue;
      this.fail('nothing lost', step, `${this.lineage(version.tag)} was never superseded or deleted knowingly, and is nowhere`);
    }
    for (const [path, deleted] of this.#deleted) {
      const back = [...texts, server.texts].findIndex((map) => map.has(path));
      if (back >= 0) this.fail('no delete undone', step, `${path} (deleted by d${deleted.device} at step ${deleted.step}) is back ${back < texts.length ? `on d${back}` : 'on the remote'}`);
    }
    for (const [path, bytes] of planted) {
      const kept = server.binaries.get(path);
      if (kept === undefined || Buffer.compare(kept, bytes) !== 0) this.fail('binary kept', step, `the binary ${path} planted on the server is gone or changed`);
    }
  }
}
