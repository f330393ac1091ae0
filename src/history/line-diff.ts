// Which lines of a new text were kept from the old one: Myers' O(ND) diff in linear space (the middle snake, divide
// and conquer), on lines as integers, its work bounded; past the bound a region counts as rewritten (./README.md).

/** Snake steps one diff may take in all; past it, the regions left are counted as rewritten (no line kept). */
export const DIFF_WORK = 4_000_000;

/** For each line of `after`, the index of the line of `before` it was kept from, or -1 where the change wrote it. */
export function keptLines(before: readonly string[], after: readonly string[], work = DIFF_WORK): Int32Array {
  const ids = new Map<string, number>();
  const idOf = (line: string): number => {
    let id = ids.get(line);
    if (id === undefined) ids.set(line, (id = ids.size));
    return id;
  };
  const a = Int32Array.from(before, idOf);
  const b = Int32Array.from(after, idOf);
  const kept = new Int32Array(b.length).fill(-1);
  const budget = { left: work };
  // Regions still to compare, as [aFrom, aTo, bFrom, bTo]: a stack instead of recursion, so depth cannot overflow.
  const regions: number[][] = [[0, a.length, 0, b.length]];
  for (let region = regions.pop(); region; region = regions.pop()) {
    let [a0 = 0, a1 = 0, b0 = 0, b1 = 0] = region;
    while (a0 < a1 && b0 < b1 && a[a0] === b[b0]) kept[b0++] = a0++;
    while (a0 < a1 && b0 < b1 && a[a1 - 1] === b[b1 - 1]) kept[--b1] = --a1;
    if (a0 === a1 || b0 === b1 || budget.left <= 0) continue;
    const split = middleSnake(a, a0, a1, b, b0, b1, budget);
    if (!split) continue;
    regions.push([a0 + split[0], a1, b0 + split[1], b1], [a0, a0 + split[0], b0, b0 + split[1]]);
  }
  return kept;
}

/**
 * Where an optimal edit path of `a[a0..a1)` into `b[b0..b1)` crosses its middle (offsets into the region), found by
 * searching from both ends at once; undefined when nothing matches or the budget ran out.
 */
function middleSnake(
  a: Int32Array,
  a0: number,
  a1: number,
  b: Int32Array,
  b0: number,
  b1: number,
  budget: { left: number },
): [number, number] | undefined {
  const n = a1 - a0;
  const m = b1 - b0;
  const maxD = Math.ceil((n + m) / 2);
  const offset = maxD;
  const size = 2 * maxD + 2;
  const forward = new Int32Array(size).fill(-1);
  const backward = new Int32Array(size).fill(-1);
  forward[offset + 1] = 0;
  backward[offset + 1] = 0;
  const delta = n - m;
  // With an odd delta the paths meet on a forward step, else on a backward one.
  const front = delta % 2 !== 0;
  let k1start = 0;
  let k1end = 0;
  let k2start = 0;
  let k2end = 0;
  const at = (v: Int32Array, i: number): number => v[i] ?? -1;
  for (let d = 0; d < maxD; d++) {
    if ((budget.left -= 2 * d + 2) <= 0) return undefined;
    for (let k1 = -d + k1start; k1 <= d - k1end; k1 += 2) {
      const i = offset + k1;
      let x1 = k1 === -d || (k1 !== d && at(forward, i - 1) < at(forward, i + 1)) ? at(forward, i + 1) : at(forward, i - 1) + 1;
      let y1 = x1 - k1;
      const from1 = x1;
      while (x1 < n && y1 < m && a[a0 + x1] === b[b0 + y1]) {
        x1++;
        y1++;
      }
      budget.left -= x1 - from1;
      forward[i] = x1;
      if (x1 > n) k1end += 2;
      else if (y1 > m) k1start += 2;
      else if (front) {
        const j = offset + delta - k1;
        if (j >= 0 && j < size && at(backward, j) !== -1 && x1 >= n - at(backward, j)) return [x1, y1];
      }
    }
    for (let k2 = -d + k2start; k2 <= d - k2end; k2 += 2) {
      const i = offset + k2;
      let x2 = k2 === -d || (k2 !== d && at(backward, i - 1) < at(backward, i + 1)) ? at(backward, i + 1) : at(backward, i - 1) + 1;
      let y2 = x2 - k2;
      const from2 = x2;
      while (x2 < n && y2 < m && a[a1 - x2 - 1] === b[b1 - y2 - 1]) {
        x2++;
        y2++;
      }
      budget.left -= x2 - from2;
      backward[i] = x2;
      if (x2 > n) k2end += 2;
      else if (y2 > m) k2start += 2;
      else if (!front) {
        const j = offset + delta - k2;
        const x1 = at(forward, j);
        if (j >= 0 && j < size && x1 !== -1 && x1 >= n - x2) return [x1, offset + x1 - j];
      }
    }
  }
  return undefined;
}
