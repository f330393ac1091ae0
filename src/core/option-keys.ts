// Unknown option keys refused: a typo (`dbname`) would otherwise be ignored silently and, for `init()`, open the
// default database. The TypeError names the key and the nearest known one (./option-hint.ts). Imported statically:
// a service worker may not import(), and the worker entry must hold no import() (test/e2e/workers.test.ts).

import { optionHint } from './option-hint.js';

/**
 * A promise rejecting with a TypeError for the first key of `options` not in `known`, or undefined when all are
 * known (`undefined` and `null` options too). Synchronous when nothing is refused, so a caller that returns the
 * promise only when there is one keeps its place in the call order.
 */
export function checkOptionKeys(options: unknown, known: readonly string[]): Promise<never> | undefined {
  if (options == null) return undefined;
  if (typeof options !== 'object') throw new TypeError(`options must be an object, got ${typeof options}`);
  const key = Object.keys(options).find((name) => !known.includes(name));
  return key === undefined ? undefined : refuse(key, known);
}

async function refuse(key: string, known: readonly string[]): Promise<never> {
  throw new TypeError(`Unknown option \`${key}\`; ${optionHint(key, known)}`);
}
