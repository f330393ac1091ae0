// The three context-management edits an agent can ask for (clearing thinking, clearing tool uses, compaction):
// checked, composed into one `context_management` in the order the API takes them, with the betas each needs.

import type {
  BetaClearThinking20251015Edit,
  BetaClearThinking20251015EditResponse,
  BetaClearToolUses20250919Edit,
  BetaClearToolUses20250919EditResponse,
  BetaCompact20260112Edit,
  BetaContextManagementConfig,
  BetaContextManagementResponse,
  BetaInputTokensTrigger,
  BetaMessageParam,
  BetaThinkingConfigParam,
} from '../core/sdk-types.js';
import { lastCompactionAt } from './conversation.js';
import { checkClearThinking, checkClearToolUses, checkCompactionTrigger, known } from './edit-checks.js';

/** The beta that clearing tool uses and thinking needs; sent only with `contextManagement` or `clearThinking`. */
export const CONTEXT_MANAGEMENT_BETA = 'context-management-2025-06-27';
/** The beta of server-side compaction, the `compact_20260112` edit; sent only with `compaction`. */
export const COMPACTION_BETA = 'compact-2026-01-12';
/** The beta of compaction on request (`agent.compact()`, the SDK runner's `compactBeforeNextTurn()`). */
export const COMPACT_NOW_BETA = 'compact-2026-09-04';

/** `T`'s fields, each taking an explicit `undefined` too (the SDK's own types do not), read as absent. */
type OrUndefined<T> = { [K in keyof T]?: T[K] | undefined };

/** Context editing's `clear_tool_uses_20250919` edit, without its `type`; `true` takes the API's defaults. */
export type ContextManagementOption = boolean | OrUndefined<Omit<BetaClearToolUses20250919Edit, 'type'>>;

/** The `clear_thinking_20251015` edit, without its `type`; `true` takes the API's default. */
export type ClearThinkingOption = boolean | OrUndefined<Omit<BetaClearThinking20251015Edit, 'type'>>;

/** Server-side compaction, the `compact_20260112` edit; `true` takes the API's defaults. */
export type CompactionOption =
  | boolean
  | {
      /** When the API compacts: 50,000 input tokens at least (the API's minimum). Default (the API's): 150,000. */
      trigger?: BetaInputTokensTrigger | undefined;
      /** Replaces the API's instructions for writing the summary. */
      instructions?: string | undefined;
      /** The API answers with the summary alone (`stop_reason: 'compaction'`); the agent then goes on by itself. */
      pauseAfterCompaction?: boolean | undefined;
    };

export interface ContextEditOptions {
  contextManagement?: ContextManagementOption | undefined;
  clearThinking?: ClearThinkingOption | undefined;
  compaction?: CompactionOption | undefined;
  thinking?: BetaThinkingConfigParam | undefined;
}

export interface ContextEdits {
  /** Absent when no edit is asked for. */
  context_management?: { edits: NonNullable<BetaContextManagementConfig['edits']> };
  betas: string[];
  /** Whether the API compacts by itself (the `compact_20260112` edit is on). */
  compacts: boolean;
}

/** What the API cleared from one request, summed over its applied edits. */
export interface ClearedContext {
  toolUses: number;
  thinkingTurns: number;
  tokens: number;
  edits: Array<BetaClearToolUses20250919EditResponse | BetaClearThinking20251015EditResponse>;
}

const CLEAR_TOOL_USES_KEYS = ['trigger', 'keep', 'clear_at_least', 'clear_tool_inputs', 'exclude_tools'];
const CLEAR_THINKING_KEYS = ['keep'];
const COMPACTION_KEYS = ['trigger', 'instructions', 'pauseAfterCompaction'];

/**
 * The edits asked for, in the API's order: `clear_thinking_20251015` first (the API refuses it anywhere else), then
 * `clear_tool_uses_20250919`, then `compact_20260112`, which summarizes what the others left. Throws a TypeError for an
 * unknown key or a pair the API refuses, before any request.
 */
export function contextEdits(options: ContextEditOptions): ContextEdits {
  const { contextManagement, clearThinking, compaction, thinking } = options;
  const edits: NonNullable<BetaContextManagementConfig['edits']> = [];
  const betas: string[] = [];
  if (clearThinking) {
    if (thinking?.type === 'disabled') {
      throw new TypeError('`clearThinking` with `thinking: { type: "disabled" }`: there is no thinking to clear.');
    }
    const fields = clearThinking === true ? {} : known('clearThinking', clearThinking, CLEAR_THINKING_KEYS);
    checkClearThinking(fields);
    edits.push({ ...definedFields(fields), type: 'clear_thinking_20251015' });
  }
  if (contextManagement) {
    const fields =
      contextManagement === true ? {} : known('contextManagement', contextManagement, CLEAR_TOOL_USES_KEYS);
    checkClearToolUses(fields);
    edits.push({ ...definedFields(fields), type: 'clear_tool_uses_20250919' });
  }
  if (edits.length > 0) betas.push(CONTEXT_MANAGEMENT_BETA);
  if (compaction) {
    edits.push(compactEdit(compaction));
    betas.push(COMPACTION_BETA);
  }
  return { ...(edits.length > 0 ? { context_management: { edits } } : {}), betas, compacts: Boolean(compaction) };
}

/** The betas of a request that sends `history`: a summary made on request needs its own beta to be sent back. */
export function betasFor(edits: ContextEdits, history: BetaMessageParam[]): string[] {
  return !edits.compacts && lastCompactionAt(history) >= 0 ? [...edits.betas, COMPACT_NOW_BETA] : edits.betas;
}

/** What the API cleared before Claude read the request, from a message's `context_management`, or undefined. */
export function clearedBy(response: BetaContextManagementResponse | null | undefined): ClearedContext | undefined {
  const edits = response?.applied_edits ?? [];
  if (edits.length === 0) return undefined;
  let toolUses = 0;
  let thinkingTurns = 0;
  let tokens = 0;
  for (const edit of edits) {
    tokens += edit.cleared_input_tokens;
    if (edit.type === 'clear_tool_uses_20250919') toolUses += edit.cleared_tool_uses;
    else thinkingTurns += edit.cleared_thinking_turns;
  }
  return { toolUses, thinkingTurns, tokens, edits };
}

/** `fields` without those set to `undefined`: an option given as `undefined` is not sent, as if left out. */
function definedFields<T extends object>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}

function compactEdit(option: Exclude<CompactionOption, false>): BetaCompact20260112Edit {
  if (option === true) return { type: 'compact_20260112' };
  const { trigger, instructions, pauseAfterCompaction } = known('compaction', option, COMPACTION_KEYS);
  if (trigger !== undefined) checkCompactionTrigger(trigger);
  if (instructions !== undefined && typeof instructions !== 'string') {
    throw new TypeError('`compaction.instructions` must be a string.');
  }
  if (pauseAfterCompaction !== undefined && typeof pauseAfterCompaction !== 'boolean') {
    throw new TypeError('`compaction.pauseAfterCompaction` must be true or false.');
  }
  return {
    type: 'compact_20260112',
    ...(trigger !== undefined ? { trigger } : {}),
    ...(instructions !== undefined ? { instructions } : {}),
    ...(pauseAfterCompaction !== undefined ? { pause_after_compaction: pauseAfterCompaction } : {}),
  };
}
