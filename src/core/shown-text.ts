// How a refusal echoes a string it was given: hidden characters written out as escapes, a long string cut.

// Controls, line separators, default-ignorables, annotation controls, the braille blank, and a lone surrogate.
const HIDDEN =
  String.raw`[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Default_Ignorable_Code_Point}\ufff9-\ufffb\u2800]` +
  String.raw`|[\ud800-\udfff]`;
const SHOWN = new RegExp(HIDDEN, 'gu');
// In quotes, `"` and `\` are escaped too, so the quoted text ends where it seems to and an escape is never ambiguous.
const QUOTED = new RegExp(String.raw`["\\]|${HIDDEN}`, 'gu');
// What a cut may leave at its end: an escape cut short, or half of a surrogate pair.
const BROKEN_END = /(?<=(?:^|[^\\])(?:\\\\)*)\\(?:u(?:\{[0-9a-f]*|[0-9a-f]{0,3}))?$|[\ud800-\udbff]$/u;

/** `text` as a refusal echoes it: hidden characters as `\u` escapes, cut past `max` but never inside an escape. */
export function showText(text: string, max = 200): string {
  return cut(text.replace(SHOWN, escape), max);
}

/** `text` in double quotes, as a bundle refusal names a value: `"` and `\` escaped, the rest as {@link showText}. */
export function quoteText(text: string, max = 200): string {
  return `"${cut(text.replace(QUOTED, escape), max)}"`;
}

/** A short, safe description of a value: a string quoted, a primitive as written, anything else by its kind. */
export function describeValue(value: unknown, max = 200): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return quoteText(value, max);
  if (typeof value === 'function' || typeof value === 'symbol') return `a ${typeof value}`;
  if (typeof value !== 'object' || value === null) return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof (value as { arrayBuffer?: unknown }).arrayBuffer === 'function' ? 'a Blob-like object' : 'an object';
}

function escape(ch: string): string {
  if (ch === '"' || ch === '\\') return `\\${ch}`;
  const code = ch.codePointAt(0) ?? 0;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

function cut(shown: string, max: number): string {
  if (shown.length <= max) return shown;
  const kept = shown.slice(0, max).replace(BROKEN_END, '');
  return `${kept}… (${shown.length - kept.length} more characters)`;
}
