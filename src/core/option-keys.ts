// Unknown option keys refused: a typo (`dbname`) would otherwise be ignored silently and, for `init()`, open the
// default database. The TypeError names the key and the nearest known one.

/** Throws a TypeError for the first key of `options` not in `known`; `undefined` and `null` pass (no options). */
export function checkOptionKeys(options: unknown, known: readonly string[]): void {
  if (options == null) return;
  if (typeof options !== 'object') throw new TypeError(`options must be an object, got ${typeof options}`);
  const key = Object.keys(options).find((name) => !known.includes(name));
  if (key === undefined) return;
  // The nearest by edit distance, ignoring case; one too far to be a typo is not offered.
  const [near] = known
    .map((name) => [name, distance(key.toLowerCase(), name.toLowerCase())] as const)
    .filter(([, d]) => d <= Math.max(2, key.length / 3))
    .sort((a, b) => a[1] - b[1]);
  const hint = near ? `did you mean \`${near[0]}\`?` : `known options: ${known.join(', ')}`;
  throw new TypeError(`Unknown option \`${key}\`; ${hint}`);
}

/** Levenshtein distance, one row at a time. */
function distance(a: string, b: string): number {
  let row = [...Array(b.length + 1).keys()];
  for (let i = 0; i < a.length; i++) {
    const next = [i + 1];
    for (let j = 0; j < b.length; j++) {
      next.push(Math.min((row[j + 1] ?? 0) + 1, (next[j] ?? 0) + 1, (row[j] ?? 0) + (a[i] === b[j] ? 0 : 1)));
    }
    row = next;
  }
  return row[b.length] ?? 0;
}
