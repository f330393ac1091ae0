// Writes src/path-unicode.ts, the Unicode data the path validator (src/paths.ts) needs, from the Unicode
// Character Database. Run by hand when moving to a new Unicode version; nothing runs it in a build or a test:
//
//   node test/scripts/generate-path-unicode.mjs DIR
//
// DIR holds these files of one Unicode version, as Unicode publishes them (its ucd/, security/ and emoji/
// folders): confusables.txt, IdentifierStatus.txt, UnicodeData.txt, Scripts.txt, DerivedJoiningType.txt,
// PropertyValueAliases.txt, emoji-sequences.txt. The output is plain data, so the library gains no dependency.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node test/scripts/generate-path-unicode.mjs DIR-WITH-UCD-FILES');
  process.exit(2);
}
const out = new URL('../../src/path-unicode.ts', import.meta.url);

const text = (name) => readFileSync(join(dir, name), 'utf8');
const hex = (cp) => cp.toString(16).toUpperCase().padStart(4, '0');
const chars = (codes) => String.fromCodePoint(...codes);

/** The data lines of a UCD file: fields split on `;`, trimmed, comment dropped. */
function rows(name) {
  const result = [];
  for (const line of text(name).split('\n')) {
    const body = line.split('#')[0].trim();
    if (body) result.push(body.split(';').map((field) => field.trim()));
  }
  return result;
}

/** A `XXXX..YYYY ; value` file as a code point → value lookup. */
function rangeLookup(name) {
  const ranges = rows(name).map(([span, value]) => {
    const [from, to = from] = span.split('..').map((h) => parseInt(h, 16));
    return { from, to, value };
  });
  return (cp) => ranges.find((r) => cp >= r.from && cp <= r.to)?.value;
}

function versionOf(name) {
  const match = /^# Version: ([\d.]+)/m.exec(text(name)) ?? /-(\d+\.\d+\.\d+)\.txt/.exec(text(name));
  if (!match) throw new Error(`no version line in ${name}`);
  return match[1];
}

// UnicodeData.txt: names, general categories and combining classes (ranges given as First/Last pairs).
const unicodeData = new Map();
{
  let first = -1;
  for (const line of text('UnicodeData.txt').split('\n')) {
    if (!line) continue;
    const [code, name, gc, ccc] = line.split(';');
    const cp = parseInt(code, 16);
    if (name.endsWith(', First>')) first = cp;
    else if (name.endsWith(', Last>')) for (let c = first; c <= cp; c++) unicodeData.set(c, { name, gc, ccc: +ccc });
    else unicodeData.set(cp, { name, gc, ccc: +ccc });
  }
}
const nameOf = (cp) => {
  const name = unicodeData.get(cp)?.name ?? '';
  return name.startsWith('<CJK Ideograph') ? `CJK UNIFIED IDEOGRAPH-${hex(cp)}` : name;
};
/** A string as its code points: `002F 0304`. */
const codes = (s) => [...s].map((c) => hex(c.codePointAt(0))).join(' ');
/** Text for an ASCII comment: printable ASCII as is, the rest as `\uXXXX`. */
const ascii = (s) =>
  [...s].map((ch) => (/[\x20-\x7e]/u.test(ch) ? ch : `\\u${hex(ch.codePointAt(0)).toLowerCase()}`)).join('');

const version = versionOf('confusables.txt');
for (const name of ['IdentifierStatus.txt', 'Scripts.txt', 'emoji-sequences.txt']) {
  // emoji files say 17.0 where the others say 17.0.0.
  if (!version.startsWith(versionOf(name))) throw new Error(`${name} is Unicode ${versionOf(name)}, not ${version}`);
}

// 1. Lookalikes of `.`, `/` and `\`: every confusables.txt entry whose prototype holds one of them, and the
//    combining overlays that draw `/` or `\` through the character before them (confusables.txt, which maps
//    marks to marks, has them as prototypes only).
const TARGETS = ['.', '/', '\\'];
const OVERLAYS = [0x0338, 0x20e5, 0x20eb]; // long solidus, reverse solidus, long double solidus overlay
const identifierStatus = rangeLookup('IdentifierStatus.txt');
const confusables = rows('confusables.txt').map(([source, prototype]) => ({
  cp: parseInt(source, 16),
  prototype: chars(prototype.split(' ').map((h) => parseInt(h, 16))),
}));
// An overlay counts only alone: `Ø` has the prototype O + U+0338 and is a letter, not a slash.
const drawn = (s) => TARGETS.some((t) => s.includes(t)) || OVERLAYS.some((o) => s === String.fromCodePoint(o));

