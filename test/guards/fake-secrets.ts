// Fake secrets for the guards tests, built at run time so that no test file holds a string a secret scanner would
// flag. Their bodies look random, as real keys do: a body of one repeated character is a placeholder the check
// lets through (src/guards/placeholders.ts).

export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const BASE64 = `${ALNUM}+/`;
export const HEX = '0123456789abcdef';

/** `length` characters of `alphabet` that look random: the same for the same arguments (a fixed LCG). */
export function body(length: number, alphabet = ALNUM, seed = 1): string {
  let state = (seed * 2654435761 + length) >>> 0;
  let out = '';
  while (out.length < length) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const next = alphabet[(state >>> 8) % alphabet.length] ?? '';
    // Never eight of one character in a row, which a placeholder has.
    if (out.length >= 7 && out.slice(-7) === next.repeat(7)) continue;
    out += next;
  }
  return out;
}

export const fake = (prefix: string, rest: string): string => prefix + rest;

/** The start of every OpenSSH private key's body (`openssh-key-v1`, cipher `none`): runs of `A`, no secret. */
export const OPENSSH_BODY_START = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW';

/** A private key block's first and last lines (`RSA`, `PGP` with ` BLOCK`), built so that this file holds none. */
export const pemHeader = (kind: string, tail = ''): string => `-----BEGIN ${kind ? `${kind} ` : ''}${'PRIVATE'} KEY${tail}-----`;
export const pemFooter = (kind: string, tail = ''): string => `-----END ${kind ? `${kind} ` : ''}${'PRIVATE'} KEY${tail}-----`;
