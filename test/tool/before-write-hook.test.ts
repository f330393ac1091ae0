// An app's beforeWrite hook that returns neither a string nor nothing, through the tool: every writing command is
// refused with `invalid_hook` and a short reply that blames the app's hook, never `storage`, and nothing is written.

import { describe, expect, it } from 'vitest';
import type { BeforeWriteHook } from '../../src/guards/write-guards.js';
import { callsOn } from '../helpers/tool-calls.js';
import { freshToolEach } from '../helpers/fresh-tool.js';

const fresh = freshToolEach('before-write-hook');

const RETURNED: [string, unknown, string][] = [
  ['a number', 42, 'returned 42 instead'],
  ['null', null, 'returned null instead'],
  ['an object', { text: 'x' }, 'returned an object instead'],
  ['a promise (an async hook)', Promise.resolve('x'), 'returned an object instead'],
  ['a huge array', Array.from({ length: 100_000 }, () => 'x'.repeat(100)), 'returned an array instead'],
];

describe('a beforeWrite hook that returns neither a string nor nothing', () => {
  it.each(RETURNED)('refuses every write as invalid_hook when it returns %s, blaming the app, changing nothing', async (_, value, says) => {
    await fresh.create('/memories/a.md', 'one\ntwo\n');
    const hook = (() => value) as unknown as BeforeWriteHook;
    const calls = callsOn(await fresh.another({ beforeWrite: hook }));
    const writes = [
      { command: 'create', path: '/memories/b.md', file_text: 'new' },
      { command: 'create', path: '/memories/a.md', file_text: 'over' },
      { command: 'str_replace', path: '/memories/a.md', old_str: 'one', new_str: 'uno' },
      { command: 'insert', path: '/memories/a.md', insert_line: 1, insert_text: 'more' },
    ];
    await calls.unchanged(async () => {
      for (const input of writes) {
        const result = await calls.run(input);
        expect(result.is_error).toBe(true);
        expect(result.code).toBe('invalid_hook');
        expect(result.content).toContain(`Refused to write ${input.path}: the app's beforeWrite hook ${says} of a text or nothing.`);
        expect(result.content).toContain('This is a fault in the app, not in the command');
        expect(result.content.endsWith('Nothing was written.')).toBe(true);
        expect(result.content.length).toBeLessThan(400);
      }
    });
  });
});
