// Policies that settle some of Claude's writes without asking the person: "allow the rest of this conversation" (by
// the write's `source`) and paths Claude may write freely (`allowPrefixes`); the rest goes to `ask`.

import { isWithin, normalizeMemoryPath } from '../core/paths.js';
import type { ApproveAnswer, ApproveHook, WriteProposal } from './approval.js';

/** What `ask` may answer: an {@link ApproveAnswer}, or `'allow-conversation'` to allow this write and the source's next. */
export type PolicyAnswer = ApproveAnswer | 'allow-conversation';

/** What {@link approvePolicy} takes: who to ask, and the folders that need no asking. */
export interface ApprovePolicyOptions {
  /** Asked for every write the policy does not settle, e.g. the app's review card. */
  ask: (proposal: WriteProposal) => PolicyAnswer | PromiseLike<PolicyAnswer>;
  /** Folders Claude writes without asking: a write is allowed when every path it touches is within one of them. */
  allowPrefixes?: readonly string[] | undefined;
}

/** An `approve` hook with its remembered conversations; pass `approve` to `IndexedDBMemoryTool.init`. */
export interface ApprovePolicy {
  /** The hook to pass as `approve` to `IndexedDBMemoryTool.init`. */
  approve: ApproveHook;
  /** Allows, without asking, every later write whose `source` is `source` (a conversation id). */
  allowConversation(source: string): void;
  /** Asks again for `source`'s writes. */
  revokeConversation(source: string): void;
  /** Whether `source`'s writes are allowed without asking. */
  allowsConversation(source: string): boolean;
}

/**
 * Composes an `approve` hook: writes within `allowPrefixes`, and those of a conversation allowed for the rest of it,
 * are allowed; the rest go to `ask`.
 *
 * @example
 * const policy = approvePolicy({ ask: showReviewCard, allowPrefixes: ['/memories/scratch'] });
 * const tool = await IndexedDBMemoryTool.init({ approve: policy.approve });
 */
export function approvePolicy(options: ApprovePolicyOptions): ApprovePolicy {
  // Normalized once, so `/memories/scratch/` and `/memories/scratch` are one folder; a bad path throws here.
  const prefixes = (options.allowPrefixes ?? []).map((prefix) => normalizeMemoryPath(prefix));
  const allowed = new Set<string>();
  const within = (proposal: WriteProposal): boolean => {
    const paths = [proposal.path, ...(proposal.newPath === undefined ? [] : [proposal.newPath])];
    return prefixes.length > 0 && paths.every((path) => prefixes.some((prefix) => isWithin(path, prefix)));
  };
  return {
    approve: async (proposal) => {
      if (within(proposal)) return 'allow';
      if (proposal.source !== undefined && allowed.has(proposal.source)) return 'allow';
      const answer = await options.ask(proposal);
      if (answer !== 'allow-conversation') return answer;
      if (proposal.source !== undefined) allowed.add(proposal.source);
      return 'allow';
    },
    allowConversation: (source) => void allowed.add(source),
    revokeConversation: (source) => void allowed.delete(source),
    allowsConversation: (source) => allowed.has(source),
  };
}
