// Formatting shared by the replies: sizes as the SDK prints them and numbered lines.

import { describe, expect, it } from 'vitest';
import { formatSize, numberedLine } from '../../src/core/replies.js';

describe('formatSize', () => {
  it.each([
    [0, '0B'],
    [1, '1B'],
    [1023, '1023B'],
    [1024, '1K'],
    [1025, '1.0K'],
    [1536, '1.5K'],
    [1048575, '1024.0K'],
    [1048576, '1M'],
    [5 * 1024 * 1024 * 1024, '5G'],
  ])('prints %i bytes as %s', (bytes, text) => {
    expect(formatSize(bytes)).toBe(text);
  });
});

describe('numberedLine', () => {
  it('right-aligns the number to six places before a tab', () => {
    expect(numberedLine(7, 'text')).toBe('     7\ttext');
    expect(numberedLine(1234567, '')).toBe('1234567\t');
  });
});
