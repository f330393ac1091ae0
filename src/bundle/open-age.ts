// An import's first step when its input is an age file: the key checked against what was given, the size bounded,
// then decrypted to the bundle inside, which goes through every check a bundle in the clear does.

import type { ResolvedLimits } from '../core/limits.js';
import { ageKind, maxAgeBytes } from './age-format.js';
import type { AgeKeys } from './age-keys.js';
import { loadAgeCrypto } from './age-part.js';
import { refused } from './refusal.js';
import { bundleReply } from './replies.js';

/**
 * The bundle `input` holds: decrypted if it is an age file, as it is otherwise. A key given for a bundle in the
 * clear is refused: a caller that gives one counts on the file being encrypted (a swapped file would pass unseen).
 */
export async function openIfEncrypted(
  input: Blob | string,
  keys: AgeKeys | undefined,
  limits: Readonly<ResolvedLimits>,
  signal?: AbortSignal,
): Promise<Blob | string> {
  const kind = await ageKind(input);
  if (kind === undefined) {
    if (keys !== undefined) throw refused('', bundleReply.notEncrypted());
    return input;
  }
  if (keys === undefined) throw refused('', bundleReply.ageKeyNeeded(), 'key_needed');
  // The armored form is base64 in lines of 64: a third larger, and a little more.
  const limit = kind === 'armored' ? Math.ceil((maxAgeBytes(limits) * 4) / 3) + 2 * 1024 * 1024 : maxAgeBytes(limits);
  const size = typeof input === 'string' ? input.length : input.size;
  if (size > limit) throw refused('', bundleReply.ageTooLarge(size, limit), 'too_large');
  const age = await loadAgeCrypto();
  signal?.throwIfAborted();
  return age.decryptBlob(input, kind === 'armored', keys, signal);
}
