// The path validator against a corpus of hostile paths (test/fixtures/hostile-paths.ts) and valid odd ones.
// Rules: R-paths in src/commands/README.md; the full rule and its Unicode decisions in src/core/README.md.

import { describe, it, expect } from 'vitest';
import { MemoryToolError } from '../../src/core/errors.js';
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
} from '../../src/core/paths.js';
import { JOINER_SCRIPTS, LOOKALIKE, SUBDIVISION_FLAGS } from '../../src/core/path-unicode.js';
import { HOSTILE_PATHS, HOSTILE_PATH_GROUPS, VALID_UNUSUAL_PATHS } from '../fixtures/hostile-paths.js';

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
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\u2800\ufeff]|[\ud800-\udfff]/u;

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

  it('says a ".." segment that climbs out would escape /memories, in the SDK wording', () => {
    expect(refusal('/memories/../etc/passwd').message).toBe(
      'Path /memories/../etc/passwd would escape /memories directory',
    );
    expect(refusal('/memories/./../x').message).toBe('Path /memories/./../x would escape /memories directory');
    expect(refusal('/memories/a/../../x').message).toBe('Path /memories/a/../../x would escape /memories directory');
  });

  it('refuses a ".." segment that stays inside /memories too, saying truthfully that it does not escape', () => {
    for (const path of ['/memories/notes/../a.md', '/memories/a/b/../../c', '/memories/a/..']) {
      expect(refusal(path).code).toBe('invalid_path');
      expect(refusal(path).message).toBe(
        `The path ${path} is not allowed: it holds a ".." segment, refused even where it stays inside /memories; write the path without it.`,
      );
    }
  });

  it('echoes a refused path of hidden characters written out, cut to a bound between two escapes', () => {
    const path = '/memories/' + '\u200b'.repeat(600);
    const message = refusal(path).message;
    expect(message.length).toBeLessThan(2200);
    expect(message).toMatch(/^The path \/memories\/(\\u200b)+… \(\d+ more characters\) is not allowed: it holds an invisible character\.$/u);
  });

  it('says a path outside /memories must start with /memories, in the SDK wording', () => {
    for (const path of ['/etc/passwd', 'memories/a', '/memoriesX/a', '/Memories/a', '/memories-backup', '/']) {
      expect(refusal(path).message, shown(path)).toBe(`Path must start with /memories, got: ${path}`);
    }
  });

  // Issue 20: `//memories/a.md` and `/./memories/a.md` were folded to `/memories/a.md`. The official tool checks the
  // literal prefix first (`/../memories/a.md` included, which it does not call an escape) and so do we.
  it('refuses a path that does not start with the literal /memories, before folding // and /./', () => {
    for (const path of [
      '//memories/a.md',
      '/./memories/a.md',
      '//memories',
      '//memories//',
      '///memories/a.md',
      '/.//memories/a.md',
      '/../memories/a.md',
      '//memories/../etc/passwd',
    ]) {
      expect(refusal(path).message, shown(path)).toBe(`Path must start with /memories, got: ${path}`);
    }
    expect(normalizeMemoryPath('/memories//a.md')).toBe('/memories/a.md');
    expect(normalizeMemoryPath('/memories/./a.md')).toBe('/memories/a.md');
    expect(normalizeMemoryPath('/memories//')).toBe('/memories');
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

// Issue 20: invisible characters are refused where they hide something, not where an emoji or a script needs them;
// and every character Unicode's confusables data gives for `.`, `/` or `\` is refused, but for letters, digits and
// punctuation of living scripts that merely resemble them.
describe('invisible characters an emoji or a script needs', () => {
  const accepted = (path: string) => {
    try {
      return normalizeMemoryPath(path);
    } catch (error) {
      return expect.fail(`refused ${shown(path)}: ${(error as Error).message}`);
    }
  };
  const invisible = (path: string) =>
    expect(refusal(path).message, shown(path)).toMatch(/is not allowed: it holds an invisible character\.$/u);

  it('accepts keycaps: a digit, # or * with U+FE0F and U+20E3', () => {
    for (const base of '0123456789#*') accepted(`/memories/${base}\ufe0f\u20e3.md`);
    invisible('/memories/a\ufe0f\u20e3.md');
    invisible('/memories/1\ufe0f.md');
    invisible('/memories/1\ufe0f\ufe0f\u20e3.md');
  });

  it('accepts emoji joined by U+200D, styled or with a skin tone, and nothing else joined', () => {
    for (const path of [
      '/memories/\u{1f468}\u200d\u{1f4bb}.md',
      '/memories/\u{1f3f3}\ufe0f\u200d\u{1f308}',
      '/memories/\u{1f3f4}\u200d\u2620\ufe0f',
      '/memories/\u{1f469}\u{1f3fd}\u200d\u{1f52c}',
      '/memories/\u{1f9d1}\u200d\u{1f91d}\u200d\u{1f9d1}',
    ]) {
      expect(accepted(path), shown(path)).toBe(path);
    }
    for (const path of [
      '/memories/\u200d\u{1f4bb}',
      '/memories/\u{1f468}\u200d',
      '/memories/\u{1f468}\u200d\u200d\u{1f4bb}',
      '/memories/\u{1f468}\u200c\u{1f4bb}',
      '/memories/a\u200d\u{1f4bb}',
      '/memories/\u{1f468}\u200d.md',
      '/memories/\u{1f468}\u200d/\u{1f4bb}',
    ]) {
      invisible(path);
    }
  });

  it('accepts only the three subdivision flags Unicode recommends as tag sequences', () => {
    const flag = (tags: string, end = '\u{e007f}') =>
      `/memories/\u{1f3f4}${[...tags].map((ch) => String.fromCodePoint(0xe0000 + ch.charCodeAt(0))).join('')}${end}`;
    expect(SUBDIVISION_FLAGS.split(' ')).toEqual(['gbeng', 'gbsct', 'gbwls']);
    for (const tags of ['gbeng', 'gbsct', 'gbwls']) expect(accepted(flag(tags))).toBe(flag(tags));
    // A well-formed but not recommended subdivision draws as a bare black flag: its tags would hide `usca`.
    invisible(flag('usca'));
    invisible(flag('gbsct', ''));
    invisible(flag('gbsctx'));
    invisible('/memories/a\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}');
  });

  it('accepts ZWNJ and ZWJ alone between two letters or marks of a script that needs them', () => {
    for (const path of [
      '/memories/\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645.md', // Persian
      '/memories/\u06a9\u062a\u0627\u0628\u200c\u0647\u0627', // Persian "books"
      '/memories/\u0915\u094d\u200d\u0937', // Devanagari: virama, ZWJ
      '/memories/\u0915\u094d\u200c\u0937', // Devanagari: virama, ZWNJ
      '/memories/\u09b0\u200d\u09cd\u09af', // Bengali: ZWJ before the virama
      '/memories/\u0dc1\u0dca\u200d\u0dbb\u0dd3', // Sinhala
      '/memories/\u0d15\u0d4d\u200d\u0d15', // Malayalam
    ]) {
      expect(accepted(path), shown(path)).toBe(path);
    }
    for (const joiner of ['\u200c', '\u200d']) {
      for (const path of [
        `/memories/${joiner}\u0645\u06cc`, // leading
        `/memories/\u0645\u06cc${joiner}`, // trailing
        `/memories/\u0645${joiner}${joiner}\u06cc`, // doubled
        `/memories/\u0645${joiner}a`, // beside ASCII
        `/memories/a${joiner}b`,
        `/memories/\u0645${joiner}.md`, // beside `.` or `/`
        `/memories/\u0645${joiner}/\u06cc`,
        `/memories/\u0915\u094d${joiner}\u0645`, // two scripts
        `/memories/\u0430${joiner}\u0431`, // a script that needs none (Cyrillic)
      ]) {
        invisible(path);
      }
    }
  });

  it('knows every joiner script by its Unicode short name in this engine', () => {
    const scripts = JOINER_SCRIPTS.split(' ');
    for (const script of ['Arab', 'Syrc', 'Nkoo', 'Mong', 'Deva', 'Beng', 'Guru', 'Gujr', 'Orya', 'Taml', 'Telu']) {
      expect(scripts).toContain(script);
    }
    for (const script of ['Knda', 'Mlym', 'Sinh', 'Mymr', 'Khmr', 'Tibt', 'Bali', 'Java', 'Rohg', 'Adlm']) {
      expect(scripts).toContain(script);
    }
    // Latin, Cyrillic, Greek, Han and Hebrew need no joiner between letters.
    for (const script of ['Latn', 'Cyrl', 'Grek', 'Hani', 'Hebr']) expect(scripts).not.toContain(script);
    // paths.ts skips a name the engine cannot compile (a script newer than its Unicode); these all are old.
    for (const script of scripts.filter((name) => !['Kawi', 'Gukh', 'Tutg', 'Ougr'].includes(name))) {
      expect(() => new RegExp(`\\p{scx=${script}}`, 'u'), script).not.toThrow();
    }
  });

  it('refuses the braille blank, which draws as nothing', () => {
    invisible('/memories/\u2800');
    invisible('/memories/a\u2800b.md');
    expect(refusal('/memories/\u2800.md').message).toContain('/memories/\\u2800.md');
  });
});

describe('lookalikes of ".", "/" and "\\" from Unicode confusables', () => {
  const lookalike = (path: string) =>
    expect(refusal(path).message, shown(path)).toMatch(/it holds a character that looks like "\.", "\/" or "\\"\.$/u);

  it('refuses the characters issue 20 names, and the combining solidus overlays', () => {
    for (const code of [0xa4f8, 0x2e31, 0x0701, 0x27cb, 0x27cd, 0x1735, 0x1d23a]) {
      const c = String.fromCodePoint(code);
      lookalike(`/memories/${c}`);
      lookalike(`/memories/${c}${c}/etc/passwd`);
      lookalike(`/memories/a${c}b.md`);
    }
    lookalike('/memories/..\u0338'); // reads as `./`
    lookalike('/memories/..\u20e5');
    lookalike('/memories/a\u0337b');
  });

  it('refuses every character of the generated table, and none of the valid lookalike-ish ones', () => {
    const table: number[] = [];
    for (let code = 0x80; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      if (LOOKALIKE.test(String.fromCodePoint(code))) table.push(code);
    }
    expect(table.length).toBeGreaterThanOrEqual(40);
    const passing = table.filter((code) => {
      try {
        normalizeMemoryPath(`/memories/a${String.fromCodePoint(code)}b`);
        return true;
      } catch {
        return false;
      }
    });
    expect(passing.map((code) => code.toString(16))).toEqual([]);
    // Letters, digits and punctuation of living scripts that merely resemble them stay valid.
    for (const code of [0x30ce, 0x4e3f, 0x4e36, 0x0660, 0x06f0, 0x3002, 0x00b7, 0x30fb, 0x0025, 0x2030]) {
      expect(table, code.toString(16)).not.toContain(code);
    }
  });

  it('accepts Katakana ノート, the ideographic full stop and a decomposed ≠', () => {
    expect(normalizeMemoryPath('/memories/\u30ce\u30fc\u30c8.md')).toBe('/memories/\u30ce\u30fc\u30c8.md');
    expect(normalizeMemoryPath('/memories/\u65e5\u8a18\u3002md')).toBe('/memories/\u65e5\u8a18\u3002md');
    expect(normalizeMemoryPath('/memories/a=\u0338b')).toBe('/memories/a\u2260b');
  });

  it('keeps refusing what NFKC folds to ".", "/" or "\\"', () => {
    for (const c of ['\uff0e', '\ufe52', '\u2024', '\u2025', '\uff0f', '\uff3c', '\ufe68', '\u2488']) {
      lookalike(`/memories/a${c}b`);
    }
  });
});
