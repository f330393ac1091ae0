// The checks of the context edits' fields, down into their nested objects: a key the API does not know would reach it
// as is, and the page would see the API's 400 only at the first send(); so it is refused before any request.

/** The smallest `compaction.trigger` the API takes, in input tokens (its default is 150,000). */
export const MIN_COMPACTION_TRIGGER = 50_000;

/** What a nested `{ type, value }` may hold: its types, and its least value when there is one. */
type Counted = { types: readonly string[]; min?: number };

/** `value` when all its keys are `keys`; an unknown key is refused, not passed on to the API. */
export function known<T extends object>(name: string, value: T, keys: readonly string[]): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError(`\`${name}\` must be true, false or an object.`);
  }
  refuseUnknown(name, value, keys);
  return value;
}

/**
 * Checks a nested `{ type, value }` (a trigger, a `keep`, a `clear_at_least`): an object with those two keys only, a
 * `type` of `counted.types` and an integer `value`, `counted.min` at least when given. Null and undefined pass.
 */
export function checkCounted(name: string, given: unknown, counted: Counted): void {
  if (given === undefined || given === null) return;
  const shape = `{ type: ${counted.types.map((type) => `'${type}'`).join(' | ')}, value: <an integer> }`;
  if (typeof given !== 'object' || Array.isArray(given)) {
    throw new TypeError(`\`${name}\` must be ${shape}, got ${JSON.stringify(given)}`);
  }
  refuseUnknown(name, given, ['type', 'value']);
  const { type, value } = given as Record<string, unknown>;
  const typed = typeof type === 'string' && counted.types.includes(type);
  if (!typed || typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new TypeError(`\`${name}\` must be ${shape}, got ${JSON.stringify(given)}`);
  }
  if (counted.min !== undefined && value < counted.min) {
    throw new TypeError(`\`${name}.value\` must be ${counted.min} or more, got ${value}`);
  }
}

/** The compaction edit's trigger: input tokens only, and not under the API's minimum. */
export function checkCompactionTrigger(trigger: unknown): void {
  // The SDK's type allows null, but the option's does not: a null would drop the trigger unseen.
  if (trigger === null) {
    throw new TypeError("`compaction.trigger` must be { type: 'input_tokens', value: <an integer> }, got null");
  }
  checkCounted('compaction.trigger', trigger, { types: ['input_tokens'] });
  const { value } = trigger as { value: number };
  if (value < MIN_COMPACTION_TRIGGER) {
    throw new TypeError(
      `\`compaction.trigger\` must be ${MIN_COMPACTION_TRIGGER.toLocaleString('en')} input tokens or more (the ` +
        `API's minimum; its default is 150,000), got ${value}`,
    );
  }
}

/** `clear_tool_uses_20250919`'s nested fields: `trigger`, `keep`, `clear_at_least`. */
export function checkClearToolUses(fields: Record<string, unknown>): void {
  checkCounted('contextManagement.trigger', fields.trigger, { types: ['input_tokens', 'tool_uses'], min: 1 });
  checkCounted('contextManagement.keep', fields.keep, { types: ['tool_uses'], min: 0 });
  checkCounted('contextManagement.clear_at_least', fields.clear_at_least, { types: ['input_tokens'], min: 0 });
  const excluded = fields.exclude_tools;
  if (excluded != null && !(Array.isArray(excluded) && excluded.every((name) => typeof name === 'string'))) {
    throw new TypeError('`contextManagement.exclude_tools` must be a list of tool names, e.g. ["memory"].');
  }
}

/** `clear_thinking_20251015`'s `keep`: `'all'`, `{ type: 'all' }` or `{ type: 'thinking_turns', value }`. */
export function checkClearThinking(fields: Record<string, unknown>): void {
  const { keep } = fields;
  if (keep === undefined || keep === 'all') return;
  if (typeof keep === 'object' && keep !== null && (keep as { type?: unknown }).type === 'all') {
    refuseUnknown('clearThinking.keep', keep, ['type']);
    return;
  }
  checkCounted('clearThinking.keep', keep, { types: ['thinking_turns'], min: 0 });
}

function refuseUnknown(name: string, value: object, keys: readonly string[]): void {
  const unknown = Object.keys(value).filter((key) => !keys.includes(key));
  if (unknown.length > 0) {
    throw new TypeError(`\`${name}\` has unknown keys: ${unknown.join(', ')} (known: ${keys.join(', ')}).`);
  }
}
