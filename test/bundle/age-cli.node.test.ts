// Encrypted bundles and the system age (Debian's /usr/bin/age): exports it decrypts, with the passphrase typed on a
// pseudo-terminal (`script`, as age reads a passphrase from the tty only) or with an identity file, to the plain bundle
// exported at the same moment, byte for byte; and files age encrypted imported here. Node only: it runs programs.

import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IndexedDBMemoryTool } from '../../src/tool/tool.js';
import { bytesOf } from './age-files.js';
import { EXPORTED_AT, bundleTools, snapshot, write } from './tools.js';

const AGE = '/usr/bin/age';
const PASSPHRASE = 'tidy-otter-lamp-quartz';
const { freshTool } = bundleTools();
const cleanups: string[] = [];
afterEach(async () => {
  for (const dir of cleanups.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'age-bundle-'));
  cleanups.push(dir);
  return dir;
}

async function filled(): Promise<IndexedDBMemoryTool> {
  const tool = await freshTool();
  await write(tool, '/memories/notes/plan.md', 'Plan: ship encrypted bundles.\n');
  await write(tool, '/memories/prefs.md', 'Prefers short answers. ünïcödé ✓\n');
  return tool;
}

/** `age` run with `args` on a pseudo-terminal, `typed` written to it as a person would type (one line per prompt). */
function ageOnTty(args: string[], typed: string[]): void {
  const command = [AGE, ...args].map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ');
  execFileSync('script', ['-qec', command, '/dev/null'], { input: typed.map((line) => `${line}\n`).join(''), stdio: ['pipe', 'ignore', 'pipe'] });
}

describe('the system age', () => {
  it('decrypts a passphrase export to the plain bundle of the same moment, byte for byte (JSON)', async () => {
    const tool = await filled();
    const dir = await tempDir();
    const age = await tool.exportBundle({ passphrase: PASSPHRASE, exportedAt: EXPORTED_AT });
    await writeFile(join(dir, 'bundle.age'), await bytesOf(age));
    ageOnTty(['-d', '-o', join(dir, 'bundle.json'), join(dir, 'bundle.age')], [PASSPHRASE]);
    const plain = await bytesOf(await tool.exportBundle({ exportedAt: EXPORTED_AT }));
    expect(new Uint8Array(await readFile(join(dir, 'bundle.json')))).toEqual(plain);
  });

  it('decrypts a recipient export with age -d -i and the key file age-keygen wrote, JSON and zip', async () => {
    const tool = await filled();
    const dir = await tempDir();
    const keyFile = join(dir, 'key.txt');
    execFileSync('age-keygen', ['-o', keyFile], { stdio: 'ignore' });
    const recipient = execFileSync('age-keygen', ['-y', keyFile], { encoding: 'utf8' }).trim();
    for (const format of ['json', 'zip'] as const) {
      const age = await tool.exportBundle({ format, recipients: [recipient], exportedAt: EXPORTED_AT });
      const out = execFileSync(AGE, ['-d', '-i', keyFile], { input: await bytesOf(age) });
      expect(new Uint8Array(out)).toEqual(await bytesOf(await tool.exportBundle({ format, exportedAt: EXPORTED_AT })));
    }
  });

  it('encrypts a bundle with -r (binary and armored) that imports here with the identity file', async () => {
    const source = await filled();
    const dir = await tempDir();
    const keyFile = join(dir, 'key.txt');
    execFileSync('age-keygen', ['-o', keyFile], { stdio: 'ignore' });
    const recipient = execFileSync('age-keygen', ['-y', keyFile], { encoding: 'utf8' }).trim();
    const plain = await bytesOf(await source.exportBundle({ format: 'zip', exportedAt: EXPORTED_AT }));
    const identity = await readFile(keyFile, 'utf8');
    expect(identity).toMatch(/^# created: /u);
    for (const armor of [[], ['-a']]) {
      const age = execFileSync(AGE, ['-r', recipient, ...armor], { input: plain });
      const tool = await freshTool();
      expect((await tool.importBundle(new Uint8Array(age), { identity })).added).toBe(2);
      expect(await tool.view({ command: 'view', path: '/memories/prefs.md' })).toContain('ünïcödé ✓');
    }
  });

  it('encrypts a bundle with -p (scrypt 2^18) that imports here with the passphrase', async () => {
    const source = await filled();
    const dir = await tempDir();
    await writeFile(join(dir, 'bundle.json'), await bytesOf(await source.exportBundle({ exportedAt: EXPORTED_AT })));
    ageOnTty(['-p', '-o', join(dir, 'bundle.age'), join(dir, 'bundle.json')], [PASSPHRASE, PASSPHRASE]);
    const age = await readFile(join(dir, 'bundle.age'));
    expect(age.subarray(0, 60).toString('latin1')).toMatch(/^age-encryption\.org\/v1\n-> scrypt \S+ 18\n/u);
    const tool = await freshTool();
    await tool.importBundle(new Blob([new Uint8Array(age)]), { passphrase: PASSPHRASE });
    expect(await snapshot(tool)).toBe(await snapshot(source));
  });
});
