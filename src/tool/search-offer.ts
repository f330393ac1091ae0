// Whether Claude was offered `memory_search` for a tool, looked up by tool (a WeakMap, as ./internals.ts): a cut folder
// listing then names it. Set by the search adapters (../adapters/); read by `view`. Not set: replies are unchanged.

const offered = new WeakMap<object, string>();

/** Marks `tool` as searchable by Claude through the client tool named `name`. */
export function offerSearch(tool: object, name: string): void {
  offered.set(tool, name);
}

/** The name of the search tool Claude was offered for `tool`, or undefined. */
export function searchToolOf(tool: object): string | undefined {
  return offered.get(tool);
}
