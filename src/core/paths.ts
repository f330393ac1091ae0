// The path validator: a path Claude sent as the one key it names, or refused (R-paths; the steps: ./README.md).

import { MemoryToolError } from './errors.js';
import { JOINER_SCRIPTS, LOOKALIKE, SUBDIVISION_FLAGS } from './path-unicode.js';
import { reply } from './replies.js';
import { showText } from './shown-text.js';
import { utf8Length } from './utf8.js';

/** The root every memory path lives under. */
export const MEMORY_ROOT = '/memories';

/** Longest path, name and nesting accepted (R-paths: a segment over 255 bytes, 32 levels, 1024 bytes). */
export const PATH_LIMITS = {
  /** Longest normalized path, in UTF-8 bytes. */
  maxPathBytes: 1024,
  /** Longest file or folder name, in UTF-8 bytes. */
  maxSegmentBytes: 255,
  /** Deepest nesting below `/memories`, in levels. */
  maxDepth: 32,
} as const;

/** What a key past the nesting or the length limit is, in words ("it is …", "… would be …"). */
export const PAST_LIMITS = {
  depth: `nested more than ${PATH_LIMITS.maxDepth} levels deep`,
  bytes: `longer than ${PATH_LIMITS.maxPathBytes} bytes`,
} as const;

/** Longest path as sent: twice the longest key, so `//` padding folds away and echoes stay far within the bound. */
export const RAW_PATH_BYTES = 2048;

