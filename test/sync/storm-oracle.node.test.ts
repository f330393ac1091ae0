// The storm's oracle on conflict copies, fed views by hand: the copies a concurrent change or a planted binary explains
// pass, and a copy that nothing explains is still a failure.

import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { StormOracle } from '../helpers/storm-oracle.js';
import type { DeviceView } from '../helpers/storm-oracle.js';
import type { ServerFiles } from '../helpers/storm-remotes.js';

const view = (files: Record<string, string>): DeviceView => ({
  files: new Map(Object.entries(files)),
  sizes: new Map(Object.keys(files).map((path) => [path, 10])),
  folders: new Set(),
});
const server = (texts: Record<string, string>, binaries: string[] = []): ServerFiles => ({
  texts: new Map(Object.entries(texts).map(([path, tag]) => [path, `${tag} storm\n`])),
  binaries: new Map(binaries.map((path) => [path, Buffer.from([0xff, 0xfe])])),
});
const COPY = '/c.conflict-20261205-130125-lxiu.md';

/** Two devices that both hold v000001 at `path` after a pass; then d0 edits it to v000002 and pushes that. */
function editedAndPushed(path: string): StormOracle {
  const oracle = new StormOracle([view({}), view({})]);
  const v1 = oracle.newTag();
  oracle.register({ tag: v1, writer: 'd1', parent: undefined, step: 1, path, bytes: 10 });
  oracle.afterCommand(1, view({ [path]: v1 }), 1, false, () => undefined);
  oracle.afterPass(1, view({ [path]: v1 }), 2, server({}));
  oracle.afterPass(0, view({ [path]: v1 }), 3, server({ [path]: v1 }));
  const v2 = oracle.newTag();
  oracle.register({ tag: v2, writer: 'd0', parent: v1, step: 4, path, bytes: 10 });
  oracle.afterCommand(0, view({ [path]: v2 }), 4, false, () => undefined);
  oracle.afterPass(0, view({ [path]: v2 }), 5, server({ [path]: v1 }));
  return oracle;
}

describe('the storm oracle on conflict copies', () => {
  it('takes a newer copy beside the older version another device renamed into the path since, as this one renamed its own', () => {
    const oracle = editedAndPushed('/a.md');
    oracle.afterCommand(0, view({ '/c.md': 'v000002' }), 6, false, () => undefined);
    // d1 never synced past v000001: it renames that to the same name and pushes it.
    oracle.afterCommand(1, view({ '/c.md': 'v000001' }), 7, false, () => undefined);
    oracle.afterPass(1, view({ '/a.md': 'v000002', '/c.md': 'v000001' }), 8, server({ '/a.md': 'v000002' }));
    oracle.afterPass(0, view({ '/c.md': 'v000001', [COPY]: 'v000002' }), 9, server({ '/a.md': 'v000002', '/c.md': 'v000001' }));
    expect(oracle.failures).toEqual([]);
  });

  it('takes a newer copy beside the older version another device renamed into the path during this device’s last pass', () => {
    const oracle = editedAndPushed('/a.md');
    oracle.afterPass(1, view({ '/a.md': 'v000001' }), 6, server({ '/a.md': 'v000002' }));
    oracle.afterCommand(0, view({ '/c.md': 'v000002' }), 7, false, () => undefined);
    // d1 renames its stale v000001 to the same name; d0's pass beside d1's does not see it and keeps v000002 at /c.md.
    oracle.afterCommand(1, view({ '/c.md': 'v000001' }), 8, false, () => undefined);
    oracle.afterPass(0, view({ '/c.md': 'v000002' }), 9, server({ '/a.md': 'v000002' }));
    oracle.afterPass(1, view({ '/c.md': 'v000001' }), 9, server({ '/a.md': 'v000002' }));
    oracle.afterPass(0, view({ '/c.md': 'v000001', [COPY]: 'v000002' }), 10, server({ '/c.md': 'v000001' }));
    expect(oracle.failures).toEqual([]);
  });

  it('fails a newer copy beside its ancestor where this device had that ancestor at the path itself', () => {
    const oracle = editedAndPushed('/c.md');
    oracle.afterPass(0, view({ '/c.md': 'v000001', [COPY]: 'v000002' }), 6, server({ '/c.md': 'v000002' }));
    expect(oracle.failures.map((failure) => failure.invariant)).toEqual(['no unexplained conflict copy']);
  });

  it('fails a newer copy beside an ancestor that was already at the path at its last pass', () => {
    const oracle = editedAndPushed('/a.md');
    // d0's last pass saw v000001 at /c.md too (a pull of another device's copy), then d0 renamed v000002 over it.
    oracle.afterPass(0, view({ '/a.md': 'v000002', '/c.md': 'v000001' }), 6, server({ '/a.md': 'v000002', '/c.md': 'v000001' }));
    oracle.afterCommand(0, view({ '/c.md': 'v000002' }), 7, false, () => undefined);
    oracle.afterPass(0, view({ '/c.md': 'v000001', [COPY]: 'v000002' }), 8, server({ '/c.md': 'v000001' }));
    expect(oracle.failures.map((failure) => failure.invariant)).toEqual(['no unexplained conflict copy']);
  });

  const fileWhereAFolderHoldsABinary = (binaries: string[]): StormOracle => {
    const oracle = new StormOracle([view({})]);
    const tag = oracle.newTag();
    oracle.register({ tag, writer: 'd0', parent: undefined, step: 1, path: '/notes', bytes: 10 });
    oracle.afterCommand(0, view({ '/notes': tag }), 1, false, () => undefined);
    oracle.afterPass(0, view({ '/notes.conflict-20261205-130231-o45w': tag }), 2, server({}, binaries));
    return oracle;
  };

  it('takes a file moved aside from a folder that holds only a binary no device can take', () => {
    expect(fileWhereAFolderHoldsABinary(['/notes/._a.md']).failures).toEqual([]);
  });

  it('fails a file moved aside from nothing', () => {
    const failures = fileWhereAFolderHoldsABinary(['/other/._a.md']).failures;
    expect(failures.map((failure) => failure.invariant)).toEqual(['no unexplained conflict copy']);
  });
});

