// The path validator against a corpus of hostile paths (test/fixtures/hostile-paths.ts) and valid odd ones.
// Rules: ../shared/contract.md, "Paths".

import { describe, it, expect } from 'vitest';
import { MemoryToolError } from '../src/errors.js';
import {
  MEMORY_ROOT,
  PAST_LIMITS,
  PATH_LIMITS,
  ancestorsOf,
  depthOf,
  isWithin,
  nameOf,
  normalizeMemoryPath,
  parentOf,
  pastPathLimits,
} from '../src/paths.js';
import { HOSTILE_PATHS, HOSTILE_PATH_GROUPS, VALID_UNUSUAL_PATHS } from './fixtures/hostile-paths.js';

/** A path as printable ASCII, cut to a readable length, for test names and failure messages. */
function shown(path: unknown): string {
  // JSON escapes controls and lone surrogates; the rest of non-ASCII becomes \u{...}.
  const quoted = String(JSON.stringify(path)).replace(/[^\x20-\x7e]/gu, (ch) => `\\u{${ch.codePointAt(0)!.toString(16)}}`);
  return quoted.length > 90 ? `${quoted.slice(0, 80)}..." (${String(path).length} chars)` : quoted;
}

/** The error `normalizeMemoryPath` throws for `path`; fails the test, naming the path, if it accepts it. */
function refusal(path: string): MemoryToolError {
  let key: string;
  try {
    key = normalizeMemoryPath(path);
  } catch (error) {
    expect(error, `refusing ${shown(path)}`).toBeInstanceOf(MemoryToolError);
    return error as MemoryToolError;
  }
  return expect.fail(`accepted hostile path ${shown(path)} as key ${shown(key)}`);
}

// Raw characters a refusal message must never carry: controls, invisible/bidi characters, lone surrogates.
const RAW_UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[\ud800-\udfff]/u;

describe('the hostile path corpus', () => {
  it('holds at least 300 distinct paths', () => {
    expect(HOSTILE_PATHS.length).toBeGreaterThanOrEqual(300);
    expect(new Set(HOSTILE_PATHS).size).toBe(HOSTILE_PATHS.length);
  });

  it('gathers every category into HOSTILE_PATHS', () => {
    const all = new Set(HOSTILE_PATHS);
    for (const [group, paths] of Object.entries(HOSTILE_PATH_GROUPS)) {
      expect(paths.length, group).toBeGreaterThan(0);
      expect(paths.filter((path) => !all.has(path)).map(shown), group).toEqual([]);
    }
  });

  it('shares no path with the valid unusual paths', () => {
    const hostile = new Set(HOSTILE_PATHS);
    expect(VALID_UNUSUAL_PATHS.filter(({ path }) => hostile.has(path)).map(({ path }) => shown(path))).toEqual([]);
  });
});

describe('normalizeMemoryPath refuses hostile paths', () => {
  for (const [group, paths] of Object.entries(HOSTILE_PATH_GROUPS)) {
    describe(group, () => {
      it.each(paths.map((path) => [shown(path), path] as const))(
        'refuses %s with code invalid_path',
        (label, path) => {
          expect(refusal(path).code, label).toBe('invalid_path');
        },
      );
    });
  }

  it('never echoes a raw control, invisible or broken character in a refusal message', () => {
    const leaking = HOSTILE_PATHS.filter((path) => RAW_UNSAFE.test(refusal(path).message)).map(shown);
    expect(leaking).toEqual([]);
  });

  it('keeps every refusal message on one line', () => {
    const multiline = HOSTILE_PATHS.filter((path) => /[\r\n]/u.test(refusal(path).message)).map(shown);
    expect(multiline).toEqual([]);
  });

  it('shows a refused control character as an escape, so the path stays recognisable', () => {
    const error = refusal('/memories/a.md\u0000.txt');
    expect(error.message).toContain('/memories/a.md\\u0000.txt');
  });

  it('says a ".." segment would escape /memories, in the SDK wording', () => {
    expect(refusal('/memories/../etc/passwd').message).toBe(
      'Path /memories/../etc/passwd would escape /memories directory',
    );
    expect(refusal('/memories/notes/../a.md').message).toBe(
      'Path /memories/notes/../a.md would escape /memories directory',
    );
    expect(refusal('/../memories/a.md').message).toBe('Path /../memories/a.md would escape /memories directory');
  });

  it('says a path outside /memories must start with /memories, in the SDK wording', () => {
    for (const path of ['/etc/passwd', 'memories/a', '/memoriesX/a', '/Memories/a', '/memories-backup', '/']) {
      expect(refusal(path).message, shown(path)).toBe(`Path must start with /memories, got: ${path}`);
    }
  });

  it('refuses a path that is not a string with code invalid_input', () => {
    for (const value of [undefined, null, 42, {}, ['/memories/a.md']]) {
      const error = refusal(value as unknown as string);
      expect(error.code, String(value)).toBe('invalid_input');
    }
  });
});

