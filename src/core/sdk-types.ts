// The SDK's types this package names, taken from its public `Anthropic` namespace only: no path inside the SDK,
// so an app's types do not depend on how the SDK lays out its files. Type-only; never imported at run time.

import type { Anthropic } from '@anthropic-ai/sdk';

export type BetaMessageParam = Anthropic.Beta.BetaMessageParam;
export type BetaMessage = Anthropic.Beta.BetaMessage;
export type BetaContentBlock = Anthropic.Beta.BetaContentBlock;
export type BetaStopReason = Anthropic.Beta.BetaStopReason;
export type BetaUsage = Anthropic.Beta.BetaUsage;
export type BetaToolResultBlockParam = Anthropic.Beta.BetaToolResultBlockParam;
export type BetaClearToolUses20250919Edit = Anthropic.Beta.BetaClearToolUses20250919Edit;
export type BetaMemoryTool20250818 = Anthropic.Beta.BetaMemoryTool20250818;
export type BetaTool = Anthropic.Beta.BetaTool;

// Context management and compaction, for the agent in src/agent/ (context-edits.ts, compaction.ts).
export type BetaClearThinking20251015Edit = Anthropic.Beta.BetaClearThinking20251015Edit;
export type BetaCompact20260112Edit = Anthropic.Beta.BetaCompact20260112Edit;
export type BetaContextManagementConfig = Anthropic.Beta.BetaContextManagementConfig;
export type BetaContextManagementResponse = Anthropic.Beta.BetaContextManagementResponse;
export type BetaInputTokensTrigger = Anthropic.Beta.BetaInputTokensTrigger;
export type BetaCompactionConfig = Anthropic.Beta.BetaCompactionConfig;
export type BetaThinkingConfigParam = Anthropic.Beta.BetaThinkingConfigParam;
export type BetaAssistantMessageParam = Anthropic.Beta.BetaAssistantMessageParam;
export type BetaCompactionIterationUsage = Anthropic.Beta.BetaCompactionIterationUsage;
export type BetaClearToolUses20250919EditResponse = Anthropic.Beta.BetaClearToolUses20250919EditResponse;
export type BetaClearThinking20251015EditResponse = Anthropic.Beta.BetaClearThinking20251015EditResponse;
