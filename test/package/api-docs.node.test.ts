// The API reference's check as `npm run docs:check` runs it: TypeDoc over every package entry (tsconfig.json's `typedocOptions`), with
// no export or member left without a comment, no `{@link}` that does not resolve, and no unexported type named.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const typedoc = join(root, 'node_modules', 'typedoc', 'bin', 'typedoc');
const work = mkdtempSync(join(tmpdir(), 'idb-memory-tool-api-docs-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));


/** TypeDoc's validation with no output written, in `cwd`: its exit status, and each warning or error as a line. */
function validate(cwd = root): { status: number; problems: string[] } {
  let status = 0;
  let output: string;
  try {
    output = execFileSync(process.execPath, [typedoc, '--emit', 'none', '--logLevel', 'Warn'], {
      cwd,
      encoding: 'utf8',
      stdio: 'pipe',
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
  } catch (error) {
    const failed = error as { status?: number | null; stdout?: unknown; stderr?: unknown };
    status = failed.status ?? 1;
    output = `${String(failed.stdout)}\n${String(failed.stderr)}`;
  }
  const problems = output
    .split('\n')
    .map((line) => line.replace(/\u001b\[[0-9;]*m/g, '').trim())
    .filter((line) => /^\[(warning|error)\]/.test(line) && !/\] Found \d+ errors and \d+ warnings$/.test(line));
  return { status, problems };
}

describe('the API reference', () => {
  it('has a comment on every public export and member, every link resolved, every named type exported', () => {
    const { status, problems } = validate();
    expect(problems).toEqual([]);
    expect(status).toBe(0);
  }, 600_000);

  it('fails the check for an export that has no comment', () => {
    // A one-file package on the repository's options: what makes a missing comment fail is tsconfig.json's `typedocOptions`.
    const config = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')) as { typedocOptions: Record<string, unknown> };
    const fixture = { ...config.typedocOptions, entryPoints: ['entry.ts'], intentionallyNotExported: [] };
    writeFileSync(
      join(work, 'entry.ts'),
      '/** Documented. */\nexport const documented = 1;\nexport function undocumentedExport(): number {\n  return 2;\n}\n',
    );
    writeFileSync(
      join(work, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, module: 'ESNext', target: 'ES2022', noEmit: true },
        files: ['entry.ts'],
        typedocOptions: fixture,
      }),
    );
    const { status, problems } = validate(work);
    expect(problems.filter((problem) => problem.includes('does not have any documentation'))).toEqual([
      expect.stringContaining('undocumentedExport'),
    ]);
    expect(status).not.toBe(0);
  }, 600_000);
});
