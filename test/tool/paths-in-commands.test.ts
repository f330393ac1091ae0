// Paths in every command: outside /memories and traversal refused in the SDK's wording, the hostile corpus
// (test/fixtures/hostile-paths.ts) refused by all six commands storing nothing, and valid unusual names working.

import { describe, expect, it } from 'vitest';
import { HOSTILE_PATHS, VALID_UNUSUAL_PATHS } from '../fixtures/hostile-paths.js';
import { freshToolEach } from '../helpers/fresh-tool.js';

const fresh = freshToolEach('paths-in-commands');
const { run, ok, fails, create, read, unchanged } = fresh;

/** `path` in each of the seven path fields of the six commands; a rename moves it `to`, or moves `from` onto it. */
const inEveryPathField = (path: string, { from, to }: { from: string; to: string }): Array<Record<string, unknown>> => [
  { command: 'view', path },
  { command: 'create', path, file_text: 'x' },
  { command: 'str_replace', path, old_str: 'o', new_str: 'x' },
  { command: 'insert', path, insert_line: 0, insert_text: 'x' },
  { command: 'delete', path },
  { command: 'rename', old_path: path, new_path: to },
  { command: 'rename', old_path: from, new_path: path },
];

describe('paths', () => {
  it('refuses /memoriesX and paths outside /memories for every command (R-paths)', async () => {
    for (const path of ['/memoriesX/a.md', '/etc/passwd', 'memories/a.md', '/Memories/a.md']) {
      for (const input of inEveryPathField(path, { from: '/memories/ok', to: '/memories/ok' })) {
        expect(await fails(input)).toBe(`Error: Path must start with /memories, got: ${path}`);
      }
    }
    expect(await ok({ command: 'view', path: '/memories' })).toBe(
      "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n4K\t/memories",
    );
  });

  it('refuses traversal with the SDK wording (R-paths)', async () => {
    expect(await fails({ command: 'view', path: '/memories/../etc' })).toBe(
      'Error: Path /memories/../etc would escape /memories directory',
    );
  });
});

describe('hostile and unusual paths', () => {
  // Every third corpus path (700+, every category) through all seven path fields of the six commands.
  const sample = HOSTILE_PATHS.filter((_, i) => i % 3 === 0);

  it('refuses hostile paths in every command and stores nothing (R-paths, R-bound)', async () => {
    await create('/memories/ok.md', 'ok');
    await unchanged(async () => {
      for (const path of sample) {
        const results = await Promise.all(inEveryPathField(path, { from: '/memories/ok.md', to: '/memories/moved.md' }).map(run));
        for (const result of results) {
          expect(result.is_error, `${JSON.stringify(path)} → ${result.content}`).toBe(true);
          expect(result.content).toMatch(/^Error: (Path|The path) /);
          expect(result.content.length, JSON.stringify(path).slice(0, 100)).toBeLessThanOrEqual(fresh.tool.limits.maxReplyChars);
        }
      }
      expect(sample.length).toBeGreaterThan(500);
    });
  }, 120_000);

  it('keeps valid unusual names working in every command (R-paths)', async () => {
    for (const { path, key } of VALID_UNUSUAL_PATHS) {
      if (key === '/memories') continue;
      expect(await create(path, 'a')).toBe(`File created successfully at: ${path}`);
      await ok({ command: 'str_replace', path, old_str: 'a', new_str: 'b' });
      await ok({ command: 'insert', path, insert_line: 1, insert_text: 'c' });
      expect(await read(key)).toBe('b\nc');
      await ok({ command: 'rename', old_path: path, new_path: '/memories/tmp-name' });
      await ok({ command: 'rename', old_path: '/memories/tmp-name', new_path: path });
      expect(await ok({ command: 'delete', path })).toBe(`Successfully deleted ${path}`);
      // Several spellings share a key or a parent folder: start each name from an empty memory.
      const top = key.split('/').slice(0, 3).join('/');
      if (top !== key) await ok({ command: 'delete', path: top });
    }
  }, 120_000);
});
