// delete through the tool: a file, a folder with its subtree (and nothing beside it), a missing path, and the root
// refused in every spelling.

import { describe, expect, it } from 'vitest';
import { freshToolEach } from '../helpers/fresh-tool.js';

const fresh = freshToolEach('delete');
const { ok, fails, create, unchanged } = fresh;

describe('delete', () => {
  it('deletes a file (R-delete)', async () => {
    await create('/memories/a.md', 'x');
    expect(await ok({ command: 'delete', path: '/memories/a.md' })).toBe('Successfully deleted /memories/a.md');
    expect(await fails({ command: 'view', path: '/memories/a.md' })).toMatch(/does not exist/);
  });

  it('deletes a folder with everything in it, and nothing beside it (R-delete)', async () => {
    await create('/memories/a/b/c.md', 'x');
    await create('/memories/a/d.md', 'x');
    await create('/memories/ab.md', 'keep');
    await create('/memories/a0/x.md', 'keep');
    expect(await ok({ command: 'delete', path: '/memories/a' })).toBe('Successfully deleted /memories/a');
    expect(await ok({ command: 'view', path: '/memories' })).toBe(
      [
        "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:",
        '4K\t/memories',
        '4K\t/memories/a0/',
        '4B\t/memories/a0/x.md',
        '4B\t/memories/ab.md',
      ].join('\n'),
    );
    await create('/memories/a/c.md', 'fresh');
    expect(await ok({ command: 'view', path: '/memories/a' })).not.toContain('/b/');
  });

  it('answers a missing path (R-delete)', async () => {
    expect(await fails({ command: 'delete', path: '/memories/no' })).toBe('Error: The path /memories/no does not exist');
  });

  it('protects the root whatever its spelling (R-delete-root)', async () => {
    await create('/memories/a.md', 'x');
    await unchanged(async () => {
      for (const path of ['/memories', '/memories/', '/memories/.', '/memories//', '/memories/./']) {
        expect(await fails({ command: 'delete', path })).toBe('Error: Cannot delete the /memories directory itself');
      }
    });
  });
});
