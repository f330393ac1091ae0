// The Messages API's shapes as this package's SDK-free entries name them, written out structurally: an entry that
// does not need `@anthropic-ai/sdk` (`offline`) must not import it, even in its declarations.

/** A content block of a message, as sent on the wire: its `type`, and whatever fields that type has. */
export interface ContentBlockShape {
  /** The block's type (`text`, `tool_use`, `tool_result`, …). */
  type: string;
  [field: string]: unknown;
}

/** A message of a request (`messages[i]`): the SDK's `BetaMessageParam`, read without the SDK. */
export interface MessageParamShape {
  /** Who says it. */
  role: 'user' | 'assistant';
  /** A text, or the message's blocks. */
  content: string | ContentBlockShape[];
}
