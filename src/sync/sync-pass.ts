// One sync pass of a mount: list the remote once, read the local side once, merge each path three ways, then carry
// the result out in an order that never strands a file: moves and deletes there, everything here in one
// transaction, then the writes there (./README.md, "A pass").

import { sha256All } from '../bundle/sha256.js';
import type { ToolInternals } from '../tool/internals.js';
import type { BaselineUpdate } from './baseline.js';
import { conflictName } from './conflict-names.js';
import { pushing } from './forget-gate.js';
import { isMarked } from './forget-marks.js';
import { carryForgets } from './forget-pass.js';
import { applyLocal } from './local-apply.js';
import type { LocalStep } from './local-apply.js';
import { readLocal, readTexts } from './local-files.js';
import { holdMassDeletes } from './delete-guard.js';
import { settle } from './merge-plan.js';
import { removeEmptiedFolders, removeEmptyFolders } from './empty-folders.js';
import { eachLimited } from './pool.js';
import { streamPulls, streamable } from './pull-stream.js';
import type { RemoteFile, SyncRemote } from './remote.js';
import { movingRemote, refusable } from './remote-calls.js';
import { remoteReads } from './remote-reads.js';
import type { SkipFile } from './remote-calls.js';
import { leaveAlone, listedSkip, splitListing } from './left-alone.js';
import { aboveIsFile, agreedAfter, findRenames, foldersAbove, foldersKept } from './renames.js';
import type { Pull, RemoteMove } from './renames.js';
import { remoteRefusal } from './remote-limits.js';
import { emptyReport } from './sync-report.js';
import type { SyncReport } from './sync-report.js';
import { sortThreeWays } from './three-way.js';
import type { Compare, Push } from './three-way.js';

export interface PassSettings {
  tool: ToolInternals;
  remote: SyncRemote;
  /** The local folder the remote's root maps to, a normalized key. */
  mountFolder: string;
  /** Names the baseline: the remote and the folder. */
  mountKey: string;
  /** Folders below the mount that other mounts own. */
  excluded: readonly string[];
  confirmDeletes: boolean;
  /** Deletes in one direction are held when more than `min` and more than `share` of the synced files. */
  deleteGuard: { min: number; share: number };
  signal: AbortSignal;
}