describe('normalizeMemoryPath accepts unusual but valid paths', () => {
  it.each(VALID_UNUSUAL_PATHS.map(({ path, key }) => [shown(path), shown(key), path, key] as const))(
    'normalizes %s to %s',
    (label, _keyLabel, path, key) => {
      let got: string;
      try {
        got = normalizeMemoryPath(path);
      } catch (error) {
        return expect.fail(`refused valid path ${label}: ${(error as Error).message}`);
      }
      expect(got, label).toBe(key);
    },
  );

  it('returns keys that normalize to themselves, are NFC and lie within /memories', () => {
    for (const { key } of VALID_UNUSUAL_PATHS) {
      expect(normalizeMemoryPath(key), shown(key)).toBe(key);
      expect(key.normalize('NFC'), shown(key)).toBe(key);
      expect(isWithin(key, MEMORY_ROOT), shown(key)).toBe(true);
    }
  });

  it('gives café typed precomposed and decomposed the same key', () => {
    expect(normalizeMemoryPath('/memories/cafe\u0301.md')).toBe(normalizeMemoryPath('/memories/caf\u00e9.md'));
  });

  it('accepts exactly the limits: a 255-byte name, 32 levels and a 1024-byte key', () => {
    expect(PATH_LIMITS).toEqual({ maxPathBytes: 1024, maxSegmentBytes: 255, maxDepth: 32 });
    const name = 'a'.repeat(PATH_LIMITS.maxSegmentBytes);
    expect(normalizeMemoryPath(`/memories/${name}`)).toBe(`/memories/${name}`);
    const deep = '/memories' + '/d'.repeat(PATH_LIMITS.maxDepth);
    expect(normalizeMemoryPath(deep)).toBe(deep);
    const long = '/memories' + ('/' + 'p'.repeat(200)).repeat(4) + '/' + 'q'.repeat(210);
    expect(new TextEncoder().encode(long).length).toBe(PATH_LIMITS.maxPathBytes);
    expect(normalizeMemoryPath(long)).toBe(long);
  });

  it('refuses one byte or one level past the limits', () => {
    expect(refusal('/memories/' + 'a'.repeat(256)).code).toBe('invalid_path');
    expect(refusal('/memories' + '/d'.repeat(33)).code).toBe('invalid_path');
    expect(refusal('/memories' + ('/' + 'p'.repeat(200)).repeat(4) + '/' + 'q'.repeat(211)).code).toBe(
      'invalid_path',
    );
  });
});

