// `idb-memory-tool/offline`: a scripted Claude that answers like the Messages API, for demos and tests without a
// network or a key. No import of the SDK at run time.
/** @module idb-memory-tool/offline */

export { createScriptedClaude, SCRIPT_FINISHED_TEXT } from '../offline/scripted-claude.js';
export type {
  ScriptedClaude,
  ScriptedClaudeOptions,
  ScriptedStep,
  ScriptedRequest,
  ReceivedToolResult,
} from '../offline/scripted-claude.js';
export type { ScriptedTurn, ScriptedCompaction, ScriptedAppliedEdit } from '../offline/wire-message.js';
export type { ContentBlockShape, MessageParamShape } from '../core/message-shapes.js';
