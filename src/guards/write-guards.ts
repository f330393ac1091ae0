// The checks every text passes before it is stored, synchronous since they run inside the write's transaction.

import { MemoryToolError } from '../core/errors.js';
import { reply } from '../core/replies.js';

/** A text about to be stored, as `beforeWrite` is shown it. */
export interface BeforeWrite {
  /** The path as Claude sent it. */
  path: string;
  /** Its normalized key. */
  key: string;
  /** The whole text the file would hold. */
  content: string;
  command: string;
  /** For `str_replace` and `insert`: the span of `content` the edit wrote (UTF-16 offsets, `to` exclusive). */
  changed?: { from: number; to: number };
}

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

/** The secret check's part of the guards: `./secret-filter.ts` with `blockSecrets` on, nothing refused with it off. */
export type SecretScreens = Pick<WriteGuards, 'screen' | 'screenPath' | 'pathSecret'>;

const NO_SCREENS: SecretScreens = {
  screen: () => undefined,
  screenPath: () => undefined,
  pathSecret: () => undefined,
};

/** The guards of a tool: `secrets` (the loaded filter, or undefined with `blockSecrets: false`) and the app's hook. */
export function writeGuards(secrets: SecretScreens | undefined, hook: BeforeWriteHook | undefined): WriteGuards {
  return {
    ...(secrets ?? NO_SCREENS),
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
  if (typeof rewritten !== 'string') throw new TypeError('beforeWrite must return a string or nothing');
  return rewritten;
}