describe('the storm oracle at the end, around a text over the remote’s limit', () => {
  const LIMIT = 100;
  const big = (tag: string) => `${tag} ${'x'.repeat(LIMIT)}\n`;
  const small = (tag: string) => `${tag} storm\n`;
  /** One device holding `here`, the remote `there` (texts by path); the oracle knows every tag named. */
  function ended(here: Record<string, string>, there: Record<string, string>) {
    const oracle = new StormOracle([view({})]);
    for (const _ of [...Object.values(here), ...Object.values(there)]) oracle.newTag();
    const remote: ServerFiles = { texts: new Map(Object.entries(there)), binaries: new Map() };
    oracle.finalChecks(9, [new Map(Object.entries(here))], remote, LIMIT, new Map());
    return oracle.failures.filter((failure) => failure.invariant === 'converged');
  }

  it('takes a remote file below, or where a folder is of, the path this device keeps over the limit', () => {
    expect(ended({ '/p/q': big('v000001') }, { '/p/q/r.md': small('v000002') })).toEqual([]);
    expect(ended({ '/p/q/r.md': big('v000001'), '/p/q/s.md': small('v000003') }, { '/p/q': small('v000002') })).toEqual(
      [],
    );
  });

  it('still fails a remote file beside that path that this device lacks', () => {
    expect(ended({ '/p/q': big('v000001') }, { '/p/r.md': small('v000002') })).toHaveLength(1);
  });
});

describe('the storm oracle at the end, on a version held at two paths', () => {
  /** d0 and d1 both hold v000001 at /a.md and /b.md; d0 edits /a.md to v000002; then `d1Ends` ends /b.md on d1. */
  function twoInstances(d1Ends: (oracle: StormOracle) => void): string[] {
    const oracle = new StormOracle([view({}), view({})]);
    const v1 = oracle.newTag();
    oracle.register({ tag: v1, writer: 'd0', parent: undefined, step: 1, path: '/a.md', bytes: 10 });
    for (const device of [0, 1]) oracle.afterPass(device, view({ '/a.md': v1, '/b.md': v1 }), 2, server({}));
    const v2 = oracle.newTag();
    oracle.register({ tag: v2, writer: 'd0', parent: v1, step: 3, path: '/a.md', bytes: 10 });
    oracle.afterCommand(0, view({ '/a.md': v2, '/b.md': v1 }), 3, false, () => undefined);
    d1Ends(oracle);
    return oracle.failures.filter((failure) => failure.invariant === 'nothing lost').map((failure) => failure.detail);
  }
  const end = (oracle: StormOracle, device: number, files: Record<string, string>) => {
    for (const d of [0, 1]) if (d !== device) oracle.afterPass(d, view(files), 6, server(files));
    oracle.afterPass(device, view(files), 6, server(files));
    oracle.finalChecks(7, [0, 1].map(() => new Map(Object.entries(files).map(([p, t]) => [p, `${t} storm\n`]))), server(files), 1000, new Map());
  };

  it('takes it as superseded once a command on each device ended it at each path', () => {
    const failures = twoInstances((oracle) => {
      const v3 = oracle.newTag();
      oracle.register({ tag: v3, writer: 'd1', parent: 'v000001', step: 4, path: '/b.md', bytes: 10 });
      // d1 still holds v000001 at /a.md (not pulled yet) when it edits /b.md.
      oracle.afterCommand(1, view({ '/a.md': 'v000001', '/b.md': v3 }), 4, false, () => undefined);
      end(oracle, 1, { '/a.md': 'v000002', '/b.md': v3 });
    });
    expect(failures).toEqual([]);
  });

  it('fails it when a pass alone took it from one of its paths', () => {
    const failures = twoInstances((oracle) => end(oracle, 1, { '/a.md': 'v000002' }));
    expect(failures).toHaveLength(1);
  });
});

describe('the storm oracle on deletes', () => {
  /** d0 and d1 hold v000001 at /a.md, and so does the remote; d1 then `gets` it at /b.md and deletes it there. */
  function deletedAtB(gets: 'by a pass' | 'by its own rename'): string[] {
    const oracle = new StormOracle([view({}), view({})]);
    const v1 = oracle.newTag();
    oracle.register({ tag: v1, writer: 'd0', parent: undefined, step: 1, path: '/a.md', bytes: 10 });
    const at = gets === 'by a pass' ? '/b.md' : '/a.md';
    oracle.afterPass(0, view({ '/b.md': v1 }), 2, server({ '/b.md': v1 }));
    oracle.afterPass(1, view({ [at]: v1 }), 2, server({ '/b.md': v1 }));
    if (gets === 'by its own rename') oracle.afterCommand(1, view({ '/b.md': v1 }), 3, false, () => v1);
    oracle.afterCommand(1, view({}), 4, true, () => v1);
    // Its next pass brings /b.md back.
    oracle.afterPass(1, view({ '/b.md': v1 }), 5, server({ '/b.md': v1 }));
    return oracle.failures.map((failure) => failure.invariant);
  }

  it('fails a delete undone where the deleting device had synced the path', () => {
    expect(deletedAtB('by a pass')).toEqual(['no delete undone']);
  });

  it('takes a path back where the deleting device had renamed the file in since its last pass (no baseline there)', () => {
    expect(deletedAtB('by its own rename')).toEqual([]);
  });
});
