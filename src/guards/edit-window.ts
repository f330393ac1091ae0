// The secret check around an edit: what it changed and the text near it, where a secret it completes would be.

import { findSecret } from './secrets.js';

/**
 * How far around an edit the secret check looks, in characters that are not whitespace: further than any credential
 * is written out in practice.
 */
export const SECRET_CONTEXT = 512;

/** Whether a UTF-16 unit is whitespace as the patterns' `\s` reads it: a gap they bridge costs the window nothing. */
function isSpace(unit: number): boolean {
  if (unit <= 0x20) return unit === 0x20 || (unit >= 0x09 && unit <= 0x0d);
  if (unit < 0xa0) return false;
  return (
    unit === 0xa0 ||
    unit === 0x1680 ||
    (unit >= 0x2000 && unit <= 0x200a) ||
    unit === 0x2028 ||
    unit === 0x2029 ||
    unit === 0x202f ||
    unit === 0x205f ||
    unit === 0x3000 ||
    unit === 0xfeff
  );
}

/**
 * {@link findSecret} on an edit's span and {@link SECRET_CONTEXT} characters either side, whitespace not counted (a
 * label and its value may be any gap apart), then widened to whitespace so no word is cut.
 */
export function findSecretAround(text: string, from: number, to: number): string | undefined {
  let start = from;
  for (let left = SECRET_CONTEXT; start > 0 && left > 0; start--) if (!isSpace(text.charCodeAt(start - 1))) left--;
  let end = to;
  for (let left = SECRET_CONTEXT; end < text.length && left > 0; end++) if (!isSpace(text.charCodeAt(end))) left--;
  const startLimit = Math.max(0, start - SECRET_CONTEXT);
  const endLimit = Math.min(text.length, end + SECRET_CONTEXT);
  while (start > startLimit && !isSpace(text.charCodeAt(start - 1))) start--;
  while (end < endLimit && !isSpace(text.charCodeAt(end))) end++;
  return findSecret(text.slice(start, end));
}
