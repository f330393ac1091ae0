// The hint of an unknown-option TypeError: the nearest known key, by edit distance (./option-keys.ts).

/** `did you mean `x`?` for the known key nearest `key` (edit distance, ignoring case), else the known keys. */
export function optionHint(key: string, known: readonly string[]): string {
  const [near] = known
    .map((name) => [name, distance(key.toLowerCase(), name.toLowerCase())] as const)
    .filter(([, d]) => d <= Math.max(2, key.length / 3))
    .sort((a, b) => a[1] - b[1]);
  return near ? `did you mean \`${near[0]}\`?` : `known options: ${known.join(', ')}`;
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