const kept = []; // [code point, why]
const left = []; // [code point, why]
for (const { cp, prototype } of confusables) {
  if (!drawn(prototype)) continue;
  const ch = String.fromCodePoint(cp);
  const folded = ch.normalize('NFKC');
  if (cp < 0x80) left.push([cp, `ASCII (prototype ${codes(prototype)})`]);
  else if (prototype.startsWith('\u00ba/')) left.push([cp, `a percent sign (prototype ${codes(prototype)})`]);
  else if (identifierStatus(cp) === 'Allowed') left.push([cp, 'Identifier_Status Allowed']);
  else if (TARGETS.some((t) => folded.includes(t))) left.push([cp, `NFKC: "${ascii(folded)}"`]);
  else kept.push([cp, `confusables.txt: ${codes(prototype)}`]);
}
for (const cp of OVERLAYS) kept.push([cp, 'overlay']);
// Additions the data does not give: its mirror U+2571 is a confusable of `/` and this one is not; and the word
// separator issue 20 reported (confusables.txt maps it to U+00B7 MIDDLE DOT, which stays valid).
kept.push([0x2572, 'added: the mirror of 2571, drawn as \\']);
kept.push([0x2e31, 'added: issue 20 (confusables.txt: 00B7)']);

const seen = new Set();
const lookalikes = kept
  .filter(([cp]) => !seen.has(cp) && seen.add(cp))
  .sort((a, b) => a[0] - b[0]);
for (const [cp] of lookalikes) {
  const ch = String.fromCodePoint(cp);
  // The validator tests the NFC form of a path: a character NFC would compose or change would slip by.
  if (ch.normalize('NFC') !== ch || ch.normalize('NFD') !== ch) throw new Error(`U+${hex(cp)} is not NFC-stable`);
}

// 2. Scripts in which U+200C/U+200D may stand between two letters: those with a virama (combining class 9)
//    or with dual-joining letters, the two contexts where IDNA2008 (RFC 5892, CONTEXTJ) allows a joiner.
const scriptOf = rangeLookup('Scripts.txt');
const joiningType = rangeLookup('DerivedJoiningType.txt');
const alias = new Map(rows('PropertyValueAliases.txt').filter(([p]) => p === 'sc').map(([, short, long]) => [long, short]));
const joinerScripts = new Map(); // long name -> why
for (const [cp, { ccc }] of unicodeData) {
  const script = scriptOf(cp);
  if (!script || script === 'Common' || script === 'Inherited') continue;
  if (ccc === 9) joinerScripts.set(script, 'virama');
  else if (joiningType(cp) === 'D' && !joinerScripts.has(script)) joinerScripts.set(script, 'dual-joining letters');
}
const scripts = [...joinerScripts.entries()]
  .map(([long, why]) => ({ long, short: alias.get(long), why }))
  .sort((a, b) => a.short.localeCompare(b.short));

// 3. Subdivision flags: the RGI emoji tag sequences, as the ASCII their tag characters spell.
const flags = rows('emoji-sequences.txt')
  .filter(([, type]) => type === 'RGI_Emoji_Tag_Sequence')
  .map(([sequence, , name]) => {
    const cps = sequence.split(' ').map((h) => parseInt(h, 16));
    if (cps[0] !== 0x1f3f4 || cps.at(-1) !== 0xe007f) throw new Error(`unexpected tag sequence ${sequence}`);
    return { tag: chars(cps.slice(1, -1).map((cp) => cp - 0xe0000)), name };
  });

