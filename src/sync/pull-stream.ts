// A big pull streamed (./README.md, "A big pull"): the files new here read at the remote's concurrency and written in
// bounded batches as they arrive, each batch one journaled transaction with its baseline, so a first pull of any size
// holds a few batches of texts at once, and one cut short leaves only whole files, each with its baseline.

import { sha256All } from '../bundle/sha256.js';
import { applyLocal } from './local-apply.js';
import type { LocalStep } from './local-apply.js';
import type { LocalSnapshot } from './local-files.js';
import { eachLimited } from './pool.js';
import type { RemoteFile, SyncRemote } from './remote.js';
import { refusable } from './remote-calls.js';
import type { SkipFile } from './remote-calls.js';
import { readSkipping } from './remote-reads.js';
import { aboveIsFile, foldersAbove } from './renames.js';
import type { Pull } from './renames.js';

/** A batch is written once it holds this many files or bytes (UTF-16 code units, the texts' own measure). */
export const STREAM_BATCH = { files: 128, chars: 1 << 20 } as const;

/** Where the pass writes: the tool, the mount, and how it reads. */
export interface StreamTarget {
  tool: Parameters<typeof applyLocal>[0];
  remote: SyncRemote;
  mountFolder: string;
  mountKey: string;
  signal: AbortSignal;
}

export interface Streamed {
  /** Paths (the remote's) written here. */
  pulled: string[];
  /** Writes the memory refused, with the reason. */
  refused: { path: string; reason: string }[];
}

/**
 * The pulls that may go ahead of the pass's one transaction: new here (no file, no folder, no file above it, no
 * baseline) and clear of every other step here, so writing them first changes no outcome. Empty unless there are
 * more than one batch of them: a small pass stays one journaled change.
 */
export function streamable(pulls: readonly Pull[], local: LocalSnapshot, steps: readonly LocalStep[]): Pull[] {
  const touched = new Set<string>();
  for (const step of steps) {
    if (step.op === 'move') touched.add(step.from).add(step.to);
    else touched.add(step.path);
    if (step.op === 'write' && step.aside) touched.add(step.aside.path);
  }
  const aboveTouched = foldersAbove(touched);
  const clear = (pull: Pull): boolean =>
    pull.expectLocal === null &&
    pull.base === undefined &&
    !local.files.has(pull.path) &&
    !local.folders.has(pull.path) &&
    !local.synced.has(pull.path) &&
    !aboveIsFile(pull.path, local.files) &&
    !touched.has(pull.path) &&
    !aboveTouched.has(pull.path) &&
    ![...foldersAbove([pull.path])].some((folder) => touched.has(folder));
  const found = pulls.filter(clear);
  return found.length > STREAM_BATCH.files ? found : [];
}

/** The groups `readMany` reads together: a folder's files at a time, up to `most`. */
function unitsOf(files: readonly RemoteFile[], most: number): RemoteFile[][] {
  const byFolder = new Map<string, RemoteFile[]>();
  for (const file of files) {
    const folder = file.path.slice(0, file.path.lastIndexOf('/'));
    const group = byFolder.get(folder);
    if (group) group.push(file);
    else byFolder.set(folder, [file]);
  }
  const units: RemoteFile[][] = [];
  let unit: RemoteFile[] = [];
  for (const group of byFolder.values()) {
    for (let at = 0; at < group.length; at += most) {
      const part = group.slice(at, at + most);
      if (unit.length + part.length > most) {
        units.push(unit);
        unit = [];
      }
      unit.push(...part);
    }
  }
  if (unit.length > 0) units.push(unit);
  return units;
}

/**
 * Reads `pulls` and writes them here in batches; at most `concurrency × STREAM_BATCH.files` texts read and not yet
 * written at any time. A failure stops it after writing what was read (whole files only) and is thrown.
 */
export async function streamPulls(target: StreamTarget, pulls: readonly Pull[], skip: SkipFile): Promise<Streamed> {
  const { remote, signal } = target;
  const out: Streamed = { pulled: [], refused: [] };
  const window = Math.max(1, remote.concurrency) * STREAM_BATCH.files;
  const bulk = remote.readMany;
  const files = pulls.map((pull) => pull.remote);
  let batch: { path: string; file: RemoteFile; text: string }[] = [];
  let chars = 0;
  let held = 0; // read, not yet written (in `batch` or being written)
  let writing: Promise<void> = Promise.resolve();
  let writes = 0; // batches handed to `writing` and not yet written
  let failed: unknown;
  const write = (taken: typeof batch): Promise<void> => {
    writes++;
    return (writing = writing.then(async () => {
      try {
        // After a failure nothing more is written: the next pass reads the rest again.
        if (failed !== undefined) return;
        const shas = await sha256All(taken.map((read) => read.text), () => undefined);
        const steps: LocalStep[] = [];
        taken.forEach((read, i) => {
          const sha256 = shas[i];
          if (sha256 !== undefined) steps.push({ op: 'write', path: read.path, text: read.text, expect: null, agreed: { sha256, remote: read.file } });
        });
        const applied = await applyLocal(target.tool, target.mountFolder, target.mountKey, steps, []);
        out.pulled.push(...applied.applied);
        out.refused.push(...applied.refused);
      } catch (error) {
        failed ??= error;
      } finally {
        held -= taken.length;
        writes--;
      }
    }));
  };
  const flush = (): Promise<void> => {
    const taken = batch;
    batch = [];
    chars = 0;
    return taken.length > 0 ? write(taken) : writing;
  };
  const arrived = (path: string, read: { file: RemoteFile; text: string }): void => {
    batch.push({ path, ...read });
    chars += read.text.length;
    if (batch.length >= STREAM_BATCH.files || chars >= STREAM_BATCH.chars) void flush();
  };
  /** Waits until `n` more texts fit in the window (always, once nothing is held). */
  const room = async (n: number): Promise<void> => {
    while (held > 0 && held + n > window && (batch.length > 0 || writes > 0) && failed === undefined) {
      if (batch.length > 0) void flush();
      await writing;
    }
    if (failed !== undefined) throw failed;
    held += n;
  };
  const readOne = async (file: RemoteFile): Promise<void> => {
    const read = await readSkipping(remote, file, skip, signal);
    if (read) arrived(file.path, read);
    else held--;
  };

  try {
    if (bulk === undefined) {
      // One file a read: the pool takes the files themselves (a one-file array each would be 10,000 on a big pull).
      await eachLimited(
        files,
        remote.concurrency,
        async (file) => {
          await room(1);
          await readOne(file);
        },
        signal,
      );
    } else {
      // A unit is half the window and two are read at once (a few folders each, the remote's concurrency in all),
      // the window still holding them: the next is read while the one before is written.
      const units = unitsOf(files, Math.max(1, Math.floor(window / 2)));
      await eachLimited(
        units,
        2,
        async (unit) => {
          await room(unit.length);
          // One file it cannot send fails no other: those it left out are read on their own.
          const many = await refusable(() => bulk.call(remote, unit, { signal }), '', () => undefined);
          const left: RemoteFile[] = [];
          for (const file of unit) {
            const read = many?.get(file.path);
            if (read) arrived(file.path, read);
            else left.push(file);
          }
          await eachLimited(left, remote.concurrency, readOne, signal);
        },
        signal,
      );
    }
  } finally {
    await flush();
  }
  if (failed !== undefined) throw failed;
  return out;
}
