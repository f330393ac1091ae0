// The secret filter as one part of the tool (`blockSecrets`): the checks of texts and names that refuse a secret.
// The tool loads it with import() in init() beside the database's opening; the worker entry imports it (./README.md).

import { MemoryToolError } from '../core/errors.js';
import { reply } from '../core/replies.js';
import { findSecretAround } from './edit-window.js';
import { findPathSecret, pathSecretRefusal } from './path-secrets.js';
import { findSecret } from './secrets.js';
import type { SecretScreens } from './write-guards.js';

/** The screens of a tool with `blockSecrets` on. */
export const secretScreens: SecretScreens = {
  screen: (write) => {
    const secret = write.changed
      ? findSecretAround(write.content, write.changed.from, write.changed.to)
      : findSecret(write.content);
    return secret ? new MemoryToolError('forbidden', reply.secret(write.path, secret)) : undefined;
  },
  screenPath: (command, key) => {
    const secret = findPathSecret(key);
    return secret ? pathSecretRefusal(command, secret) : undefined;
  },
  pathSecret: findPathSecret,
};
