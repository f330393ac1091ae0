// The Offline demo's scripts by name, in the picker's order (the first is the default): small enough for the first
// load. The scripts themselves, and the agent that plays them, load when one is played or the page is idle.

export const OFFLINE_SCRIPT_CHOICES = [
  { id: 'remember', label: 'Remember a preference, then a new conversation' },
  { id: 'long-task', label: 'A long task: context cleared, then compacted' },
  { id: 'two-sessions', label: 'Two sessions: a progress log in memory' },
  { id: 'find-by-search', label: 'Find one fact among 300 files by searching' },
] as const;

export type OfflineScriptId = (typeof OFFLINE_SCRIPT_CHOICES)[number]['id'];

/** The name the picker shows for `id`. */
export function labelOf(id: OfflineScriptId): string {
  return OFFLINE_SCRIPT_CHOICES.find((choice) => choice.id === id)?.label ?? id;
}
