// UTF-8 sizes without encoding (a copy to count a megabyte file would double a write's memory); well-formed text.

const ASCII = /^[\u0000-\u007f]*$/u;

/** Bytes `text` takes as UTF-8 (a lone surrogate counts as the 3 bytes of U+FFFD, as TextEncoder writes it). */
export function utf8Length(text: string): number {
  // Most memory text is ASCII, where bytes equal characters: one native scan instead of a loop in JS.
  if (ASCII.test(text)) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (isHighSurrogate(unit) && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (isLowSurrogate(next)) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

const LONE_SURROGATE = /[\ud800-\udfff]/gu;

/** `text` with each lone surrogate as U+FFFD, as a file written as UTF-8 and read back has it; same length. */
export function wellFormed(text: string): string {
  const native = text as { isWellFormed?: () => boolean; toWellFormed?: () => string };
  // Native where the engine has it (ES2024: a one-byte string is answered at once); a regex scan elsewhere.
  if (native.isWellFormed && native.toWellFormed) return native.isWellFormed() ? text : native.toWellFormed();
  return text.replace(LONE_SURROGATE, '\ufffd');
}

/** The first half of a surrogate pair (an emoji, a rare CJK character). */
export const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
/** The second half of a surrogate pair. */
export const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;
