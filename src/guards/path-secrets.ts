// The secret check on paths: a key as a file or folder name would be shown in every listing Claude reads.

import { MemoryToolError } from '../core/errors.js';
import { findSecret } from './secrets.js';

/**
 * The kind of secret a normalized path holds, or undefined: the same patterns and placeholders as for text. For
 * every path a write makes: `create`'s and `rename`'s new path here, and each path of a bundle import.
 */
export function findPathSecret(key: string): string | undefined {
  return findSecret(key);
}

/**
 * Claude's refusal of a path holding a secret. The path is not echoed: it is the secret, and the reply stays in the
 * conversation.
 */
export function pathSecretRefusal(command: 'create' | 'rename', kind: string): MemoryToolError {
  const act = command === 'create' ? 'write a file at that path' : 'rename to that path';
  return new MemoryToolError(
    'forbidden',
    `Refused to ${act}: it looks like it contains ${kind}. Do not put API keys, passwords, tokens or private keys in ` +
      'file or folder names, which every listing shows; choose a name without the secret. Nothing was changed.',
  );
}
