// Limits: defaults, validation of the option, and the write check's arithmetic.

import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, checkWrite, positiveIntegers, resolveLimits } from '../../src/core/limits.js';

describe('resolveLimits', () => {
  it('defaults to 1 MiB per file, 256 MiB in all and 50,000 files', () => {
    expect(resolveLimits()).toEqual({ maxFileBytes: 1048576, maxTotalBytes: 268435456, maxFiles: 50000, maxReplyChars: 16000 });
    expect(resolveLimits({ maxFiles: 3 })).toEqual({ ...DEFAULT_LIMITS, maxFiles: 3 });
  });

  it.each([0, -1, 1.5, Number.NaN, Infinity])('refuses %s as a limit', (value) => {
    expect(() => resolveLimits({ maxFileBytes: value })).toThrow(TypeError);
  });

  it('keeps the default of a field left undefined, as a JavaScript caller may pass it', () => {
    expect(resolveLimits({ maxFiles: undefined, maxFileBytes: 5 } as never)).toEqual({ ...DEFAULT_LIMITS, maxFileBytes: 5 });
  });
});

describe('positiveIntegers', () => {
  const defaults = { maxEntries: 1000, maxBytes: 64 };
  it('overlays the set fields, names a bad one in its TypeError, and leaves the defaults as they were', () => {
    expect(positiveIntegers(defaults, { maxBytes: 8 }, 'history')).toEqual({ maxEntries: 1000, maxBytes: 8 });
    expect(positiveIntegers(defaults, undefined, 'history')).toEqual(defaults);
    expect(() => positiveIntegers(defaults, { maxEntries: Number.NaN }, 'history')).toThrow(
      new TypeError('history.maxEntries must be a positive integer, got NaN'),
    );
    expect(defaults).toEqual({ maxEntries: 1000, maxBytes: 64 });
  });
});

describe('checkWrite', () => {
  const limits = { maxFileBytes: 10, maxTotalBytes: 20, maxFiles: 2 };

  it('returns the usage after an overwrite, counting the old size out', () => {
    expect(checkWrite(limits, { bytes: 18, files: 2 }, '/memories/a', 10, 8, false)).toEqual({ bytes: 20, files: 2 });
  });

  it('lets a file shrink even when the memory is over its total (for example after lowering the limit)', () => {
    expect(checkWrite(limits, { bytes: 30, files: 2 }, '/memories/a', 1, 5, false)).toEqual({ bytes: 26, files: 2 });
  });

  it('refuses a file, total or count over the limit with too_large', () => {
    expect(() => checkWrite(limits, { bytes: 0, files: 0 }, '/memories/a', 11, 0, true)).toThrow(/per file/);
    expect(() => checkWrite(limits, { bytes: 15, files: 1 }, '/memories/a', 6, 0, true)).toThrow(/over its limit of 20 bytes/);
    expect(() => checkWrite(limits, { bytes: 2, files: 2 }, '/memories/a', 1, 0, true)).toThrow(/limit of 2 files/);
  });
});
