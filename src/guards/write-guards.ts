// The checks every text passes before it is stored, synchronous since they run inside the write's transaction.

import { MemoryToolError } from '../core/errors.js';
import { reply } from '../core/replies.js';
import { describeValue } from '../core/shown-text.js';
import { findSecretAround } from './edit-window.js';
import { findPathSecret, pathSecretRefusal } from './path-secrets.js';
import { findSecret } from './secrets.js';

/** A text about to be stored, as `beforeWrite` is shown it. */
export interface BeforeWrite {
  /** The path as Claude sent it. */
  path: string;
  /** Its normalized key. */
  key: string;
  /** The whole text the file would hold. */
  content: string;
  /** The command that writes it (a sync pull or a bundle's new file is checked as a `create`). */
  command: 'create' | 'str_replace' | 'insert';
  /** For `str_replace` and `insert`: the span of `content` the edit wrote (UTF-16 offsets, `to` exclusive). */
  changed?: {
    /** Where the written span starts in `content`. */
    from: number;
    /** Where it ends, exclusive. */
    to: number;
  };
}

/** `beforeWrite`: return a string to store instead, nothing to keep the text, or throw to refuse (Claude reads why). */
export type BeforeWriteHook = (write: BeforeWrite) => string | undefined | void;

export interface WriteGuards {
  /** The refusal for a secret, or undefined; pure, so it may run while the reads are under way. */
  screen: (write: BeforeWrite) => MemoryToolError | undefined;
  /** The refusal for a new path (`create`'s, `rename`'s destination) holding a secret, or undefined; pure. */
  screenPath: (command: 'create' | 'rename', key: string) => MemoryToolError | undefined;
  /** The kind of secret a path holds, or undefined (always, with the filter off): for each path a bundle brings. */
  pathSecret: (key: string) => string | undefined;
  /** The text to store (the hook may rewrite it); throws to refuse. */
  filter: (write: BeforeWrite) => string;
  /** Whether `filter` can rewrite or refuse anything (a hook is set). */
  rewrites: boolean;
}

export function writeGuards(blockSecrets: boolean, hook: BeforeWriteHook | undefined): WriteGuards {
  const pathSecret = (key: string): string | undefined => (blockSecrets ? findPathSecret(key) : undefined);
  return {
    screen: (write) => {
      if (!blockSecrets) return undefined;
      const secret = write.changed
        ? findSecretAround(write.content, write.changed.from, write.changed.to)
        : findSecret(write.content);
      return secret ? new MemoryToolError('forbidden', reply.secret(write.path, secret)) : undefined;
    },
    screenPath: (command, key) => {
      const secret = pathSecret(key);
      return secret ? pathSecretRefusal(command, secret) : undefined;
    },
    pathSecret,
    filter: (write) => (hook ? applyHook(hook, write) : write.content),
    rewrites: hook !== undefined,
  };
}

function applyHook(hook: BeforeWriteHook, write: BeforeWrite): string {
  let rewritten: string | undefined | void;
  try {
    rewritten = hook(write);
  } catch (error) {
    if (error instanceof MemoryToolError) throw error;
    const why = error instanceof Error ? error.message : String(error);
    throw new MemoryToolError('forbidden', reply.beforeWriteRefused(write.path, why), { cause: error });
  }
  if (rewritten === undefined) return write.content;
  // Its own code: thrown inside the transaction, a TypeError would be reported as `storage`, blaming the browser.
  if (typeof rewritten !== 'string') {
    throw new MemoryToolError('invalid_hook', reply.beforeWriteInvalid(write.path, describeValue(rewritten, 80)));
  }
  return rewritten;
}
