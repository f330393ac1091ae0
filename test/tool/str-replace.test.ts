// str_replace through the tool: the one match replaced and the snippet around it, multi-line and $-patterns, and
// the refusals (no match, several, a missing file, a folder, an empty old_str) in the SDK's wording.

import { describe, expect, it } from 'vitest';
import { freshToolEach } from '../helpers/fresh-tool.js';
import { expectCode } from '../helpers/tool-calls.js';

const fresh = freshToolEach('str-replace');
const { ok, fails, create, read } = fresh;

describe('str_replace', () => {
  const edited = 'The memory file has been edited. Here is the snippet showing the change (with line numbers):';

  it('replaces the one match and shows lines L-2..L+2 of the new text (R-replace-match, R-replace-snippet)', async () => {
    await create('/memories/a.md', 'l1\nl2\nl3\ntarget\nl5\nl6\nl7');
    expect(await ok({ command: 'str_replace', path: '/memories/a.md', old_str: 'target', new_str: 'done' })).toBe(
      `${edited}\n     2\tl2\n     3\tl3\n     4\tdone\n     5\tl5\n     6\tl6`,
    );
    expect(await read('/memories/a.md')).toBe('l1\nl2\nl3\ndone\nl5\nl6\nl7');
  });

  it('matches an old_str that spans lines (R-replace-match)', async () => {
    await create('/memories/a.md', 'a\nb\nc');
    expect(await ok({ command: 'str_replace', path: '/memories/a.md', old_str: 'a\nb', new_str: 'ab' })).toBe(
      `${edited}\n     1\tab\n     2\tc`,
    );
  });

  it('echoes an old_str with half a surrogate pair as stored text shows it (U+FFFD), in well-formed text (R-well-formed)', async () => {
    await create('/memories/a.md', 'abc x\ud83d x\ud83d');
    const none = await fails({ command: 'str_replace', path: '/memories/a.md', old_str: 'y\ud83d', new_str: 'z' });
    expect(none).toBe('Error: No replacement was performed, old_str `y\ufffd` did not appear verbatim in /memories/a.md.');
    const many = await fails({ command: 'str_replace', path: '/memories/a.md', old_str: 'x\ud83d', new_str: 'z' });
    expect(many).toBe('Error: No replacement was performed. Multiple occurrences of old_str `x\ufffd` in lines: 1. Please ensure it is unique');
    // With the `u` flag a surrogate class matches only a lone one.
    expect([none, many].some((reply) => /[\ud800-\udfff]/u.test(reply))).toBe(false);
  });

  it('treats an omitted new_str as empty, not as the word undefined (R-input)', async () => {
    await create('/memories/a.md', 'keep drop keep');
    await ok({ command: 'str_replace', path: '/memories/a.md', old_str: ' drop' });
    expect(await read('/memories/a.md')).toBe('keep keep');
  });

  it('inserts $-patterns in new_str literally (R-replace-match)', async () => {
    await create('/memories/a.md', 'price');
    await ok({ command: 'str_replace', path: '/memories/a.md', old_str: 'price', new_str: "$& $1 $$ $'" });
    expect(await read('/memories/a.md')).toBe("$& $1 $$ $'");
  });

  it('refuses no match in the SDK wording (R-replace-none)', async () => {
    await create('/memories/a.md', 'abc');
    expect(await fails({ command: 'str_replace', path: '/memories/a.md', old_str: 'zzz', new_str: '' })).toBe(
      'Error: No replacement was performed, old_str `zzz` did not appear verbatim in /memories/a.md.',
    );
    await expectCode(fresh.tool.str_replace({ command: 'str_replace', path: '/memories/a.md', old_str: 'q', new_str: '' }), 'no_match');
  });

  it('refuses several matches naming each line once, two on one line and overlapping ones included (R-replace-many)', async () => {
    await create('/memories/a.md', 'x x\ny\nx\naaa');
    expect(await fails({ command: 'str_replace', path: '/memories/a.md', old_str: 'x', new_str: '' })).toBe(
      'Error: No replacement was performed. Multiple occurrences of old_str `x` in lines: 1, 3. Please ensure it is unique',
    );
    expect(await fails({ command: 'str_replace', path: '/memories/a.md', old_str: 'aa', new_str: '' })).toBe(
      'Error: No replacement was performed. Multiple occurrences of old_str `aa` in lines: 4. Please ensure it is unique',
    );
    expect(await read('/memories/a.md')).toBe('x x\ny\nx\naaa');
  });

  it('refuses a missing file, a folder and an empty old_str (R-edit-target, R-input)', async () => {
    expect(await fails({ command: 'str_replace', path: '/memories/no.md', old_str: 'a', new_str: 'b' })).toBe(
      'Error: The path /memories/no.md does not exist. Please provide a valid path.',
    );
    await create('/memories/d/x.md', 'a');
    expect(await fails({ command: 'str_replace', path: '/memories/d', old_str: 'a', new_str: 'b' })).toBe(
      'Error: The path /memories/d is not a file.',
    );
    expect(await fails({ command: 'str_replace', path: '/memories/d/x.md', old_str: '', new_str: 'b' })).toBe(
      'Error: Invalid input for str_replace: "old_str" must not be empty.',
    );
  });
});
