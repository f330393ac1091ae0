// Tells a tool_result that failed because the browser's storage refused (quota full, IndexedDB failed, an old
// tab blocking) from Claude's ordinary mistakes, so the page can show it prominently. Pure: no DOM.
// run() and the agent's tool_result carry only the text, so this reads the tool's wording (src/core/replies.ts).

export interface StorageFailure {
  /** A short headline: "Storage is full" or "Storage failed". */
  title: string;
  /** The tool's own sentence, without the runner's `Error: ` prefix. */
  message: string;
  /** What the person can do about it. */
  advice: string;
}

const QUOTA = /storage quota/i;
const OTHER = /^(The memory storage failed|The memory is held open by another tab)/;

/** The failure in a tool_result's content, or undefined when it is not a storage failure. */
export function storageFailure(content: unknown, isError: boolean): StorageFailure | undefined {
  if (!isError || typeof content !== 'string') return undefined;
  const message = content.replace(/^Error: /, '');
  if (QUOTA.test(message)) {
    return {
      title: 'Storage is full',
      message,
      advice: 'Nothing was saved. Free space for this site: delete or expire memory files (export a bundle first to keep a copy), or clear other data this site stores.',
    };
  }
  if (OTHER.test(message)) return { title: 'Storage failed', message, advice: 'Nothing was saved. Reload the page and try again.' };
  return undefined;
}
