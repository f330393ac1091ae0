// rename through the tool: files and folders with their subtrees, the refusals (missing source, existing
// destination, the root, a folder into itself, below a file) and moves that would pass the path limits.

import { describe, expect, it } from 'vitest';
import { freshToolEach } from '../helpers/fresh-tool.js';

const fresh = freshToolEach('rename');
const { ok, fails, create, read, unchanged } = fresh;

describe('rename', () => {
  it('renames a file, making the new parent folders (R-rename)', async () => {
    await create('/memories/a.md', 'text');
    expect(await ok({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/x/y/b.md' })).toBe(
      'Successfully renamed /memories/a.md to /memories/x/y/b.md',
    );
    expect(await read('/memories/x/y/b.md')).toBe('text');
    expect(await fails({ command: 'view', path: '/memories/a.md' })).toMatch(/does not exist/);
  });

  it('renames a folder with its whole subtree (R-rename)', async () => {
    await create('/memories/p/q/r.md', 'deep');
    await create('/memories/p/s.md', 'top');
    await create('/memories/p0.md', 'beside');
    await ok({ command: 'rename', old_path: '/memories/p', new_path: '/memories/z' });
    expect(await read('/memories/z/q/r.md')).toBe('deep');
    expect(await read('/memories/z/s.md')).toBe('top');
    expect(await read('/memories/p0.md')).toBe('beside');
    expect(await ok({ command: 'view', path: '/memories' })).not.toMatch(/\/memories\/p\//);
  });

  it('answers a missing source and an existing destination in the SDK wording (R-rename)', async () => {
    await create('/memories/a.md', 'a');
    await create('/memories/b.md', 'b');
    expect(await fails({ command: 'rename', old_path: '/memories/no', new_path: '/memories/c' })).toBe(
      'Error: The path /memories/no does not exist',
    );
    expect(await fails({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/b.md' })).toBe(
      'Error: The destination /memories/b.md already exists',
    );
    expect(await read('/memories/b.md')).toBe('b');
  });

  it('protects the root as source and as destination (R-rename-root, R-rename)', async () => {
    await create('/memories/a.md', 'a');
    await unchanged(async () => {
      for (const old_path of ['/memories', '/memories/', '/memories/.']) {
        expect(await fails({ command: 'rename', old_path, new_path: '/memories/x' })).toBe(
          'Error: Cannot rename the /memories directory itself',
        );
      }
      expect(await fails({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/' })).toBe(
        'Error: The destination /memories/ already exists',
      );
    });
  });

  it('refuses to move a folder into itself, leaving nothing behind (R-rename-into-itself)', async () => {
    await create('/memories/a/x.md', 'x');
    await unchanged(async () => {
      expect(await fails({ command: 'rename', old_path: '/memories/a', new_path: '/memories/a/b/c' })).toBe(
        'Error: Cannot rename /memories/a to /memories/a/b/c: a folder cannot be moved inside itself.',
      );
    });
  });

  it('refuses to move below a file (R-below-file)', async () => {
    await create('/memories/a.md', 'a');
    await create('/memories/b.md', 'b');
    await unchanged(async () => {
      expect(await fails({ command: 'rename', old_path: '/memories/b.md', new_path: '/memories/a.md/b.md' })).toBe(
        'Error: Cannot create /memories/a.md/b.md: /memories/a.md is a file, so nothing can be stored below it.',
      );
    });
  });

  describe('of a folder whose files would end up past the path limits', () => {
    // 32 levels: the deepest path a file may have.
    const levels = Array.from({ length: 29 }, (_, i) => `d${i}`).join('/');
    const deep = `/memories/a/${levels}/f.md`;

    it('refuses one that would nest a file more than 32 levels deep, changing nothing (R-rename-limits)', async () => {
      await create(deep, 'deep');
      const history = await fresh.tool.history();
      await unchanged(async () => {
        expect(await fails({ command: 'rename', old_path: '/memories/a', new_path: '/memories/x/y/a' })).toBe(
          `Error: Cannot rename /memories/a to /memories/x/y/a: /memories/x/y/a/${levels}/f.md would be nested more than 32 levels deep. Nothing was changed.`,
        );
      });
      expect(await fresh.tool.history()).toEqual(history);
      // One level deeper still fits, and the moved file can be read and deleted there.
      await ok({ command: 'rename', old_path: '/memories/a', new_path: '/memories/x' });
      await ok({ command: 'rename', old_path: '/memories/x', new_path: '/memories/x0/x' });
      expect(await read(`/memories/x0/x/${levels}/f.md`)).toBe('deep');
      await ok({ command: 'delete', path: `/memories/x0/x/${levels}/f.md` });
    });

    it('refuses one that would make a path longer than 1024 bytes (R-rename-limits)', async () => {
      const name = 'n'.repeat(240);
      // 980 bytes here; below the longer name, 1,174 for its deepest folder.
      const path = `/memories/b/${[name, name, name, name].join('/')}/f.md`;
      await create(path, 'long');
      await unchanged(async () => {
        const to = `/memories/${'t'.repeat(200)}`;
        // The first entry past it: the deepest folder, already over the limit there.
        const moved = `${to}/${[name, name, name, name].join('/')}`;
        expect(await fails({ command: 'rename', old_path: '/memories/b', new_path: to })).toBe(
          `Error: Cannot rename /memories/b to ${to}: ${moved} would be longer than 1024 bytes. Nothing was changed.`,
        );
      });
    });
  });
});
