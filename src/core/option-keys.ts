// Unknown option keys refused: a typo (`dbname`) would otherwise be ignored silently and, for `init()`, open the
// default database. The TypeError names the key and the nearest known one.

/** Throws a TypeError for the first key of `options` not in `known`; `undefined` and `null` pass (no options). */
export function checkOptionKeys(options: unknown, known: readonly string[]): void {
  if (options === undefined || options === null) return;
  if (typeof options !== 'object') throw new TypeError(`options must be an object, got ${typeof options}`);
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const near = nearest(key, known);
    const hint = near === undefined ? `known options: ${known.join(', ')}` : `did you mean \`${near}\`?`;
    throw new TypeError(`Unknown option \`${key}\`; ${hint}`);
  }
}

/** The known key closest to `key` (case-insensitive edit distance), if close enough to be a typo of it. */
function nearest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = distance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(key.length / 3)) ? best : undefined;
}

/** Levenshtein distance, one row at a time. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      next[j] = Math.min((row[j] ?? 0) + 1, (next[j - 1] ?? 0) + 1, (row[j - 1] ?? 0) + cost);
    }
    row = next;
  }
  return row[b.length] ?? 0;
}