// The module, ASCII only: each character written as an escape.
const escape = (cp) => (cp > 0xffff ? `\\u{${cp.toString(16)}}` : `\\u${cp.toString(16).padStart(4, '0')}`);
const lines = [
  `// Generated by test/scripts/generate-path-unicode.mjs from Unicode ${version} data (UTS #39 confusables.txt and`,
  `// IdentifierStatus.txt; UnicodeData.txt, Scripts.txt, DerivedJoiningType.txt, PropertyValueAliases.txt; UTS #51`,
  '// emoji-sequences.txt). Do not edit: change the script and run it again. Used by src/paths.ts.',
  '',
  '// LOOKALIKE: each confusables.txt entry whose prototype holds `.`, `/` or `\\` (002E, 002F, 005C), and the',
  '// combining overlays that draw `/` or `\\` through the character before them (0338, 20E5, 20EB: marks, which',
  '// confusables.txt gives no prototype of their own). Left out on purpose (listed at the end):',
  '// - letters and digits of scripts in modern use (UTS #39 Identifier_Status Allowed), which merely resemble the',
  '//   ASCII: Katakana NO (`\\u30ce\\u30fc\\u30c8.md`), the CJK ideographs 4E36 and 4E3F, the Arabic-Indic zeros',
  '//   0660 and 06F0 that Arabic and Persian numbers need. Refusing them would refuse ordinary names;',
  '// - percent and per-mille signs: their prototype 00BA 002F 2080 only names the stroke in a `%`;',
  '// - characters NFKC folds to text holding `.`, `/` or `\\` (2024, 2025, 2488, FF3C, ...): the validator folds',
  '//   each name with NFKC and refuses those already.',
  '// Added by hand: 2572, which draws as `\\` (its mirror 2571 is listed, it is not), and 2E31, named in issue 20',
  '// (confusables.txt maps it to 00B7 MIDDLE DOT, which stays valid, as do Katakana 30FB and ideographic 3002).',
  '//',
  ...lookalikes.map(([cp, why]) => `//   U+${hex(cp)} ${nameOf(cp)}: ${why}`),
  '//',
  '// Left out:',
  ...left.sort((a, b) => a[0] - b[0]).map(([cp, why]) => `//   U+${hex(cp)} ${nameOf(cp)}: ${why}`),
  '',
  '/** Characters that read as `.`, `/` or `\\` and that NFKC leaves alone (see above); tested on NFC text. */',
  'export const LOOKALIKE = new RegExp(',
  ...chunks(lookalikes.map(([cp]) => escape(cp).replace('\\', '\\\\')), 14).map(
    (part, i, all) => `  '${i === 0 ? '[' : ''}${part.join('')}${i === all.length - 1 ? "]'," : "' +"}`,
  ),
  "  'u',",
  ');',
  '',
  '// JOINER_SCRIPTS: the scripts (Script_Extensions short names) with a virama (combining class 9) or with',
  '// dual-joining letters: those where the joiner rules of IDNA2008 (RFC 5892, appendix A.1 and A.2) can allow',
  '// U+200C or U+200D, as there a joiner changes how two letters are drawn (a Persian ZWNJ, a Devanagari half form).',
  '// An engine older than a script cannot compile its name; src/paths.ts then leaves that script out.',
  ...wrap(scripts.map((s) => `${s.short} ${s.long} (${s.why})`).join(', '), '//   '),
  '',
  '/** Scripts whose letters a U+200C or U+200D may stand between (space-separated Script_Extensions names). */',
  ...wrapString('JOINER_SCRIPTS', scripts.map((s) => s.short).join(' ')),
  '',
  `// SUBDIVISION_FLAGS: the RGI emoji tag sequences (${flags.map((f) => f.name).join(', ')}): U+1F3F4, the tag`,
  '// characters of these letters, U+E007F. Any other tag sequence draws as a bare black flag and hides its text.',
  '',
  '/** The subdivision flags, as the ASCII their tag characters spell (space-separated). */',
  `export const SUBDIVISION_FLAGS = '${flags.map((f) => f.tag).join(' ')}';`,
  '',
];

function chunks(list, size) {
  return Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, i * size + size));
}

function wrap(list, prefix) {
  const result = [];
  let line = prefix;
  for (const word of list.split(' ')) {
    if (line.length + word.length + 1 > 112 && line !== prefix) {
      result.push(line.trimEnd());
      line = prefix;
    }
    line += word + ' ';
  }
  result.push(line.trimEnd());
  return result;
}

function wrapString(name, value) {
  const parts = wrap(value, '');
  return [`export const ${name} =`, ...parts.map((p, i) => (i < parts.length - 1 ? `  '${p} ' +` : `  '${p}';`))];
}

writeFileSync(out, lines.join('\n'));
console.log(`wrote ${out.pathname}: ${lookalikes.length} lookalikes (${left.length} left out), ${scripts.length} scripts, ${flags.length} flags`);