const SHOWN_PATH_CHARS = RAW_PATH_BYTES;

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\ufff9-\ufffb\u2800]/u;
// The invisible characters an emoji is made of, which hide nothing there (./README.md, "Invisible characters"). Each
// pattern captures the character before the invisible one and keeps it: JavaScriptCore's lookbehind never matches a
// character outside the BMP, so `(?<=\p{Extended_Pictographic})` would refuse every emoji name in Safari.
const EMOJI_PARTS: readonly RegExp[] = [
  // A ZWJ between two emoji, the first maybe with its emoji-style selector or a skin tone (`🏳️‍🌈`, `👋🏽‍…`); before
  // the selectors are taken, so a text-style one (U+FE0E) before a ZWJ still counts as hidden.
  /(\p{Extended_Pictographic}(?:\ufe0f|[\u{1f3fb}-\u{1f3ff}])?)\u200d(?=\p{Extended_Pictographic})/gu,
  // A style selector after an emoji (`❤️`).
  /(\p{Extended_Pictographic})[\ufe0e\ufe0f]/gu,
  /([0-9#*])\ufe0f(?=\u20e3)/gu,
  new RegExp(
    `(\u{1f3f4})(?:${SUBDIVISION_FLAGS.split(' ')
      .map((flag) => String.fromCodePoint(...[...flag].map((ch) => 0xe0000 + ch.charCodeAt(0)), 0xe007f))
      .join('|')})`,
    'gu',
  ),
];
// `%` with two hex digits (`%2e`, `%c0%ae`, `%252e` starts with `%25`) or IIS-style `%u` with four.
const PERCENT_ESCAPE = /%(?:[0-9a-f]{2}|u[0-9a-f]{4})/iu;
// With the `u` flag a surrogate class only matches an unpaired one: it cannot be stored as UTF-8.
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/** Parent key of a normalized key (`/memories` for a top-level entry). */
export function parentOf(key: string): string {
  return key.slice(0, key.lastIndexOf('/'));
}

/** Last segment of a normalized key. */
export function nameOf(key: string): string {
  return key.slice(key.lastIndexOf('/') + 1);
}

/** Names Claude's `view` listing leaves out, with everything below them: dot-names and `node_modules`. */
export function isHiddenName(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

/** True when `key` is `folder` itself or lies below it. Both are normalized keys. */
export function isWithin(key: string, folder: string): boolean {
  return key === folder || key.startsWith(folder + '/');
}

/** Every folder key from `/memories` (excluded) down to the parent of `key`, outermost first. */
export function ancestorsOf(key: string): string[] {
  const out: string[] = [];
  for (let at = key.indexOf('/', MEMORY_ROOT.length + 1); at !== -1; at = key.indexOf('/', at + 1)) {
    out.push(key.slice(0, at));
  }
  return out;
}

/**
 * The normalized key of a memory path (`//`, `/./` and a trailing `/` folded away, names NFC), or a
 * {@link MemoryToolError} `invalid_path` for every spelling R-paths refuses.
 *
 * @example
 * normalizeMemoryPath('/memories//notes/./a.md/') // '/memories/notes/a.md'
 * normalizeMemoryPath('/memories/../etc/passwd')   // throws: would escape /memories
 */
export function normalizeMemoryPath(path: string): string {
  if (typeof path !== 'string') {
    throw new MemoryToolError('invalid_input', reply.invalidInput('a path must be a string'));
  }
  const refuse = (why: string): never => {
    throw new MemoryToolError('invalid_path', reply.badPath(showText(path, SHOWN_PATH_CHARS), why));
  };
  // The raw input is bounded too, far above the key's limit, so no command splits or echoes a string of any size.
  if (utf8Length(path) > RAW_PATH_BYTES) refuse(`it is longer than ${RAW_PATH_BYTES} bytes`);
  if (LONE_SURROGATE.test(path)) refuse('it holds a broken Unicode character');
  if (CONTROL.test(path)) refuse('it holds a control character');
  if (INVISIBLE.test(path) && hidesText(path)) refuse('it holds an invisible character');
  if (path.includes('\\')) refuse('it holds a backslash; use / between folders');
  if (PERCENT_ESCAPE.test(path)) refuse('it holds a percent-escape; write the characters themselves');
  // On the NFC form, so that `=` + U+0338, which is how `≠` may arrive, passes as the `≠` it is stored as.
  if (LOOKALIKE.test(path.normalize('NFC'))) refuse('it holds a character that looks like ".", "/" or "\\"');
  // The literal prefix, as the official tool checks it: `//` and `/./` fold away only below it.
  if (path !== MEMORY_ROOT && !path.startsWith(MEMORY_ROOT + '/')) {
    throw new MemoryToolError('invalid_path', reply.outsideMemories(path));
  }

  const segments: string[] = [];
  for (const raw of path.split('/')) {
    if (raw === '' || raw === '.') continue;
    if (raw === '..') {
      if (climbsOut(path)) throw new MemoryToolError('invalid_path', reply.escapes(path));
      refuse('it holds a ".." segment, refused even where it stays inside /memories; write the path without it');
    }
    const segment = raw.normalize('NFC');
    // NFKC folds full-width and small forms (`．`, `／`, `＼`, `﹒`) to the ASCII they imitate.
    const folded = segment.normalize('NFKC');
    if (/[/\\]/u.test(folded) || dotCount(folded) !== dotCount(segment)) {
      refuse('it holds a character that looks like ".", "/" or "\\"');
    }
    if (PERCENT_ESCAPE.test(folded)) refuse('it holds a percent-escape; write the characters themselves');
    segments.push(segment);
  }

  if (segments.length - 1 > PATH_LIMITS.maxDepth) {
    refuse(`it is ${PAST_LIMITS.depth}`);
  }
  for (const segment of segments) {
    if (utf8Length(segment) > PATH_LIMITS.maxSegmentBytes) {
      refuse(`a name in it is longer than ${PATH_LIMITS.maxSegmentBytes} bytes`);
    }
  }
  const key = '/' + segments.join('/');
  if (utf8Length(key) > PATH_LIMITS.maxPathBytes) {
    refuse(`it is ${PAST_LIMITS.bytes}`);
  }
  return key;
}

/** Levels below the root of a normalized key (`/memories/a` is 1). */
export function depthOf(key: string): number {
  let depth = 0;
  for (let at = key.indexOf('/', 1); at !== -1; at = key.indexOf('/', at + 1)) depth++;
  return depth;
}

/** Which limit a key made without {@link normalizeMemoryPath} (a moved folder's files) is past, if any. */
export function pastPathLimits(key: string): keyof typeof PAST_LIMITS | undefined {
  if (depthOf(key) > PATH_LIMITS.maxDepth) return 'depth';
  if (utf8Length(key) > PATH_LIMITS.maxPathBytes) return 'bytes';
  return undefined;
}

/** Whether an invisible character hides something: anywhere but in an emoji or a script joiner (./README.md). */
function hidesText(path: string): boolean {
  const rest = EMOJI_PARTS.reduce((text, part) => text.replace(part, '$1'), path);
  // The joiner is the match's last unit; the letter before it (maybe outside the BMP) stays.
  return INVISIBLE.test(rest) && INVISIBLE.test(rest.replace(scriptJoiners(), (match) => match.slice(0, -1)));
}

let scriptJoinerPattern: RegExp | undefined;

/** A lone U+200C/U+200D between letters of one JOINER_SCRIPTS script. Built on first use, from the scripts known. */
function scriptJoiners(): RegExp {
  if (scriptJoinerPattern) return scriptJoinerPattern;
  const known = JOINER_SCRIPTS.split(' ').filter((script) => {
    try {
      new RegExp(`\\p{scx=${script}}`, 'u');
      return true;
    } catch {
      return false;
    }
  });
  // A letter or mark of the script, the joiner, and (looked at, not taken) another letter or mark of it. No lookbehind:
  // JavaScriptCore's never matches outside the BMP, where several of these scripts are.
  const letter = '(?=[\\p{L}\\p{M}])';
  const between = known.map((script) => `${letter}\\p{scx=${script}}[\\u200c\\u200d]${letter}(?=\\p{scx=${script}})`);
  scriptJoinerPattern = new RegExp(between.join('|'), 'gu');
  return scriptJoinerPattern;
}

function dotCount(text: string): number {
  let count = 0;
  for (let i = text.indexOf('.'); i !== -1; i = text.indexOf('.', i + 1)) count++;
  return count;
}

/** Whether the `..` segments of `path` (below `/memories`) climb above it, as a file system would resolve them. */
function climbsOut(path: string): boolean {
  let depth = 0;
  for (const segment of path.slice(MEMORY_ROOT.length).split('/')) {
    if (segment === '..') depth--;
    else if (segment !== '' && segment !== '.') depth++;
    if (depth < 0) return true;
  }
  return false;
}

/** Orders keys by UTF-16 code units, as `Array.prototype.sort()` does by default and as listings show them. */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