describe('path helpers', () => {
  it('parentOf gives the folder a key lies in, /memories for a top-level entry', () => {
    expect(parentOf('/memories/notes/a.md')).toBe('/memories/notes');
    expect(parentOf('/memories/a/b/c')).toBe('/memories/a/b');
    expect(parentOf('/memories/a.md')).toBe('/memories');
  });

  it('nameOf gives the last name of a key', () => {
    expect(nameOf('/memories/notes/a.md')).toBe('a.md');
    expect(nameOf('/memories/a')).toBe('a');
    expect(nameOf('/memories/..notes.md')).toBe('..notes.md');
    expect(nameOf('/memories')).toBe('memories');
  });

  it('isWithin is true for the folder itself and anything below it', () => {
    expect(isWithin('/memories/a', '/memories/a')).toBe(true);
    expect(isWithin('/memories/a/b.md', '/memories/a')).toBe(true);
    expect(isWithin('/memories/a/b/c.md', '/memories/a')).toBe(true);
    expect(isWithin('/memories/a.md', '/memories')).toBe(true);
    expect(isWithin('/memories', '/memories')).toBe(true);
  });

  it('isWithin is false for a sibling that only shares a prefix, a parent or an unrelated key', () => {
    expect(isWithin('/memories/ab', '/memories/a')).toBe(false);
    expect(isWithin('/memories/a.md', '/memories/a')).toBe(false);
    expect(isWithin('/memories/a', '/memories/a/b')).toBe(false);
    expect(isWithin('/memories/b/a', '/memories/a')).toBe(false);
    expect(isWithin('/memories', '/memories/a')).toBe(false);
  });

  it('ancestorsOf lists the folders above a key, outermost first, without /memories', () => {
    expect(ancestorsOf('/memories/a/b/c.md')).toEqual(['/memories/a', '/memories/a/b']);
    expect(ancestorsOf('/memories/a/b')).toEqual(['/memories/a']);
    expect(ancestorsOf('/memories/a.md')).toEqual([]);
    expect(ancestorsOf('/memories')).toEqual([]);
  });

  it('depthOf counts the levels below /memories', () => {
    expect(depthOf('/memories')).toBe(0);
    expect(depthOf('/memories/a.md')).toBe(1);
    expect(depthOf('/memories/a/b/c.md')).toBe(3);
  });

  it('pastPathLimits agrees with normalizeMemoryPath on keys at and just past the depth and length limits', () => {
    const nested = (levels: number) => '/memories' + '/d'.repeat(levels);
    /** An ASCII key of exactly `bytes` bytes, in names of at most 200. */
    const ofBytes = (bytes: number) => {
      let key = MEMORY_ROOT;
      while (key.length < bytes) key += '/' + 'a'.repeat(Math.min(200, bytes - key.length - 1));
      return key;
    };
    const cases: [string, keyof typeof PAST_LIMITS | undefined][] = [
      [nested(PATH_LIMITS.maxDepth), undefined],
      [nested(PATH_LIMITS.maxDepth + 1), 'depth'],
      [ofBytes(PATH_LIMITS.maxPathBytes), undefined],
      [ofBytes(PATH_LIMITS.maxPathBytes + 1), 'bytes'],
      // 527 characters, 1,040 bytes.
      [`/memories/${'é'.repeat(120)}/${'é'.repeat(120)}/${'é'.repeat(120)}/${'é'.repeat(120)}/${'é'.repeat(33)}`, 'bytes'],
    ];
    expect(cases.map(([key]) => new TextEncoder().encode(key).length).slice(2)).toEqual([1024, 1025, 1040]);
    for (const [key, past] of cases) {
      expect(pastPathLimits(key), key).toBe(past);
      if (past === undefined) expect(normalizeMemoryPath(key)).toBe(key);
      else expect(() => normalizeMemoryPath(key)).toThrow(`it is ${PAST_LIMITS[past]}.`);
    }
  });

  it('ancestorsOf ends at parentOf and every ancestor contains the key', () => {
    const key = normalizeMemoryPath('/memories//x/./y/z/w.md/');
    const ancestors = ancestorsOf(key);
    expect(ancestors.at(-1)).toBe(parentOf(key));
    for (const folder of ancestors) expect(isWithin(key, folder), folder).toBe(true);
  });
});
