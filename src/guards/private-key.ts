// The private key block pattern: its header, then a body as keys are pasted (plain, JSON-escaped, armored, quoted in
// an email, listed in markdown). Each part reads a bounded stretch, or text no other header's try reads (./README.md).

/** The header line: a few kind words (`RSA`, `OPENSSH`, `ENCRYPTED`), then `PRIVATE KEY`. */
const HEADER = String.raw`-----BEGIN (?:[A-Z0-9]{1,16} ){0,4}PRIVATE KEY(?: BLOCK)?-----`;

/**
 * Between the header and the body: whitespace, JSON-escaped line breaks, and the marks quoted (`> `) or listed
 * (`- `, `* `) lines start with. A `-` only before a space, so that no header (`-----`) is inside.
 */
const GAP = String.raw`(?:\s|\\[rn]|>|[-*](?=[ \t]))*`;

/** An armor header line (`Proc-Type: 4,ENCRYPTED`, `Version: GnuPG v2`), at most a line's length. */
const ARMOR = String.raw`[A-Z][A-Za-z-]{0,63}:[^\n\\]{0,256}(?:\n|\\n)`;

/** A line break, real or JSON-escaped. */
const BREAK = String.raw`(?:\r?\n|\\r?\\n)`;

/** What a line of the body may start with: spaces, email quote marks, then one list mark. */
const LEAD = String.raw`[ \t>]*(?:[-*][ \t]+)?`;

/**
 * A line of base64 (`\/` as some JSON writers escape `/`; `.` for `MIIE...` elided keys), with no space inside: prose
 * between a header and an END line ("and ends with") is no body. Each line reads one way only, so a failed attempt
 * backtracks once through it.
 */
const LINE = String.raw`${LEAD}(?:(?:[A-Za-z0-9+/=.]|\\/)+[ \t]*)?${BREAK}`;

/**
 * A private key block: the header, then 20 base64 characters (after the gap and up to eight armor lines), or a line
 * break and body lines to an `-----END ` line. A header alone, as prose names it, is no key.
 */
export const PRIVATE_KEY = new RegExp(
  `${HEADER}(?:${GAP}(?:${ARMOR}${GAP}){0,8}[A-Za-z0-9+/]{20}|[ \\t]*${BREAK}(?:${LINE})*?${LEAD}-----END )`,
  'u',
);
