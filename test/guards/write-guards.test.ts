// writeGuards (src/guards/write-guards.ts) on its own: `screen` finds a secret in a whole text and around an edit's
// changed span, and `filter` applies the beforeWrite hook, turning its refusals into `forbidden` errors.
// Through the tool: secrets.test.ts.

import { describe, expect, it } from 'vitest';
import { MemoryToolError, isMemoryToolError } from '../../src/core/errors.js';
import { SECRET_CONTEXT } from '../../src/guards/edit-window.js';
import { writeGuards } from '../../src/guards/write-guards.js';
import type { BeforeWrite, BeforeWriteHook } from '../../src/guards/write-guards.js';
import { fake } from './fake-secrets.js';

// Built at run time so this file itself holds nothing a scanner would flag.
const KEY = fake('AKIA', 'BCDEFGHIJKLMNOPQ');
const SECRET_REFUSAL =
  'Refused to write /memories/a.md: the text looks like it contains an AWS access key id. Do not store API keys, ' +
  'passwords, tokens or private keys in memory; write the note without the secret. Nothing was written.';

const write = (content: string, more: Partial<BeforeWrite> = {}): BeforeWrite => ({
  path: '/memories/a.md',
  key: '/memories/a.md',
  content,
  command: 'create',
  ...more,
});

/** What `action` threw (the test fails if it threw nothing). */
function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  return expect.fail('expected a throw');
}

describe('screen', () => {
  it('refuses a text holding a secret as forbidden, naming its kind and the path', () => {
    const refusal = writeGuards(true, undefined).screen(write(`notes\naws ${KEY}\nmore`));
    expect(refusal).toBeInstanceOf(MemoryToolError);
    expect(refusal?.code).toBe('forbidden');
    expect(refusal?.message).toBe(SECRET_REFUSAL);
  });

  it('lets a text with no secret through, and any text when the filter is off', () => {
    expect(writeGuards(true, undefined).screen(write('a note about API keys and where to rotate them'))).toBeUndefined();
    expect(writeGuards(false, undefined).screen(write(`aws ${KEY}`))).toBeUndefined();
  });

  it('checks an edit around its changed span only: a secret far from it is not seen again', () => {
    const far = 'word '.repeat(SECRET_CONTEXT);
    const content = `${KEY} ${far}edited text ${far}`;
    const from = content.indexOf('edited');
    const edit = write(content, { command: 'str_replace', changed: { from, to: from + 'edited'.length } });
    const { screen } = writeGuards(true, undefined);
    expect(screen(edit)).toBeUndefined();
    // The same text written whole is checked whole.
    expect(screen(write(content))?.code).toBe('forbidden');
  });

  it('finds a secret an edit writes, or completes next to what was there', () => {
    const { screen } = writeGuards(true, undefined);
    const far = 'word '.repeat(SECRET_CONTEXT);
    const inside = `${far}aws ${KEY} ${far}`;
    const from = inside.indexOf(KEY);
    expect(screen(write(inside, { command: 'insert', changed: { from, to: from + KEY.length } }))?.message).toBe(SECRET_REFUSAL);
    // Only the last four characters are new: the key is whole only with the text before them.
    const to = from + KEY.length;
    expect(screen(write(inside, { command: 'str_replace', changed: { from: to - 4, to } }))?.code).toBe('forbidden');
  });
});

