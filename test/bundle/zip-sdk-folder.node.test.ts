// Moving from the official Node tool: the SDK's BetaLocalFilesystemMemoryTool writes a memory into a temp folder
// (`<base>/memories/...`: nested and non-ASCII names, edits, a rename that leaves an empty folder, a delete), the
// folder is zipped the ways a person would (the system zip of <base> itself, of its memories/ folder, and fflate from
// a script), and each zip imports to the same files, byte for byte, the same folders, and the files' times.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { BetaLocalFilesystemMemoryTool } from '@anthropic-ai/sdk/tools/memory/node';
import { zipSync } from 'fflate';
import type { Zippable } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleTools } from './tools.js';

const ZIP = '/usr/bin/zip';
const { freshTool } = bundleTools();
let base = '';

interface OnDisk {
  path: string;
  kind: 'file' | 'folder';
  bytes?: Uint8Array;
  modified: number;
}

/** The Node tool's memory as files: `/memories/...` keys, each file's bytes and modification time. */
async function readFolder(dir: string, prefix = '/memories'): Promise<OnDisk[]> {
  const out: OnDisk[] = [];
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const path = `${prefix}/${entry.name}`;
    const info = await stat(join(dir, path));
    if (entry.isDirectory()) {
      out.push({ path, kind: 'folder', modified: info.mtimeMs }, ...(await readFolder(dir, path)));
    } else {
      out.push({ path, kind: 'file', bytes: new Uint8Array(await readFile(join(dir, path))), modified: info.mtimeMs });
    }
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'memory-node-tool-'));
  const sdk = await BetaLocalFilesystemMemoryTool.init(base);
  await sdk.create({ command: 'create', path: '/memories/notes.md', file_text: '# Notes\n- first\n' });
  await sdk.insert({ command: 'insert', path: '/memories/notes.md', insert_line: 2, insert_text: '- second' });
  await sdk.create({ command: 'create', path: '/memories/projects/app/todo.md', file_text: 'ship: no\r\n' });
  await sdk.str_replace({ command: 'str_replace', path: '/memories/projects/app/todo.md', old_str: 'no', new_str: 'yes' });
  await sdk.create({ command: 'create', path: '/memories/日本語/ノート 1.md', file_text: 'こんにちは 👋🏽\n' });
  await sdk.create({ command: 'create', path: '/memories/café.md', file_text: '' });
  await sdk.create({ command: 'create', path: '/memories/.hidden/prefs.md', file_text: 'dark\n' });
  await sdk.create({ command: 'create', path: '/memories/old/moved.md', file_text: 'moved\n' });
  await sdk.rename({ command: 'rename', old_path: '/memories/old/moved.md', new_path: '/memories/new/moved.md' });
  await sdk.create({ command: 'create', path: '/memories/gone.md', file_text: 'gone\n' });
  await sdk.delete({ command: 'delete', path: '/memories/gone.md' });
});

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

const zips: Record<string, { skip: boolean; make: () => Promise<Blob> }> = {
  // `zip -r memory.zip <base>` from its parent: every entry under `<base>/`.
  [`the system zip of <base> (skipped without ${ZIP})`]: {
    skip: !existsSync(ZIP),
    make: async () => zipWithCommand(dirname(base), basename(base)),
  },
  [`the system zip of <base>/memories (skipped without ${ZIP})`]: {
    skip: !existsSync(ZIP),
    make: async () => zipWithCommand(base, 'memories'),
  },
  'fflate zipSync of the folder, from a script': {
    skip: false,
    make: async () => {
      const tree: Zippable = {};
      for (const item of await readFolder(base)) {
        const name = item.path.slice(1) + (item.kind === 'folder' ? '/' : '');
        tree[name] = [item.bytes ?? new Uint8Array(0), { mtime: item.modified }];
      }
      return new Blob([zipSync(tree)]);
    },
  },
};

async function zipWithCommand(cwd: string, what: string): Promise<Blob> {
  const out = join(await mkdtemp(join(tmpdir(), 'memory-node-zip-')), 'memory.zip');
  try {
    execFileSync(ZIP, ['-q', '-r', out, what], { cwd });
    return new Blob([new Uint8Array(await readFile(out))]);
  } finally {
    await rm(dirname(out), { recursive: true, force: true });
  }
}

describe('a zip of the official Node tool\'s folder imports to the same memory', () => {
  for (const [name, { skip, make }] of Object.entries(zips)) {
    it.skipIf(skip)(`from ${name}`, async () => {
      const onDisk = await readFolder(base);
      expect(onDisk.map((item) => item.path)).toContain('/memories/old');
      const tool = await freshTool();
      const report = await tool.importBundle(await make());
      expect(report.added).toBe(onDisk.filter((item) => item.kind === 'file').length);
      const imported = await tool.list();
      expect(imported.map((entry) => [entry.path, entry.kind])).toEqual(onDisk.map((item) => [item.path, item.kind]));
      for (const item of onDisk) {
        if (item.kind !== 'file') continue;
        const text = await tool.read(item.path);
        expect(Buffer.compare(new TextEncoder().encode(text), item.bytes ?? new Uint8Array(0)), item.path).toBe(0);
        const entry = imported.find((e) => e.path === item.path);
        // The system zip keeps the time to the second (UTC); fflate's MS-DOS fields to two seconds.
        expect(Math.abs((entry?.updatedAt.getTime() ?? 0) - item.modified), item.path).toBeLessThan(2000);
      }
    });
  }
});
