// What an Offline demo script is: what the person says, what the scripted Claude answers, and the agent options it
// is played with. Only Claude's side is scripted; the real SDK runner and this memory do the rest.

import type { MemoryAgentOptions } from '../../src/entries/agent.js';
import type { ScriptedStep } from '../../src/entries/offline.js';

export interface OfflineScript {
  id: string;
  /** Its name in the script picker. */
  label: string;
  /** The transcript's note as it starts. */
  intro: string;
  options: Pick<MemoryAgentOptions, 'system' | 'compaction' | 'contextManagement' | 'clearThinking' | 'search'>;
  /** Puts what the script needs in the memory before Claude's first turn (play.ts waits for it). */
  prepare?(tool: MemoryAgentOptions['tool']): Promise<void>;
  /** What the person sends, a new conversation each (the memory stays). */
  conversations: string[];
  /** Claude's side of all the conversations, in order. */
  turns(): ScriptedStep[];
}
