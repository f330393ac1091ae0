// A scripted turn, and the `message` object the Messages API would send for it.

/** One scripted assistant turn. */
export interface ScriptedTurn {
  /** A `text` block, sent before any tool use. */
  text?: string;
  /** `tool_use` blocks, in order. `name` defaults to `'memory'`, `id` to `toolu_scripted_<n>`. */
  toolUses?: Array<{ name?: string; input: unknown; id?: string }>;
  /** Defaults to `'tool_use'` when `toolUses` is non-empty, else `'end_turn'`. */
  stopReason?: 'end_turn' | 'tool_use' | 'max_tokens';
}

/** How a built message is named and counted. */
export interface MessageFields {
  /** Defaults to `claude-scripted`. */
  model?: string;
  /** The turn's number in the script (0-based): names the message `msg_scripted_<index>` and the request id. */
  index?: number;
  /** `<n>` of the first default tool-use id `toolu_scripted_<n>`; later ones count up. Defaults to 1. */
  toolUseNumber?: number;
  /** Reported as `usage.input_tokens`. Defaults to 1. */
  inputTokens?: number;
}

export const DEFAULT_MODEL = 'claude-scripted';
const DEFAULT_TOOL_NAME = 'memory';

type TextBlock = { type: 'text'; text: string };
type ToolUseBlock = { type: 'tool_use'; id: string; name: string; input: unknown };
type ContentBlock = TextBlock | ToolUseBlock;

export type WireMessage = {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: ContentBlock[];
  stop_reason: NonNullable<ScriptedTurn['stopReason']>;
  stop_sequence: null;
  usage: { input_tokens: number; output_tokens: number };
};

export function buildMessage(turn: ScriptedTurn, fields: MessageFields): WireMessage {
  const index = fields.index ?? 0;
  let toolUseNumber = fields.toolUseNumber ?? 1;
  const content: ContentBlock[] = [];
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
  return {
    id: `msg_scripted_${index}`,
    type: 'message',
    role: 'assistant',
    model: fields.model ?? DEFAULT_MODEL,
    content,
    stop_reason: turn.stopReason ?? (hasToolUse ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage: { input_tokens: fields.inputTokens ?? 1, output_tokens: estimateTokens(content) },
  };
}

/** About four characters a token, as a rough guide. */
function estimateTokens(content: ContentBlock[]): number {
  const chars = content.reduce(
    (sum, block) => sum + (block.type === 'text' ? block.text.length : JSON.stringify(block.input).length),
    0,
  );
  return Math.max(1, Math.ceil(chars / 4));
}
