// The model the Connection's field starts with: the agent's default, copied so that the first load holds neither the
// agent nor the model list (models.ts loads when the popover first opens).

import type { DEFAULT_AGENT_MODEL } from '../../src/entries/agent.js';

/** The agent's default model (`DEFAULT_AGENT_MODEL`); the compiler checks the copy. */
export const DEFAULT_MODEL: typeof DEFAULT_AGENT_MODEL = 'claude-sonnet-5-5';