describe('screenPath', () => {
  it('refuses a new path holding a secret as forbidden, naming its kind but not echoing the path', () => {
    const { screenPath } = writeGuards(true, undefined);
    const created = screenPath('create', `/memories/${KEY}/notes.md`);
    expect(created?.code).toBe('forbidden');
    expect(created?.message).toBe(
      'Refused to write a file at that path: it looks like it contains an AWS access key id. Do not put API keys, ' +
        'passwords, tokens or private keys in file or folder names, which every listing shows; choose a name without ' +
        'the secret. Nothing was changed.',
    );
    const renamed = screenPath('rename', `/memories/${KEY}.md`);
    expect(renamed?.message).toMatch(/^Refused to rename to that path: it looks like it contains an AWS access key id\./u);
    expect(`${created?.message}${renamed?.message}`).not.toContain(KEY);
  });

  it('lets a path with no secret through, and any path when the filter is off', () => {
    expect(writeGuards(true, undefined).screenPath('create', '/memories/aws/AKIA-prefix-explained.md')).toBeUndefined();
    expect(writeGuards(false, undefined).screenPath('rename', `/memories/${KEY}.md`)).toBeUndefined();
  });

  it('names the kind of secret a path holds for a bundle import (pathSecret), nothing with the filter off', () => {
    expect(writeGuards(true, undefined).pathSecret(`/memories/${KEY}/a.md`)).toBe('an AWS access key id');
    expect(writeGuards(true, undefined).pathSecret('/memories/aws/AKIA-prefix-explained.md')).toBeUndefined();
    expect(writeGuards(false, undefined).pathSecret(`/memories/${KEY}/a.md`)).toBeUndefined();
  });
});

describe('filter', () => {
  it('stores the text as it is when no hook is set, and says it rewrites nothing', () => {
    const guards = writeGuards(true, undefined);
    expect(guards.rewrites).toBe(false);
    expect(guards.filter(write('as written'))).toBe('as written');
  });

  it('shows the hook the whole write and stores what it returns, or the text when it returns nothing', () => {
    const seen: BeforeWrite[] = [];
    const hook: BeforeWriteHook = (shown) => {
      seen.push(shown);
      return shown.content.includes('hunter2') ? shown.content.replaceAll('hunter2', '[redacted]') : undefined;
    };
    const guards = writeGuards(true, hook);
    expect(guards.rewrites).toBe(true);
    const edit = write('password hunter2', { command: 'str_replace', changed: { from: 9, to: 16 } });
    expect(guards.filter(edit)).toBe('password [redacted]');
    expect(guards.filter(write('plain'))).toBe('plain');
    expect(seen).toEqual([edit, write('plain')]);
  });

  it('refuses as forbidden with the hook\'s words when it throws an Error, keeping the error as the cause', () => {
    const reason = new Error('notes about cats are not allowed');
    const error = thrown(() =>
      writeGuards(true, () => {
        throw reason;
      }).filter(write('cats')),
    );
    expect(isMemoryToolError(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'forbidden',
      message: 'Refused to write /memories/a.md: notes about cats are not allowed. Nothing was written.',
      cause: reason,
    });
  });

  it('words a thrown value that is not an Error as text', () => {
    const error = thrown(() =>
      writeGuards(true, () => {
        throw 'read-only memory';
      }).filter(write('x')),
    );
    expect(error).toMatchObject({ code: 'forbidden', message: 'Refused to write /memories/a.md: read-only memory. Nothing was written.' });
  });

  it('passes a MemoryToolError the hook throws through as it is', () => {
    const own = new MemoryToolError('too_large', 'Too long for this app.');
    const error = thrown(() =>
      writeGuards(true, () => {
        throw own;
      }).filter(write('x')),
    );
    expect(error).toBe(own);
  });

  it('refuses a hook that returns something other than a string or nothing as invalid_hook, blaming the app', () => {
    const hook = (() => 42) as unknown as BeforeWriteHook;
    const error = thrown(() => writeGuards(true, hook).filter(write('x')));
    expect(isMemoryToolError(error) && error.code).toBe('invalid_hook');
    expect((error as MemoryToolError).message).toBe(
      "Refused to write /memories/a.md: the app's beforeWrite hook returned 42 instead of a text or nothing. " +
        'This is a fault in the app, not in the command; trying again will not help. Nothing was written.',
    );
  });

  it('leaves the secret check to screen: filter does not refuse a secret', () => {
    expect(writeGuards(true, undefined).filter(write(`aws ${KEY}`))).toBe(`aws ${KEY}`);
  });
});
