// A scripted turn, and the `message` object the Messages API would send for it.

/** One scripted assistant turn. */
export interface ScriptedTurn {
  /** A `text` block, sent before any tool use. */
  text?: string | undefined;
  /** `tool_use` blocks, in order. `name` defaults to `'memory'`, `id` to `toolu_scripted_<n>`. */
  toolUses?:
    | Array<{
        /** The tool called. Default `'memory'`. */
        name?: string | undefined;
        /** What Claude sends the tool, e.g. `{ command: 'view', path: '/memories' }`; sent as is, unchecked. */
        input: unknown;
        /** The block's id. Default `toolu_scripted_<n>`, counting over the whole script. */
        id?: string | undefined;
      }>
    | undefined;
  /**
   * A `compaction` block, first in the reply: the API summarized the conversation before Claude answered (the
   * `compact_20260112` edit), or was asked to (the `compaction` parameter). Alone, it stops with `compaction`.
   */
  compaction?: ScriptedCompaction | undefined;
  /** The reply's `context_management.applied_edits`: what the API cleared before Claude read the request. */
  appliedEdits?: ScriptedAppliedEdit[] | undefined;
  /** Defaults to `'tool_use'` when there are `toolUses`, `'compaction'` for a compaction alone, else `'end_turn'`. */
  stopReason?: 'end_turn' | 'tool_use' | 'max_tokens' | 'compaction' | 'pause_turn' | undefined;
}

/** A compaction as the API returns it; the opaque fields default to made-up values a request must send back as is. */
export interface ScriptedCompaction {
  /** The summary; `null` for a compaction that failed (the API then ignores the block). */
  summary: string | null;
  /** Default `scripted-opaque-<index>`. */
  encryptedContent?: string | null | undefined;
  /** Default `scripted-signature-<index>`. */
  signature?: string | null | undefined;
  /** Default `[]`: the summarized range changed no tool. */
  toolChanges?: unknown[] | undefined;
}

/** An entry of `context_management.applied_edits`, as the API words it. */
export type ScriptedAppliedEdit =
  | {
      /** Old tool uses were cleared. */
      type: 'clear_tool_uses_20250919';
      /** How many tool uses. */
      cleared_tool_uses: number;
      /** Input tokens that freed. */
      cleared_input_tokens: number;
    }
  | {
      /** Old thinking was cleared. */
      type: 'clear_thinking_20251015';
      /** How many turns' thinking. */
      cleared_thinking_turns: number;
      /** Input tokens that freed. */
      cleared_input_tokens: number;
    };

/** How a built message is named and counted. */
export interface MessageFields {
  /** Defaults to `claude-scripted`. */
  model?: string;
  /** The turn's number in the script (0-based): names the message `msg_scripted_<index>` and the request id. */
  index?: number;
  /** `<n>` of the first default tool-use id `toolu_scripted_<n>`; later ones count up. Defaults to 1. */
  toolUseNumber?: number;
  /** Reported as `usage.input_tokens` (a compaction's input, when the turn has one). Defaults to 1. */
  inputTokens?: number;
}

export const DEFAULT_MODEL = 'claude-scripted';
const DEFAULT_TOOL_NAME = 'memory';

type TextBlock = { type: 'text'; text: string };
type ToolUseBlock = { type: 'tool_use'; id: string; name: string; input: unknown };
export type CompactionBlock = {
  type: 'compaction';
  content: string | null;
  encrypted_content: string | null;
  signature: string | null;
  tool_changes: unknown[];
};
type ContentBlock = TextBlock | ToolUseBlock | CompactionBlock;

type Counts = {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
};
type Iteration = Counts & { type: 'compaction' | 'message'; cache_creation: null; model?: string };

export type WireMessage = {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: ContentBlock[];
  stop_reason: NonNullable<ScriptedTurn['stopReason']>;
  stop_sequence: null;
  usage: { input_tokens: number; output_tokens: number; iterations?: Iteration[] };
  context_management?: { applied_edits: ScriptedAppliedEdit[] };
};

export function buildMessage(turn: ScriptedTurn, fields: MessageFields): WireMessage {
  const index = fields.index ?? 0;
  let toolUseNumber = fields.toolUseNumber ?? 1;
  const content: ContentBlock[] = [];
  if (turn.compaction) content.push(compactionBlock(turn.compaction, index));
  if (turn.text !== undefined) content.push({ type: 'text', text: turn.text });
  for (const toolUse of turn.toolUses ?? []) {
    content.push({
      type: 'tool_use',
      id: toolUse.id ?? `toolu_scripted_${toolUseNumber++}`,
      name: toolUse.name ?? DEFAULT_TOOL_NAME,
      // The API always sends an object; `undefined` would vanish from the JSON.
      input: toolUse.input === undefined ? {} : toolUse.input,
    });
  }
  const hasToolUse = (turn.toolUses?.length ?? 0) > 0;
  const compactionOnly = turn.compaction !== undefined && content.length === 1;
  const model = fields.model ?? DEFAULT_MODEL;
  return {
    id: `msg_scripted_${index}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: turn.stopReason ?? (hasToolUse ? 'tool_use' : compactionOnly ? 'compaction' : 'end_turn'),
    stop_sequence: null,
    usage: usage(content, fields.inputTokens ?? 1, model),
    ...(turn.appliedEdits ? { context_management: { applied_edits: turn.appliedEdits } } : {}),
  };
}

function compactionBlock(compaction: ScriptedCompaction, index: number): CompactionBlock {
  return {
    type: 'compaction',
    content: compaction.summary,
    encrypted_content: opaque(compaction.encryptedContent, `scripted-opaque-${index}`),
    signature: opaque(compaction.signature, `scripted-signature-${index}`),
    tool_changes: compaction.toolChanges ?? [],
  };
}

/** A scripted opaque field: as given (`null` too), else its made-up default. */
function opaque(given: string | null | undefined, made: string): string | null {
  return given === undefined ? made : given;
}

/**
 * The reply's usage. A compaction's tokens are in `iterations` only, as the API reports them: the top-level counts
 * are the answer's alone, which read the summary in place of the conversation (nothing, for a compaction alone).
 */
function usage(content: ContentBlock[], inputTokens: number, model: string): WireMessage['usage'] {
  const [first, ...answer] = content;
  if (first?.type !== 'compaction') return { input_tokens: inputTokens, output_tokens: estimateTokens(content) };
  const summaryTokens = estimateTokens([first]);
  const iterations: Iteration[] = [{ type: 'compaction', ...counts(inputTokens, summaryTokens), cache_creation: null }];
  if (answer.length === 0) return { input_tokens: 0, output_tokens: 0, iterations };
  const answered = counts(summaryTokens, estimateTokens(answer));
  iterations.push({ type: 'message', ...answered, cache_creation: null, model });
  return { input_tokens: answered.input_tokens, output_tokens: answered.output_tokens, iterations };
}

function counts(input: number, output: number): Counts {
  return { input_tokens: input, output_tokens: output, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
}

/** About four characters a token, as a rough guide. */
function estimateTokens(content: ContentBlock[]): number {
  const chars = content.reduce((sum, block) => {
    if (block.type === 'text') return sum + block.text.length;
    if (block.type === 'compaction') return sum + (block.content ?? '').length;
    return sum + JSON.stringify(block.input).length;
  }, 0);
  return Math.max(1, Math.ceil(chars / 4));
}
