// The keys of an encrypted bundle as the options give them: a passphrase or recipients to export to, a passphrase or
// an identity file's text to import with, checked before anything is read or the age code loads.

import { refused } from './refusal.js';
import { bundleReply } from './replies.js';

/** What an encrypted export is encrypted to: age's scrypt recipient, or X25519 (and hybrid) recipients. */
export type AgeTarget = { passphrase: string } | { recipients: readonly string[] };

/** What an import may open an age file with; at least one is set. */
export interface AgeKeys {
  passphrase?: string;
  /** The secret keys of the identity text, in order, comments and blank lines left out. */
  identities: readonly string[];
}

/** The export's target, or undefined for a bundle in the clear. A wrong option is a TypeError (a program's fault). */
export function exportTarget(options: { passphrase?: unknown; recipients?: unknown }): AgeTarget | undefined {
  const { passphrase, recipients } = options;
  if (passphrase !== undefined && recipients !== undefined) {
    throw new TypeError('give a passphrase or recipients, not both: an age file holds one or the other');
  }
  if (passphrase !== undefined) return { passphrase: checkPassphrase(passphrase) };
  if (recipients === undefined) return undefined;
  if (!Array.isArray(recipients) || recipients.length === 0) {
    throw new TypeError('recipients must be a non-empty array of age recipients (age1…)');
  }
  recipients.forEach((recipient: unknown, i) => {
    if (typeof recipient !== 'string') throw new TypeError(`recipients[${i}] must be a string, got ${typeof recipient}`);
  });
  return { recipients: recipients as string[] };
}

/** The import's keys, or undefined when none is given. A malformed identity text is refused as a wrong key. */
export function importKeys(options: { passphrase?: unknown; identity?: unknown }): AgeKeys | undefined {
  const { passphrase, identity } = options;
  if (passphrase === undefined && identity === undefined) return undefined;
  if (identity !== undefined && typeof identity !== 'string') {
    throw new TypeError(`identity must be the text of an age identity file, got ${typeof identity}`);
  }
  return {
    ...(passphrase === undefined ? {} : { passphrase: checkPassphrase(passphrase) }),
    identities: identity === undefined ? [] : identityKeys(identity),
  };
}

/**
 * The secret keys of an identity file as age-keygen writes it (`# created: …`, `# public key: age1…`, then
 * `AGE-SECRET-KEY-1…`), or one bare key line. A line is never echoed: it may be a secret key mistyped.
 */
export function identityKeys(text: string): string[] {
  const keys: string[] = [];
  text.split(/\r?\n/u).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    if (!/^AGE-SECRET-KEY-(?:PQ-)?1[0-9A-Z]+$/u.test(line)) throw refused('', bundleReply.ageNotIdentity(i + 1), 'wrong_key');
    keys.push(line);
  });
  if (keys.length === 0) throw refused('', bundleReply.ageNoIdentity(), 'wrong_key');
  return keys;
}

function checkPassphrase(passphrase: unknown): string {
  if (typeof passphrase !== 'string' || passphrase === '') {
    throw new TypeError(`passphrase must be a non-empty string, got ${typeof passphrase === 'string' ? 'an empty one' : typeof passphrase}`);
  }
  return passphrase;
}