/** Runs one pass; throws a SyncRemoteError of a retryable kind (or `auth`, `aborted`) after saving what it agreed. */
export async function runPass(settings: PassSettings): Promise<SyncReport> {
  const { tool, remote, mountFolder, signal } = settings;
  const report = emptyReport();
  const shown = (path: string): string => mountFolder + path;
  const updates: BaselineUpdate[] = [];
  const localSteps: LocalStep[] = [];
  const pushes: Push[] = [];
  const pulls: Pull[] = [];
  const skip: SkipFile = (path, why, everyPass = false) => {
    report.skipped.push(listedSkip(shown(path), why));
    if (!everyPass) updates.push({ path, skip: why });
  };

  signal.throwIfAborted();
  // Side by side: the local read (one transaction) while the listing's pages arrive.
  const [listedAll, read] = await Promise.all([
    remote.list({ signal }),
    readLocal(tool.store, mountFolder, settings.mountKey, settings.excluded),
  ]);
  // Forgets first, both ways (./forget-pass.ts): the merge never sees a forgotten file nor the record of forgets.
  const { listing, local } = await carryForgets(settings, listedAll, read);
  const { files: remoteFiles, refused } = splitListing(listing);
  /** The remote version a refusal was made against, so a change there is tried again. */
  const seenThere = (path: string): { remoteVersion?: string } => {
    const version = remoteFiles.get(path)?.version;
    return version === undefined ? {} : { remoteVersion: version };
  };
  const remoteFolders = foldersAbove(remoteFiles.keys());
  const localFolders = new Set([...local.folders, ...foldersAbove(local.files.keys())]);
  // In a file/folder clash, only folders that keep a file count: an empty one here, or one holding only files this
  // pass deletes (deleted on the other side, unchanged on this one), gives its name to the file.
  const keptHere = foldersKept(local.files, (path, file) => local.synced.get(path)?.local === file.bodyId && !remoteFiles.has(path));
  const keptThere = foldersKept(remoteFiles, (path, file) => local.synced.get(path)?.remote.version === file.version && !local.files.has(path));
  const { alone: handled, listed } = leaveAlone(refused, local, remoteFiles, tool.limits.maxFileBytes);
  report.skipped.push(...listed.map((left) => ({ ...left, path: shown(left.path) })));
  const remoteMoves: RemoteMove[] = [];

  // A rename is carried as a move only where its new path is free of the other side's folders and files; one that
  // lands on a file/folder collision goes the long way (a delete and a new file), so the collision rules below apply.
  const freeThere = (path: string): boolean => !remoteFolders.has(path) && !aboveIsFile(path, remoteFiles);
  const freeHere = (path: string): boolean => !localFolders.has(path) && !aboveIsFile(path, local.files);
  const renamedAlike = findRenames(local, remoteFiles, remote, handled, remoteMoves, localSteps, pulls, freeThere, freeHere);

  // A file on one side where the other has a folder: the folder keeps the name, the file moves aside.
  for (const [path, file] of local.files) {
    if (handled.has(path) || !keptThere.has(path)) continue;
    const base = local.synced.get(path);
    if (base && base.local === file.bodyId) continue; // deleted there, unchanged here: an ordinary delete below
    const aside = conflictName(path, new Date());
    handled.add(path);
    localSteps.push({ op: 'move', from: path, to: aside, expect: file.bodyId });
    pushes.push({ path: aside, bodyId: file.bodyId, expected: null });
    report.conflicts.push(shown(path));
  }
  const movedAside: { path: string; remote: RemoteFile }[] = [];
  for (const [path, file] of remoteFiles) {
    if (handled.has(path) || !keptHere.has(path)) continue;
    const base = local.synced.get(path);
    if (base && base.remote.version === file.version) continue; // deleted here, unchanged there
    handled.add(path);
    remoteMoves.push({ from: path, to: conflictName(path, new Date()), expected: file });
    report.conflicts.push(shown(path));
  }

  // Every other path, three ways.
  const { compares, remoteDeletes, localDeletes } = sortThreeWays(
    { synced: local.synced, here: local.files, there: remoteFiles, handled },
    pushes,
    pulls,
    updates,
  );

  // The mass-deletion guard, each direction apart: a wiped remote or a wiped memory is held, not mirrored.
  const held = holdMassDeletes(settings.deleteGuard, settings.confirmDeletes, local.synced.size, { remote: remoteDeletes, local: localDeletes });
  report.held.push(...held.map((gone) => ({ ...gone, path: shown(gone.path) })));

  const freed: string[] = []; // the remote paths the moves and deletes below free
  const save = (): Promise<unknown> => applyLocal(tool, mountFolder, settings.mountKey, [], updates.splice(0));
  try {
    // 1. There: empty folders, moves and deletes first, so the paths they free can be written.
    await removeEmptyFolders(remote, local.files, signal);
    await eachLimited(
      [...remoteMoves.map((move) => ({ move })), ...remoteDeletes.map((gone) => ({ gone }))],
      remote.concurrency,
      async (job) => {
        if ('move' in job) {
          const { move } = job;
          // A refused move is listed and tried each pass: remembered, its skip would take the place of from's baseline.
          const moved = await refusable(() => movingRemote(remote, move.expected, move.to, signal), move.from, (path, why) =>
            skip(path, why, true),
          );
          if (!moved) return;
          freed.push(move.from);
          updates.push({ path: move.from, clear: true });
          if (move.bodyId !== undefined && move.base) {
            updates.push({ path: move.to, base: agreedAfter(move, move.bodyId, move.base, moved) });
            report.pushed.push(shown(move.to));
          } else {
            movedAside.push({ path: move.to, remote: moved });
          }
        } else {
          const { gone } = job;
          const done = await refusable(() => remote.delete(gone.expected, { signal }).then(() => true), gone.path, skip);
          if (!done) return;
          freed.push(gone.path);
          updates.push({ path: gone.path, clear: true });
          report.deleted.push(shown(gone.path));
        }
      },
      signal,
    );
    // A folder they emptied where a file of its name is pushed goes now (WebDAV keeps it), so the push can land.
    const arrived = remoteMoves.map((move) => move.to);
    await removeEmptiedFolders(remote, { freed, listed: remoteFiles.keys(), arrived, pushed: pushes.map((push) => push.path) }, signal);
    for (const aside of movedAside) pulls.push({ path: aside.path, remote: aside.remote, expectLocal: null, base: undefined });

    // 2. Reads: the local texts the compares and pushes need, and the remote texts to bring here.
    const needed = [...compares.map((c) => c.local.bodyId), ...pushes.map((p) => p.bodyId)];
    const texts = await readTexts(tool.store, [...new Set(needed.filter((id) => id !== 0))]);
    const textOf = (bodyId: number): string | undefined => (bodyId === 0 ? '' : texts.get(bodyId));
    const localShas = await hashes(compares.map((c) => textOf(c.local.bodyId)));
    const { fetched, readAll } = remoteReads(remote, skip, signal);
    const fetchable = compares.filter((c) => c.remote.sha256 === undefined).map((c) => c.remote);
    // A big pull streams: the files new here are written in batches as they arrive, ahead of the rest (./pull-stream.ts).
    const deletesHere = localDeletes.map((gone): LocalStep => ({ op: 'delete', ...gone }));
    const streaming = new Set(streamable(pulls, local, [...localSteps, ...deletesHere]));
    if (streaming.size > 0) {
      pulls.splice(0, pulls.length, ...pulls.filter((pull) => !streaming.has(pull)));
      const streamed = await streamPulls({ tool, remote, mountFolder, mountKey: settings.mountKey, signal }, [...streaming], skip);
      report.pulled.push(...streamed.pulled.map(shown));
      for (const refused of streamed.refused) report.skipped.push({ path: shown(refused.path), reason: refused.reason, refusedBy: 'local' });
    }
    await readAll([...fetchable, ...pulls.map((p) => p.remote)]);
    // Conflict copies land with the pulls they stand beside, and only with them (both or neither).
    const asides = new Map<string, { path: string; text: string }>();
    const localSha = new Map(compares.map((c, i) => [c.path, localShas[i]]));
    // Where the texts this pass read there are, by hash: a rename's borrowed baseline needs to know its file is not
    // elsewhere there (./renames.ts).
    const readThere = new Map<string, string[]>();
    const pathsOf = (sha: string) => readThere.get(sha) ?? [];
    // A listed hash settles a compare when it says the texts agree or only this side changed; a pull or a conflict
    // is settled again from the text itself, so a hash a remote lists wrongly never makes a copy or a write here.
    const settleCompares = async (list: readonly Compare[], listed: boolean): Promise<Compare[]> => {
      const read = await hashes(list.map((c) => fetched.get(c.path)?.text));
      for (const [i, c] of list.entries()) {
        const sha = read[i];
        if (sha !== undefined) readThere.set(sha, [...pathsOf(sha), c.path]);
      }
      const unsure: Compare[] = [];
      for (const [i, c] of list.entries()) {
        const here = localSha.get(c.path);
        const there = read[i] ?? (listed ? c.remote.sha256 : undefined);
        if (here === undefined || there === undefined) continue; // changed, gone or unreadable: next pass
        const base = c.base ?? renamedAlike(c.path, c.local.bodyId, c.remote, there, pathsOf);
        const outcome = settle(base, here, there);
        if ((outcome === 'pull' || outcome === 'conflict') && read[i] === undefined) {
          unsure.push(c);
          continue;
        }
        // The remote version the compared text stands for: a push goes over it.
        const seen = fetched.get(c.path)?.file ?? c.remote;
        if (outcome === 'equal') {
          updates.push({ path: c.path, base: { local: c.local.bodyId, sha256: here, remote: seen } });
        } else if (outcome === 'push') {
          pushes.push({ path: c.path, bodyId: c.local.bodyId, expected: seen });
        } else {
          pulls.push({ path: c.path, remote: seen, expectLocal: c.local.bodyId, base: c.base });
          const text = textOf(c.local.bodyId);
          // Nothing is lost: this memory's version stays beside the remote's, and goes to the remote as a new file.
          if (outcome === 'conflict' && text !== undefined) asides.set(c.path, { path: conflictName(c.path, new Date()), text });
        }
      }
      return unsure;
    };
    const unsure = await settleCompares(compares, true);
    await readAll(unsure.map((c) => c.remote));
    await settleCompares(unsure, false);
    const pulled = pulls.filter((p) => fetched.has(p.path));
    const pulledShas = await hashes(pulled.map((p) => fetched.get(p.path)?.text));
    for (const [i, pull] of pulled.entries()) {
      const read = fetched.get(pull.path);
      const sha256 = pulledShas[i];
      if (!read || sha256 === undefined) continue;
      if (pull.base && pull.expectLocal === pull.base.local && sha256 === pull.base.sha256) {
        updates.push({ path: pull.path, base: { ...pull.base, remote: read.file } });
        continue;
      }
      const aside = asides.get(pull.path);
      const write: LocalStep = { op: 'write', path: pull.path, text: read.text, expect: pull.expectLocal, agreed: { sha256, remote: read.file } };
      // A folder here gives way only where no other mount's folder lies in it.
      const yields = local.folders.has(pull.path) && !settings.excluded.some((m) => m.startsWith(mountFolder + pull.path + '/'));
      localSteps.push({ ...write, ...(aside ? { aside } : {}), ...(yields ? { overFolder: true } : {}) });
    }
    for (const gone of localDeletes) localSteps.push({ op: 'delete', path: gone.path, expect: gone.expect });

    // 3. Here: one transaction, one journaled change by `sync`.
    const applied = await applyLocal(tool, mountFolder, settings.mountKey, localSteps, updates.splice(0));
    const appliedSet = new Set(applied.applied);
    for (const step of localSteps) {
      if (step.op === 'delete' && appliedSet.has(step.path)) report.deleted.push(shown(step.path));
      if (step.op === 'write' && step.agreed && appliedSet.has(step.path)) report.pulled.push(shown(step.path));
      if (step.op === 'move' && step.agreed && appliedSet.has(step.to)) report.pulled.push(shown(step.to));
      // A conflict copy made here goes there too.
      if (step.op === 'write' && step.aside && appliedSet.has(step.aside.path)) {
        pushes.push({ path: step.aside.path, bodyId: applied.bodies.get(step.aside.path) ?? 0, expected: null });
        report.conflicts.push(shown(step.path));
      }
    }
    for (const refused of applied.refused) {
      report.skipped.push({ path: shown(refused.path), reason: refused.reason, refusedBy: 'local' });
    }

    // 4. There: the writes, each only over what was last seen.
    const pushTexts = await readTexts(tool.store, [...new Set(pushes.map((p) => p.bodyId).filter((id) => id !== 0))]);
    let count = remoteFiles.size;
    await eachLimited(pushes, remote.concurrency, async (push) => {
      const text = push.bodyId === 0 ? '' : pushTexts.get(push.bodyId);
      if (text === undefined) return; // changed here meanwhile: the next pass sends the new text
      const refusal = remoteRefusal(remote.limits, push.path, text, push.expected === null ? ++count : count);
      if (refusal) {
        skip(push.path, { path: push.path, reason: refusal, refusedBy: 'remote', local: push.bodyId, ...seenThere(push.path) });
        return;
      }
      // Forgotten since the pass read it: never sent (./README.md, "Forgetting").
      if (await isMarked(tool.store, settings.mountKey, push.path)) return;
      const send = (): Promise<RemoteFile> => remote.write(push.path, text, push.expected, { signal });
      const written = await refusable(() => pushing(tool.store.dbName, mountFolder + push.path, send), push.path, (path, why, everyPass) =>
        skip(path, { ...why, local: push.bodyId, ...seenThere(path) }, everyPass),
      );
      if (!written) return;
      const [sha256] = await hashes([text]);
      if (sha256 === undefined) return;
      updates.push({ path: push.path, base: { local: push.bodyId, sha256, remote: written } });
      report.pushed.push(shown(push.path));
    }, signal);
  } finally {
    // What was agreed before a failure is kept, so the next pass does not redo it.
    if (updates.length > 0) await save();
  }
  return report;
}

const hashes = (texts: readonly (string | undefined)[]): Promise<(string | undefined)[]> => sha256All(texts, () => undefined);

