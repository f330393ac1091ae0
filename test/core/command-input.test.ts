// parseMemoryCommand: the typed command out of raw input, or an invalid_input error naming the field.

import { describe, expect, it } from 'vitest';
import { parseMemoryCommand } from '../../src/core/command-input.js';

describe('parseMemoryCommand', () => {
  it('keeps the fields of the command and drops the rest', () => {
    expect(parseMemoryCommand({ command: 'view', path: '/memories', extra: 1, view_range: [1, 2] })).toEqual({
      command: 'view',
      path: '/memories',
      view_range: [1, 2],
    });
  });

  it('turns an omitted or null new_str into the empty string', () => {
    expect(parseMemoryCommand({ command: 'str_replace', path: '/memories/a', old_str: 'x' })).toMatchObject({ new_str: '' });
    expect(parseMemoryCommand({ command: 'str_replace', path: '/memories/a', old_str: 'x', new_str: null })).toMatchObject({ new_str: '' });
  });

  it('accepts a null view_range as absent', () => {
    expect(parseMemoryCommand({ command: 'view', path: '/memories', view_range: null })).toEqual({ command: 'view', path: '/memories' });
  });

  it('reads only own properties, so a polluted prototype supplies nothing', () => {
    const input = Object.create({ command: 'delete', path: '/memories/a' }) as object;
    expect(() => parseMemoryCommand(input)).toThrow(/"command" must be one of/);
  });

  it('throws MemoryToolError with code invalid_input', () => {
    expect(() => parseMemoryCommand({ command: 'insert', path: '/memories/a', insert_line: 1e300, insert_text: '' })).toThrow(
      expect.objectContaining({ name: 'MemoryToolError', code: 'invalid_input' }),
    );
  });

  it('describes a huge or circular value briefly', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => parseMemoryCommand({ command: 'create', path: '/memories/a', file_text: circular })).toThrow(/got an object that cannot be shown/);
    expect(() => parseMemoryCommand({ command: 'create', path: ['x'.repeat(500)], file_text: '' })).toThrow(/x… \(\d+ more characters\)/u);
  });

  it('writes out the hidden characters of a value it describes, as every refusal does', () => {
    const error = (() => {
      try {
        parseMemoryCommand({ command: 'create', path: ['a\u{e0041}\u202e'], file_text: '' });
      } catch (caught) {
        return caught as Error;
      }
      return undefined;
    })();
    expect(error?.message).toContain('got ["a\\u{e0041}\\u202e"]');
    expect(/\p{Default_Ignorable_Code_Point}/u.test(error?.message ?? '')).toBe(false);
  });
});
